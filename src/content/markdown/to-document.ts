import { fromHtml } from 'hast-util-from-html';
import { toText } from 'hast-util-to-text';
import type {
  Code as MdCode,
  Heading as MdHeading,
  List as MdList,
  Nodes,
  PhrasingContent,
  Root,
} from 'mdast';
import { toString as mdastText } from 'mdast-util-to-string';
import type { JsonDocument } from '../document-schema.js';
import { HEADING_ID, Slugger } from '../slugs.js';
import { CONTAINMENT, type Container, type Profile } from './containers.js';
import { type ToDocumentContext, Unrepresentable } from './context.js';
import {
  type AnyBlock,
  type Code,
  codeBlock,
  type Expandable as DocExpandable,
  type Heading,
  type List,
  paragraph,
  plainText,
  type RawBlock,
  text,
} from './document-types.js';
import { gitbookBlockToDocument } from './gitbook-to-document.js';
import { htmlToBlocks } from './html-blocks.js';
import { htmlInlines } from './html-inlines.js';
import { imagesFromParagraph } from './images.js';
import { pack } from './inline-parts.js';
import { type LinkResolver, plainLinks } from './links.js';
import { parseMarkdown, walk } from './parse.js';
import { stringifyNode } from './stringify.js';
import { type Expandable, type FlowContent, RAW_SYNTAX } from './syntax.js';
import { tableToDocument } from './tables.js';
import { toInlines } from './to-inline.js';

export interface ToDocumentOptions {
  links?: LinkResolver;
  /**
   * Which document to build: `v0146` (default) and `v0202` keep to that version of the
   * official schema, `render` builds what the published site draws (see `containers.ts`).
   */
  profile?: Profile;
  /** Told of each construct that has no document form (`{% name %}`, `<tag>`, …). */
  onUnknown?: (construct: string) => void;
}

export function markdownToDocument(
  markdown: string,
  options: LinkResolver | ToDocumentOptions = {},
): JsonDocument {
  return parsedToDocument(parseMarkdown(markdown), options);
}

/**
 * `markdownToDocument` of markdown parsed by `parseMarkdown`. Converting reads the tree and
 * never changes it: one parse serves a conversion for each profile.
 */
export function parsedToDocument(tree: Root, options: LinkResolver | ToDocumentOptions = {}): JsonDocument {
  const {
    links = plainLinks,
    profile = 'v0146',
    onUnknown,
  } = 'resolve' in options ? { links: options } : options;
  const footnotes = new Map<string, FlowContent[]>();
  walk(tree, (node) => {
    if (node.type === 'footnoteDefinition' && !footnotes.has(node.identifier))
      footnotes.set(node.identifier, node.children as FlowContent[]);
  });
  const ctx: ToDocumentContext = {
    links,
    profile,
    slugs: new Slugger(),
    footnotes,
    usedFootnotes: new Set(),
    unknown: (construct) => onUnknown?.(construct),
    children: (nodes, container) => convertChildren(nodes, container, ctx),
    accept: (blocks, container) => {
      const allowed = CONTAINMENT[profile][container];
      if (blocks.some((b) => !allowed.has(b.type) && !(profile === 'render' && (b.type as string) === 'raw')))
        throw new Unrepresentable(`a block ${container} may not hold`);
      return blocks;
    },
  };
  const nodes = ctx.children(tree.children as FlowContent[], 'document');
  return { object: 'document', data: {}, nodes: nodes as JsonDocument['nodes'] };
}

function convertChildren(
  children: readonly FlowContent[],
  container: Container,
  ctx: ToDocumentContext,
): AnyBlock[] {
  // Footnotes an annotation shows are not shown again at the end of the page; those no
  // annotation uses stay (as raw markdown or text).
  const referenced = new Set<string>();
  for (const child of children)
    walk(child as Nodes, (node) => {
      if (node.type === 'footnoteReference') referenced.add(node.identifier);
    });
  const out: AnyBlock[] = [];
  for (const child of children) {
    if (
      child.type === 'footnoteDefinition' &&
      (ctx.usedFootnotes.has(child.identifier) || referenced.has(child.identifier))
    )
      continue;
    out.push(...blockOrRaw(child, container, ctx));
  }
  return out;
}

/**
 * The blocks for `node`, or what stands for it when it has no document form or the container
 * may not hold it: a raw markdown code block in API documents (where raw blocks are not allowed
 * either, the container itself becomes raw: the `Unrepresentable` travels up to the nearest one
 * that can), its content or text on the site.
 */
function blockOrRaw(node: FlowContent, container: Container, ctx: ToDocumentContext): AnyBlock[] {
  const allowed = CONTAINMENT[ctx.profile][container];
  const mark = ctx.slugs.mark();
  try {
    const blocks = convertBlock(node, container, ctx);
    if (
      blocks.every((b) => allowed.has(b.type) || (ctx.profile === 'render' && (b.type as string) === 'raw'))
    )
      return blocks;
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
    if (error.unknown) ctx.unknown(error.message);
  }
  ctx.slugs.rewind(mark);
  if (ctx.profile === 'render') return shown(node, container, ctx);
  if (!allowed.has('code')) throw new Unrepresentable(`${node.type} in this container`);
  return [codeBlock(stringifyNode(node), RAW_SYNTAX)];
}

/**
 * What a visitor sees of markdown with no document form: the content of an unknown `{% %}`
 * block, the text of anything else; never a conditional block's content, whose condition could
 * not be read.
 */
