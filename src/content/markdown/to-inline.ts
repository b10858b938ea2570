import type { Link as MdLink, PhrasingContent } from 'mdast';
import { type Context, MAX_URL, Unrepresentable } from './context.js';
import type { Inline, InlineImage, InlineNode, Leaf, Link, Mark, MarkType, Text } from './document-types.js';
import { text } from './document-types.js';
import { imageRef } from './images.js';

/**
 * mdast phrasing content to document inlines: text leaves with marks, links, images, math.
 * Adjacent leaves with the same marks are merged and marks are listed in one order, so equal
 * content always gives equal documents.
 */

/** Outermost first: the order marks are listed in leaves and opened when writing markdown. */
export const MARK_ORDER: readonly MarkType[] = [
  'bold',
  'italic',
  'strikethrough',
  'keyboard',
  'superscript',
  'subscript',
  'code',
];

/** Inline HTML GitBook writes for marks markdown has no syntax for. */
export const HTML_MARKS: Partial<Record<MarkType, string>> = {
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};
const MARK_OF_TAG = new Map(Object.entries(HTML_MARKS).map(([mark, tag]) => [tag, mark as MarkType]));
const HTML_MARK = /^<(\/?)([a-z]+)>$/i;
const BREAK = /^<br\s*\/?>$/i;

type Item = Leaf | Inline;

export function toInlines(nodes: PhrasingContent[], ctx: Context): InlineNode[] {
  const items: Item[] = [];
  collect(nodes, [], ctx, items);
  return pack(items);
}

function collect(nodes: PhrasingContent[], marks: MarkType[], ctx: Context, out: Item[]): void {
  const opened: MarkType[] = [];
  const current = () => (opened.length ? [...marks, ...opened] : marks);
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        // A soft line break reads as a space; hard breaks are `break` nodes.
        out.push(leaf(node.value.replace(/\n/g, ' '), current()));
        break;
      case 'strong':
        collect(node.children, [...current(), 'bold'], ctx, out);
        break;
      case 'emphasis':
        collect(node.children, [...current(), 'italic'], ctx, out);
        break;
      case 'delete':
        collect(node.children, [...current(), 'strikethrough'], ctx, out);
        break;
      case 'inlineCode':
        out.push(leaf(node.value, [...current(), 'code']));
        break;
      case 'break':
        out.push(leaf('\n', current()));
        break;
      case 'link':
        out.push(link(node, current(), ctx));
        break;
      case 'image':
        if (node.title) throw new Unrepresentable('image title');
        out.push(inlineImage(node.url, node.alt ?? '', ctx));
        break;
      case 'inlineMath':
        out.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
        break;
      case 'html': {
        if (BREAK.test(node.value)) {
          out.push(leaf('\n', current()));
          break;
        }
        const [, closing, tag = ''] = HTML_MARK.exec(node.value) ?? [];
        const mark = MARK_OF_TAG.get(tag.toLowerCase());
        if (!mark) throw new Unrepresentable('inline HTML');
        if (!closing) opened.push(mark);
        else if (opened.at(-1) === mark) opened.pop();
        else throw new Unrepresentable('unbalanced inline HTML');
        break;
      }
      default:
        throw new Unrepresentable(node.type);
    }
  }
  if (opened.length > 0) throw new Unrepresentable('unclosed inline HTML');
}

function leaf(value: string, marks: MarkType[]): Leaf {
  const sorted = MARK_ORDER.filter((type) => marks.includes(type));
  return { object: 'leaf', text: value, marks: sorted.map((type) => ({ object: 'mark', type }) as Mark) };
}

function link(node: MdLink, marks: MarkType[], ctx: Context): Link {
  if (node.title) throw new Unrepresentable('link title');
  const items: Item[] = [];
  collect(node.children, marks, ctx, items);
  const nodes = pack(items);
  for (const child of nodes) {
    if (child.object !== 'text' && child.type !== 'inline-image') throw new Unrepresentable('link content');
  }
  const ref = ctx.links.resolve(node.url);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { object: 'inline', type: 'link', data: { ref }, nodes: nodes as Link['nodes'] };
}

function inlineImage(url: string, alt: string, ctx: Context): InlineImage {
  const data: InlineImage['data'] = { ref: imageRef(url, ctx) };
  if (alt) data.alt = alt;
  return { object: 'inline', type: 'inline-image', isVoid: true, data };
}

function sameMarks(a: Leaf, b: Leaf): boolean {
  return a.marks.length === b.marks.length && a.marks.every((mark, i) => mark.type === b.marks[i]!.type);
}

/** Leaves into text nodes between inlines; empty leaves dropped, one empty text if nothing. */
function pack(items: Item[]): InlineNode[] {
  const nodes: InlineNode[] = [];
  let current: Text | null = null;
  for (const item of items) {
    if (item.object === 'inline') {
      nodes.push(item);
      current = null;
      continue;
    }
    if (item.text === '') continue;
    const last = current?.leaves.at(-1);
    if (last && sameMarks(last, item)) last.text += item.text;
    else if (current) current.leaves.push(item);
    else {
      current = { object: 'text', leaves: [item] };
      nodes.push(current);
    }
  }
  return nodes.length > 0 ? nodes : [text('')];
}
