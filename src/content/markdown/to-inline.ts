import type { FootnoteReference, Link as MdLink, PhrasingContent } from 'mdast';
import { MAX_URL, type ToDocumentContext, Unrepresentable } from './context.js';
import type { Inline, InlineNode, Link, Mark, Text } from './document-types.js';
import { text } from './document-types.js';
import { htmlInlines, inlineHtmlTag, type OpenTag } from './html-inlines.js';
import { type Item, inlineImage, leaf, mark, pack } from './inline-parts.js';

/**
 * mdast phrasing content to document inlines: text leaves with marks, links, images, math, and
 * the inline HTML GitBook writes (`<mark>`, `<kbd>`, buttons, icons, expressions, pictures).
 * Adjacent leaves with the same marks are merged and marks are listed in one order, so equal
 * content always gives equal documents.
 */

/** GitBook writes an annotation as a link to its footnote followed by the footnote reference. */
const FOOTNOTE_LINK = /^#user-content-fn-(.+)$/;

export function toInlines(nodes: PhrasingContent[], ctx: ToDocumentContext): InlineNode[] {
  const items: Item[] = [];
  collect(nodes, [], ctx, items);
  return pack(items);
}

interface Frame {
  tag: OpenTag;
  /** Where the frame's content starts in `out`. */
  at: number;
}

function collect(nodes: PhrasingContent[], marks: Mark[], ctx: ToDocumentContext, out: Item[]): void {
  const frames: Frame[] = [];
  const current = (): Mark[] => {
    let all = marks;
    for (const frame of frames) if (frame.tag.mark) all = [...all, frame.tag.mark];
    return all;
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    switch (node.type) {
      case 'text':
        // A soft line break reads as a space; hard breaks are `break` nodes.
        out.push(leaf(node.value.replace(/\n/g, ' '), current()));
        break;
      case 'strong':
        collect(node.children, [...current(), mark('bold')], ctx, out);
        break;
      case 'emphasis':
        collect(node.children, [...current(), mark('italic')], ctx, out);
        break;
      case 'delete':
        collect(node.children, [...current(), mark('strikethrough')], ctx, out);
        break;
      case 'inlineCode':
        out.push(leaf(node.value, [...current(), mark('code')]));
        break;
      case 'break':
        out.push(leaf('\n', current()));
        break;
      case 'link': {
        const next = nodes[i + 1];
        const footnote = FOOTNOTE_LINK.exec(node.url);
        if (footnote && next?.type === 'footnoteReference') {
          out.push(annotation(node.children, next, current(), ctx));
          i++;
        } else if (node.title === 'mention') out.push(mention(node, ctx));
        else out.push(link(node, current(), ctx));
        break;
      }
      case 'footnoteReference':
        // A reference alone (`word[^1]`): an annotation with no text of its own.
        out.push(annotation([], node, current(), ctx));
        break;
      case 'image':
        if (node.title) throw new Unrepresentable('image title');
        out.push(inlineImage(node.url, node.alt ?? '', ctx));
        break;
      case 'inlineMath':
        out.push({ object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } });
        break;
      case 'html': {
        const tag = inlineHtmlTag(node.value, ctx);
        if (!tag) {
          // A whole element in one node (`<img …>`, `<picture>…</picture>`), or unknown HTML.
          const inlines = htmlInlines(node.value, current(), ctx);
          if (!inlines) throw new Unrepresentable(`inline HTML ${node.value.slice(0, 40)}`, true);
          out.push(...inlines);
          break;
        }
        if (tag.kind === 'void') {
          out.push(...tag.items(current()));
          break;
        }
        if (tag.kind === 'open') {
          frames.push({ tag, at: out.length });
          break;
        }
        // A closing tag ends the innermost frame of its name.
        const depth = frames.findLastIndex((f) => f.tag.name === tag.name);
        if (depth < 0 || depth !== frames.length - 1) throw new Unrepresentable('unbalanced inline HTML');
        const frame = frames.pop()!;
        if (frame.tag.wrap) {
          const inside = out.splice(frame.at);
          out.push(...frame.tag.wrap(inside, ctx));
        }
        break;
      }
      default:
        throw new Unrepresentable(node.type, true);
    }
  }
  if (frames.length > 0) throw new Unrepresentable('unclosed inline HTML');
}

function link(node: MdLink, marks: Mark[], ctx: ToDocumentContext): Link {
  if (node.title) throw new Unrepresentable('link title');
  const items: Item[] = [];
  collect(node.children, marks, ctx, items);
  const nodes = pack(items).map((child): Link['nodes'][number] => {
    if (child.object === 'text' || child.type === 'inline-image') return child;
    // Inlines a link cannot hold (an icon, an expression) keep their text.
    return text(inlineText(child));
  });
  const ref = ctx.links.resolve(node.url);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { object: 'inline', type: 'link', data: { ref }, nodes };
}

/** `[file.md](file.md "mention")`: GitBook's mention of a page, an anchor or a user. */
function mention(node: MdLink, ctx: ToDocumentContext): Inline {
  const ref = ctx.links.resolve(node.url);
  if (ref.kind === 'url' && ref.url.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { object: 'inline', type: 'mention', isVoid: true, data: { ref } };
}

function annotation(
  children: PhrasingContent[],
  reference: FootnoteReference,
  marks: Mark[],
  ctx: ToDocumentContext,
): Inline {
  const body = ctx.footnotes.get(reference.identifier);
  if (!body) throw new Unrepresentable('footnote without definition');
  const items: Item[] = [];
  collect(children, marks, ctx, items);
  const nodes =
    items.length === 0 ? [] : pack(items).map((n) => (n.object === 'text' ? n : text(inlineText(n))));
  const blocks = ctx.children(body, 'annotation');
  if (blocks.length === 0) throw new Unrepresentable('empty footnote');
  ctx.usedFootnotes.add(reference.identifier);
  return {
    object: 'inline',
    type: 'annotation',
    isVoid: false,
    data: {},
    nodes: nodes as Text[],
    fragments: [
      { object: 'fragment', fragment: 'annotation-body', type: 'annotation-body', nodes: blocks as never },
    ],
  };
}

/** The text an inline shows, for places that hold only text. */
function inlineText(node: Inline): string {
  switch (node.type) {
    case 'button':
      return node.data.label;
    case 'icon':
      return '';
    case 'expression':
      return '';
    case 'inline-math':
      return node.data.formula;
    default:
      return 'nodes' in node
        ? node.nodes.map((n) => (n.object === 'text' ? n.leaves.map((l) => l.text).join('') : '')).join('')
        : '';
  }
}
