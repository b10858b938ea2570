import { COLORS_0146 } from '../document-schema.js';
import { type Context, MAX_URL, type ToDocumentContext, Unrepresentable } from './context.js';
import type {
  ImageRef,
  Inline,
  InlineImage,
  InlineNode,
  Leaf,
  Mark,
  MarkType,
  Text,
} from './document-types.js';
import { text } from './document-types.js';

/**
 * The pieces inline conversion is built from, in both directions: leaves with their marks in
 * one order, text nodes packed from leaves, image references.
 */

/** Outermost first: the order marks are listed in leaves and opened when writing markdown. */
export const MARK_ORDER: readonly MarkType[] = [
  'color',
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

/** A mark with its data (colour marks carry their colours). */
export type MarkValue = Mark;

export type Item = Leaf | Inline;

export function mark(type: Exclude<MarkType, 'color'>): Mark {
  return { object: 'mark', type } as Mark;
}

/** Colour names a leaf may carry in this profile (0.146.0 knows fewer). */
export function colorAllowed(color: string, ctx: Pick<ToDocumentContext, 'profile'>): boolean {
  return ctx.profile !== 'v0146' || COLORS_0146.has(color);
}

export function leaf(value: string, marks: Mark[]): Leaf {
  const sorted: Mark[] = [];
  for (const type of MARK_ORDER) {
    const found = marks.filter((m) => m.type === type);
    // Nested colours: the innermost wins.
    if (found.length > 0) sorted.push(found.at(-1)!);
  }
  return { object: 'leaf', text: value, marks: sorted };
}

export function imageRef(href: string, ctx: Context): ImageRef {
  const ref = ctx.links.resolve(href);
  if (ref.kind === 'file') return { kind: 'file', file: ref.file };
  if (href.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { kind: 'url', url: href };
}

export function inlineImage(url: string, alt: string, ctx: Context): InlineImage {
  const data: InlineImage['data'] = { ref: imageRef(url, ctx) };
  if (alt) data.alt = alt;
  return { object: 'inline', type: 'inline-image', isVoid: true, data };
}

function sameMarks(a: Leaf, b: Leaf): boolean {
  return (
    a.marks.length === b.marks.length &&
    a.marks.every((mark, i) => JSON.stringify(mark) === JSON.stringify(b.marks[i]))
  );
}

/** Leaves into text nodes between inlines; empty leaves dropped, one empty text if nothing. */
export function pack(items: Item[]): InlineNode[] {
  const nodes: InlineNode[] = [];
  let current: Text | null = null;
  for (const item of items) {
    if (item.object === 'inline') {
      // A `<source>` outside any `<picture>` means nothing.
      if ((item.type as string) === 'source') continue;
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
