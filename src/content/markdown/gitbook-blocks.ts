import type { Html } from 'mdast';
import type { Expandable, FlowContent, GitbookBlock, GitbookTag } from './syntax.js';

/**
 * GitBook's `{% %}` blocks and `<details>` expandables, from the flat list of tag lines the
 * parser sees to nested nodes, and the tag syntax both ways.
 */

/**
 * Tags pair with the next `{% endname %}` among their siblings, whatever the name (GitBook's
 * blocks, the legacy API-method families, blocks we do not know, whose content is then still
 * read). A tag whose closing tag never comes stays a void tag: `embed`, `file` and `openapi`
 * close only when they hold something (a caption, the spec link); `include` never closes.
 */
const TAG_PARTS = /^\{%-?\s*(@?[A-Za-z][\w-]*(?:\/[\w-]+)*)((?:[^%]|%(?!\}))*?)\s*-?%\}$/;
/** `key="value"` (GitBook), or `key=value` unquoted (legacy API-method blocks). */
const ATTRIBUTE = /\s+([A-Za-z][\w-]*)=(?:"((?:[^"\\]|\\["}]|\\)*)"|([^\s"%]+))/y;

export function parseTag(source: string): GitbookTag {
  const [, name = '', rest = ''] = TAG_PARTS.exec(source) ?? [];
  return { type: 'gitbookTag', value: source, name, attrs: parseAttributes(rest), args: rest.trim() };
}

function parseAttributes(text: string): Record<string, string> | null {
  const attrs: Record<string, string> = {};
  let offset = 0;
  while (offset < text.length) {
    ATTRIBUTE.lastIndex = offset;
    const match = ATTRIBUTE.exec(text);
    if (!match) return /^\s*$/.test(text.slice(offset)) ? attrs : null;
    const key = match[1]!;
    if (Object.hasOwn(attrs, key)) return null;
    attrs[key] = match[2] !== undefined ? match[2].replace(/\\(["}])/g, '$1') : match[3]!;
    offset = ATTRIBUTE.lastIndex;
  }
  return attrs;
}

/**
 * `{% name key="value" %}`, attributes in the order given. In values, `"` is written `\"` and
 * `%}` is written `%\}` so the tag stays one tag; other backslashes (Windows paths in code
 * titles) are literal. A tag is one line: line breaks in values become spaces.
 */
export function formatTag(name: string, attrs: Array<[string, string | undefined]> = []): string {
  const parts = attrs
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(
      ([key, value]) => ` ${key}="${value.replace(/\n/g, ' ').replace(/"/g, '\\"').replace(/%\}/g, '%\\}')}"`,
    );
  return `{% ${name}${parts.join('')} %}`;
}

export function gitbookBlock(
  name: string,
  attrs: Array<[string, string | undefined]>,
  children: FlowContent[],
): GitbookBlock {
  const record: Record<string, string> = {};
  for (const [key, value] of attrs) if (value !== undefined) record[key] = value;
  return {
    type: 'gitbookBlock',
    name,
    attrs: record,
    args: '',
    open: formatTag(name, attrs),
    close: formatTag(`end${name}`),
    children,
  };
}

const DETAILS_OPEN = /^<details(\s+open)?\s*>(?:\s*<summary>([\s\S]*?)<\/summary>)?\s*$/i;
const DETAILS_CLOSE = /^<\/details>$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>$/i;

interface Frame {
  /** Where the opening node sits in the output list. */
  at: number;
  name: string;
  open: GitbookTag | Html;
}

/**
 * Pairs opening and closing tags (and `<details>` HTML) among siblings. Unpaired tags stay
 * `gitbookTag` nodes (void blocks or raw markdown), an unpaired `<details>` stays HTML.
 */
export function nestBlocks(children: FlowContent[]): FlowContent[] {
  const out: FlowContent[] = [];
  const stack: Frame[] = [];
  for (const child of children) {
    const opening = openingName(child);
    if (opening) {
      stack.push({ at: out.length, name: opening, open: child as GitbookTag | Html });
      out.push(child);
      continue;
    }
    const closing = closingName(child);
    const depth = closing ? stack.findLastIndex((frame) => frame.name === closing) : -1;
    if (depth < 0) {
      out.push(child);
      continue;
    }
    // Frames opened after the one closing here stay unpaired: their tags are already in `out`.
    const frame = stack[depth]!;
    stack.length = depth;
    const inner = out.splice(frame.at);
    inner.shift();
    out.push(
      frame.name === 'details'
        ? expandable(frame.open as Html, inner, (child as Html).value)
        : pairedTag(frame.open as GitbookTag, inner, (child as GitbookTag).value),
    );
  }
  return out;
}

function openingName(node: FlowContent): string | null {
  if (node.type === 'html') return DETAILS_OPEN.test(node.value) ? 'details' : null;
  if (node.type !== 'gitbookTag' || node.name.startsWith('end') || node.name === 'else') return null;
  return node.name;
}

function closingName(node: FlowContent): string | null {
  if (node.type === 'html') return DETAILS_CLOSE.test(node.value) ? 'details' : null;
  if (node.type !== 'gitbookTag' || !node.name.startsWith('end') || node.args !== '') return null;
  return node.name.slice(3);
}

function pairedTag(open: GitbookTag, children: FlowContent[], close: string): GitbookBlock {
  const block: GitbookBlock = {
    type: 'gitbookBlock',
    name: open.name,
    attrs: open.attrs ?? {},
    args: open.args,
    open: open.value,
    close,
    children,
  };
  if (open.name === 'if') {
    const at = children.findIndex((c) => c.type === 'gitbookTag' && c.name === 'else' && c.args === '');
    if (at >= 0) {
      block.elseTag = (children[at] as GitbookTag).value;
      block.alternate = children.slice(at + 1);
      block.children = children.slice(0, at);
    }
  }
  return block;
}

function expandable(open: Html, children: FlowContent[], close: string): Expandable {
  const [, isOpen, summary] = DETAILS_OPEN.exec(open.value) ?? [];
  const head = [open.value];
  let title = summary ?? null;
  const first = children[0];
  if (title === null && first?.type === 'html' && SUMMARY.test(first.value)) {
    title = SUMMARY.exec(first.value)![1]!;
    head.push(first.value);
    children.shift();
  }
  return { type: 'expandable', head, summary: title, open: Boolean(isOpen), close, children };
}
