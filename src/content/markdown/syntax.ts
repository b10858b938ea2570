import type { BlockContent, DefinitionContent, Literal, Parent } from 'mdast';

/**
 * The mdast nodes GitBook-flavoured markdown adds to CommonMark + GFM. The parser builds them
 * from `{% %}` tags, `$$` math and `<details>` HTML; the serializer writes them back.
 */

/** A `{% name key="value" %}` line on its own: a void block, or a tag we do not pair. */
export interface GitbookTag extends Literal {
  type: 'gitbookTag';
  /** The tag exactly as written, `{%` to `%}`. */
  value: string;
  name: string;
  /** Null when the attributes are not the `key="value"` list GitBook writes. */
  attrs: Record<string, string> | null;
  /** What follows the name, trimmed: the expression of `if`, the path of `include`. */
  args: string;
}

/** An opening tag, its matching `{% endname %}` and what lies between. */
export interface GitbookBlock extends Parent {
  type: 'gitbookBlock';
  name: string;
  /** Empty when the opening tag's arguments are not a `key="value"` list (see `args`). */
  attrs: Record<string, string>;
  args: string;
  open: string;
  close: string;
  children: FlowContent[];
  /** `{% if %}` … `{% else %}` …: what follows the `else` tag (which is `elseTag`). */
  alternate?: FlowContent[];
  elseTag?: string;
}

/** `<details><summary>title</summary> … </details>`, the HTML GitBook writes for expandables. */
export interface Expandable extends Parent {
  type: 'expandable';
  /** The HTML that opens the block (`<details>` and `<summary>`, one or two HTML nodes). */
  head: string[];
  /** What is inside `<summary>`, as written; null when there is none. */
  summary: string | null;
  /** `<details open>`. */
  open: boolean;
  close: string;
  children: FlowContent[];
}

/** A `$$` block on lines of its own. */
export interface MathBlock extends Literal {
  type: 'math';
}

/** `$$formula$$` inside a line. */
export interface InlineMath extends Literal {
  type: 'inlineMath';
}

export type FlowContent = BlockContent | DefinitionContent;

declare module 'mdast' {
  interface BlockContentMap {
    gitbookTag: GitbookTag;
    gitbookBlock: GitbookBlock;
    expandable: Expandable;
    math: MathBlock;
  }
  interface PhrasingContentMap {
    inlineMath: InlineMath;
  }
  interface RootContentMap {
    gitbookTag: GitbookTag;
    gitbookBlock: GitbookBlock;
    expandable: Expandable;
    math: MathBlock;
    inlineMath: InlineMath;
  }
}

/**
 * The syntax of the code block that carries markdown we cannot express as document nodes (raw
 * HTML we do not understand, unknown `{% %}` tags, footnotes, a block a container may not
 * hold). We chose a code block over a paragraph because it shows the source as it is and
 * converts back verbatim: markdown -> document -> markdown keeps it byte for byte, and readers
 * of the document see that this part is raw markdown rather than text.
 */
export const RAW_SYNTAX = 'markdown-raw';