function shown(node: FlowContent, container: Container, ctx: ToDocumentContext): AnyBlock[] {
  if (node.type === 'gitbookBlock') {
    if (node.name === 'if') return [];
    return ctx.children(node.children, container);
  }
  if (node.type === 'gitbookTag' || node.type === 'definition' || node.type === 'footnoteDefinition')
    return [];
  if (node.type === 'expandable') return ctx.children(node.children, container);
  const value = node.type === 'html' ? toText(fromHtml(node.value, { fragment: true })) : mdastText(node);
  const raw: RawBlock = { object: 'block', type: 'raw', isVoid: true, data: { text: value.trim() } };
  return raw.data.text ? [raw as unknown as AnyBlock] : [];
}

function convertBlock(node: FlowContent, container: Container, ctx: ToDocumentContext): AnyBlock[] {
  switch (node.type) {
    case 'paragraph':
      return [imagesFromParagraph(node, ctx) ?? paragraph(toInlines(node.children, ctx))];
    case 'heading':
      return [heading(node, ctx)];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'blockquote':
      return [
        {
          object: 'block',
          type: 'blockquote',
          data: {},
          nodes: ctx.children(node.children, 'quote') as never,
        },
      ];
    case 'list':
      return [list(node, ctx)];
    case 'code':
      return [code(node)];
    case 'math':
      return [{ object: 'block', type: 'math', isVoid: true, data: { formula: node.value } }];
    case 'table':
      return [tableToDocument(node, ctx)];
    case 'html':
      // Front matter (kept from the parser's view) and other non-HTML text.
      if (!node.value.trimStart().startsWith('<')) throw new Unrepresentable('text that is not HTML');
      return htmlToBlocks(node.value, ctx, container);
    case 'expandable':
      return [expandable(node, ctx)];
    case 'gitbookBlock':
    case 'gitbookTag':
      return gitbookBlockToDocument(node, ctx);
    default:
      throw new Unrepresentable(node.type, node.type !== 'definition' && node.type !== 'footnoteDefinition');
  }
}

// GitBook writes a custom heading id as an empty anchor after the text (older: `<a id="x"></a>`).
const ANCHOR_OPEN = /^<a (?:href="#([^"]*)" )?id="([^"]*)">(<\/a>)?$/;

/**
 * `#` and `##` are heading-1, `###` heading-2, `####` and deeper heading-3: GitBook writes the
 * page title as `#` and its editor's three heading levels as `##`, `###` and `####`.
 */
function heading(node: MdHeading, ctx: ToDocumentContext): Heading {
  const children = [...node.children];
  const custom = headingAnchor(children);
  const nodes = toInlines(children, ctx);
  const generated = ctx.slugs.slug(plainText(nodes));
  const id = custom ?? generated;
  const level = Math.min(Math.max(node.depth - 1, 1), 3) as 1 | 2 | 3;
  return { object: 'block', type: `heading-${level}`, data: id ? { id } : {}, nodes };
}

/** Removes a trailing `<a href="#id" id="id"></a>` from heading content; returns the id. */
function headingAnchor(children: PhrasingContent[]): string | undefined {
  const last = children.at(-1);
  let open = last;
  let count = 1;
  if (last?.type === 'html' && last.value === '</a>') {
    open = children.at(-2);
    count = 2;
  }
  if (open?.type !== 'html') return undefined;
  const match = ANCHOR_OPEN.exec(open.value);
  if (!match || (match[1] !== undefined && match[1] !== match[2]) || Boolean(match[3]) !== (count === 1))
    return undefined;
  if (!HEADING_ID.test(match[2]!)) throw new Unrepresentable('heading id');
  children.splice(-count);
  const before = children.at(-1);
  if (before?.type === 'text') {
    // A copy: the parsed tree is read by the conversion of each profile (parsedToDocument).
    const trimmed = before.value.trimEnd();
    if (trimmed) children[children.length - 1] = { ...before, value: trimmed };
    else children.pop();
  }
  return match[2];
}

function list(node: MdList, ctx: ToDocumentContext): List {
  const nodes = node.children.map((item) => ({
    object: 'block' as const,
    type: 'list-item' as const,
    data: typeof item.checked === 'boolean' ? { checked: item.checked } : {},
    nodes: ctx.children(item.children as FlowContent[], 'listItem') as never,
  }));
  if (node.ordered) {
    const start = node.start ?? 1;
    return { object: 'block', type: 'list-ordered', data: start === 1 ? {} : { start }, nodes };
  }
  const tasks = node.children.every((item) => typeof item.checked === 'boolean');
  return { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', data: {}, nodes };
}

function code(node: MdCode): Code {
  // A fence info string beyond the language has no place in documents; raw syntax must stay code.
  if (node.meta || node.lang === RAW_SYNTAX || (node.lang?.length ?? 0) > 64)
    throw new Unrepresentable('code info');
  return codeBlock(node.value, node.lang ?? undefined);
}

function expandable(node: Expandable, ctx: ToDocumentContext): DocExpandable {
  if (node.summary === null) throw new Unrepresentable('details without summary');
  const inlines = htmlInlines(node.summary.trim(), [], ctx);
  if (!inlines) throw new Unrepresentable('summary');
  const title = pack(inlines);
  const body = ctx.children(node.children, 'expandable');
  if (body.length === 0) throw new Unrepresentable('empty details');
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: node.open && ctx.profile !== 'v0146' ? { defaultExpanded: true } : {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph(title.length > 0 ? title : [text('')])],
      },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body as never },
    ],
  };
}
