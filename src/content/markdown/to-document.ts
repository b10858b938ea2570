import type { Code as MdCode, Heading as MdHeading, List as MdList, PhrasingContent } from 'mdast';
import type { JsonDocument } from '../document-schema.js';
import { ALLOWED, type Allowed } from './containers.js';
import { type ToDocumentContext, Unrepresentable } from './context.js';
import {
  type AnyBlock,
  type BlockType,
  type Code,
  codeBlock,
  type Expandable as DocExpandable,
  type Heading,
  type List,
  paragraph,
  plainText,
  text,
} from './document-types.js';
import { gitbookBlockToDocument } from './gitbook-to-document.js';
import { decodeHtml } from './html.js';
import { imagesFromHtml, imagesFromParagraph } from './images.js';
import { type LinkResolver, plainLinks } from './links.js';
import { parseMarkdown } from './parse.js';
import { HEADING_ID, Slugger } from './slug.js';
import { stringifyNode } from './stringify.js';
import { type Expandable, type FlowContent, RAW_SYNTAX } from './syntax.js';
import { tableToDocument } from './tables.js';
import { toInlines } from './to-inline.js';

export function markdownToDocument(markdown: string, links: LinkResolver = plainLinks): JsonDocument {
  const tree = parseMarkdown(markdown);
  const ctx: ToDocumentContext = {
    links,
    slugs: new Slugger(),
    children: (nodes, allowed) => convertChildren(nodes, allowed, ctx),
  };
  return {
    object: 'document',
    data: {},
    nodes: ctx.children(tree.children as FlowContent[], ALLOWED.document),
  };
}

function convertChildren<T extends AnyBlock>(
  children: readonly FlowContent[],
  allowed: Allowed<T>,
  ctx: ToDocumentContext,
): T[] {
  // blockOrRaw only returns blocks whose type is in `allowed`, which names T's members.
  return children.map((child) => blockOrRaw(child, allowed, ctx)) as T[];
}

/**
 * The block for `node`, or a raw markdown block when it has no document form or the container
 * may not hold it. Where raw blocks (code) are not allowed either, the container itself
 * becomes raw: the `Unrepresentable` travels up to the nearest one that can.
 */
function blockOrRaw(node: FlowContent, allowed: ReadonlySet<BlockType>, ctx: ToDocumentContext): AnyBlock {
  const mark = ctx.slugs.mark();
  try {
    const block = convertBlock(node, ctx);
    if (allowed.has(block.type)) return block;
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
  }
  ctx.slugs.rewind(mark);
  if (!allowed.has('code')) throw new Unrepresentable(`${node.type} in this container`);
  return codeBlock(stringifyNode(node), RAW_SYNTAX);
}

function convertBlock(node: FlowContent, ctx: ToDocumentContext): AnyBlock {
  switch (node.type) {
    case 'paragraph':
      return imagesFromParagraph(node, ctx) ?? paragraph(toInlines(node.children, ctx));
    case 'heading':
      return heading(node, ctx);
    case 'thematicBreak':
      return { object: 'block', type: 'divider', isVoid: true, data: {} };
    case 'blockquote':
      return {
        object: 'block',
        type: 'blockquote',
        data: {},
        nodes: ctx.children(node.children, ALLOWED.quote),
      };
    case 'list':
      return list(node, ctx);
    case 'code':
      return code(node);
    case 'math':
      return { object: 'block', type: 'math', isVoid: true, data: { formula: node.value } };
    case 'table':
      return tableToDocument(node, ctx);
    case 'html': {
      const images = imagesFromHtml(node, ctx);
      if (images) return images;
      throw new Unrepresentable('HTML');
    }
    case 'expandable':
      return expandable(node, ctx);
    case 'gitbookBlock':
    case 'gitbookTag':
      return gitbookBlockToDocument(node, ctx);
    default:
      throw new Unrepresentable(node.type);
  }
}

// GitBook writes a custom heading id as an empty anchor after the text.
const ANCHOR_OPEN = /^<a href="#([^"]*)" id="([^"]*)">(<\/a>)?$/;

function heading(node: MdHeading, ctx: ToDocumentContext): Heading {
  const children = [...node.children];
  const custom = headingAnchor(children);
  const nodes = toInlines(children, ctx);
  const generated = ctx.slugs.slug(plainText(nodes));
  const id = custom ?? generated;
  const level = Math.min(node.depth, 3) as 1 | 2 | 3;
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
  if (!match || match[1] !== match[2] || Boolean(match[3]) !== (count === 1)) return undefined;
  if (!HEADING_ID.test(match[2]!)) throw new Unrepresentable('heading id');
  children.splice(-count);
  const before = children.at(-1);
  if (before?.type === 'text') {
    before.value = before.value.trimEnd();
    if (!before.value) children.pop();
  }
  return match[2];
}

function list(node: MdList, ctx: ToDocumentContext): List {
  const nodes = node.children.map((item) => ({
    object: 'block' as const,
    type: 'list-item' as const,
    data: typeof item.checked === 'boolean' ? { checked: item.checked } : {},
    nodes: ctx.children(item.children, ALLOWED.listItem),
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
  if (node.open || node.summary === null || node.summary.includes('<')) throw new Unrepresentable('details');
  const title = decodeHtml(node.summary.trim());
  if (title === null) throw new Unrepresentable('summary');
  const body = ctx.children(node.children, ALLOWED.expandable);
  if (body.length === 0) throw new Unrepresentable('empty details');
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph([text(title)])],
      },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body },
    ],
  };
}
