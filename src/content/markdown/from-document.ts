import type {
  Code as MdCode,
  Heading as MdHeading,
  ListItem as MdListItem,
  PhrasingContent,
  Root,
} from 'mdast';
import type { JsonDocument } from '../document-schema.js';
import type { Context } from './context.js';
import type { AnyBlock, Code, Expandable, Heading, List, TabsItem } from './document-types.js';
import { plainText } from './document-types.js';
import { toPhrasing } from './from-inline.js';
import { formatTag, gitbookBlock } from './gitbook-blocks.js';
import { escapeHtml } from './html.js';
import { imagesToMdast } from './images.js';
import { type LinkResolver, plainLinks } from './links.js';
import { Slugger } from './slug.js';
import { stringifyMarkdown } from './stringify.js';
import { type FlowContent, RAW_SYNTAX } from './syntax.js';
import { tableFromDocument } from './tables.js';

/**
 * Document to GitBook-flavoured markdown. Fields markdown has no syntax for are left out:
 * paragraph and heading alignment, hint icons, highlighted code lines, colour marks, block
 * keys. Heading ids are written (as GitBook's `<a>` anchor) only when they differ from the id
 * the heading text gives anyway.
 */
export function documentToMarkdown(document: JsonDocument, links: LinkResolver = plainLinks): string {
  const ctx: Context = { links, slugs: new Slugger() };
  const root: Root = { type: 'root', children: blocks(document.nodes, ctx) };
  return stringifyMarkdown(root);
}

function blocks(nodes: readonly AnyBlock[], ctx: Context): FlowContent[] {
  return nodes.map((node) => block(node, ctx));
}

function block(node: AnyBlock, ctx: Context): FlowContent {
  switch (node.type) {
    case 'paragraph':
      return { type: 'paragraph', children: toPhrasing(node.nodes, ctx) };
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return heading(node, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return list(node, ctx);
    case 'list-item':
      // Only inside lists; alone it is the list of one item.
      return list({ object: 'block', type: 'list-unordered', data: {}, nodes: [node] }, ctx);
    case 'blockquote':
      return { type: 'blockquote', children: blocks(node.nodes, ctx) as never };
    case 'divider':
      return { type: 'thematicBreak' };
    case 'code':
      return code(node);
    case 'code-line':
      return code({ object: 'block', type: 'code', data: {}, nodes: [node] });
    case 'math':
      return { type: 'math', value: node.data.formula };
    case 'hint':
      return gitbookBlock('hint', [['style', node.data.style]], blocks(node.nodes, ctx));
    case 'tabs':
      return gitbookBlock(
        'tabs',
        [],
        node.nodes.map((tab) => tabsItem(tab, ctx)),
      );
    case 'tabs-item':
      return tabsItem(node, ctx);
    case 'expandable':
      return expandable(node, ctx);
    case 'images':
      return imagesToMdast(node, ctx);
    case 'image':
      return imagesToMdast({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [node] }, ctx);
    case 'table':
      return tableFromDocument(node, ctx);
    case 'embed':
      return {
        type: 'gitbookTag',
        name: 'embed',
        attrs: null,
        value: formatTag('embed', [['url', node.data.url]]),
      };
    case 'file':
      return {
        type: 'gitbookTag',
        name: 'file',
        attrs: null,
        value: formatTag('file', [['src', ctx.links.href(node.data.ref)]]),
      };
    case 'content-ref': {
      const href = ctx.links.href(node.data.ref);
      const link: PhrasingContent = {
        type: 'link',
        url: href,
        title: null,
        children: [{ type: 'text', value: href }],
      };
      return gitbookBlock('content-ref', [['url', href]], [{ type: 'paragraph', children: [link] }]);
    }
  }
}

function heading(node: Heading, ctx: Context): MdHeading {
  const children = toPhrasing(node.nodes, ctx);
  const generated = ctx.slugs.slug(plainText(node.nodes));
  const id = node.data.id;
  if (id && id !== generated) {
    children.push({ type: 'text', value: ' ' }, { type: 'html', value: `<a href="#${id}" id="${id}"></a>` });
  }
  return { type: 'heading', depth: Number(node.type.slice(-1)) as 1 | 2 | 3, children };
}

function list(node: List, ctx: Context): FlowContent {
  const tasks = node.type === 'list-tasks';
  const children = node.nodes.map(
    (item): MdListItem => ({
      type: 'listItem',
      spread: false,
      checked: item.data?.checked ?? (tasks ? false : null),
      children: blocks(item.nodes, ctx) as MdListItem['children'],
    }),
  );
  const start = node.type === 'list-ordered' ? (node.data.start ?? 1) : null;
  return { type: 'list', ordered: node.type === 'list-ordered', start, spread: false, children };
}

function code(node: Code): FlowContent {
  const value = node.nodes
    .map((line) => line.nodes.flatMap((t) => t.leaves.map((l) => l.text)).join(''))
    .join('\n');
  const { syntax, title, overflow, lineNumbers, fullWidth, expandable } = node.data;
  if (syntax === RAW_SYNTAX) return { type: 'html', value };
  const fenced: MdCode = { type: 'code', lang: syntax ?? null, meta: null, value };
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
  const attrs: Array<[string, string | undefined]> = [
    ['title', title],
    ['overflow', overflow],
    ['lineNumbers', flag(lineNumbers)],
    ['fullWidth', flag(fullWidth)],
    ['expandable', flag(expandable)],
  ];
  return attrs.some(([, v]) => v !== undefined) ? gitbookBlock('code', attrs, [fenced]) : fenced;
}

function tabsItem(node: TabsItem, ctx: Context): FlowContent {
  return gitbookBlock('tab', [['title', node.data.title]], blocks(node.nodes, ctx));
}

function expandable(node: Expandable, ctx: Context): FlowContent {
  const [title, body] = node.fragments;
  const summary = escapeHtml(plainText(title.nodes.flatMap((p) => p.nodes)));
  return {
    type: 'expandable',
    head: ['<details>', `<summary>${summary}</summary>`],
    summary,
    open: false,
    close: '</details>',
    children: blocks(body.nodes, ctx),
  };
}
