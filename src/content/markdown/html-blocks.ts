import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toText } from 'hast-util-to-text';
import type { Container } from './containers.js';
import { type ToDocumentContext, Unrepresentable } from './context.js';
import {
  type AnyBlock,
  type Code,
  codeBlock,
  type Image,
  type Images,
  type Paragraph,
  paragraph,
  text,
} from './document-types.js';
import { attributesOf, hastInlines } from './html-inlines.js';
import { htmlTable } from './html-table.js';
import { imageRef, pack } from './inline-parts.js';

/**
 * HTML blocks GitBook writes into markdown, to document blocks: figures and pictures (images,
 * galleries, frames, alignment, dark variants), `<table>` (widths, hidden and typed columns,
 * cards), `<pre><code>` (code with highlighted lines and options), `<p>` (buttons, aligned
 * text), lists, headings and `<details>` written as HTML. Anything else is unknown: the caller
 * keeps it raw (API) or shows its text (site).
 */

export function htmlToBlocks(html: string, ctx: ToDocumentContext, container: Container): AnyBlock[] {
  const root: HastRoot = fromHtml(html, { fragment: true });
  const blocks = hastBlocks(root.children as ElementContent[], ctx, container);
  if (blocks.length === 0) throw new Unrepresentable('empty HTML');
  return blocks;
}

/** Block elements to blocks; runs of inline content between them become paragraphs. */
export function hastBlocks(
  nodes: readonly ElementContent[],
  ctx: ToDocumentContext,
  container: Container,
): AnyBlock[] {
  const out: AnyBlock[] = [];
  let inline: ElementContent[] = [];
  let images: Image[] = [];
  const flushInline = () => {
    const content = inline;
    inline = [];
    if (content.every((n) => n.type === 'text' && n.value.trim() === '')) return;
    const nodes = pack(hastInlines(trimText(content), [], ctx));
    if (
      nodes.length === 1 &&
      nodes[0]!.object === 'text' &&
      nodes[0]!.leaves.every((l) => l.text.trim() === '')
    )
      return;
    out.push(paragraph(nodes));
  };
  const flushImages = () => {
    if (images.length > 0) out.push(imagesBlock(images, {}));
    images = [];
  };
  for (const node of nodes) {
    if (node.type === 'comment') continue;
    if (node.type === 'text' || (node.type === 'element' && !isBlockElement(node))) {
      // A figure's neighbours are spaces between figures; anything else is text.
      if (node.type === 'text' && node.value.trim() === '' && images.length > 0) continue;
      flushImages();
      inline.push(node);
      continue;
    }
    flushInline();
    const image = node.tagName === 'figure' || node.tagName === 'picture' ? figure(node, ctx) : null;
    if (image) {
      images.push(image);
      continue;
    }
    flushImages();
    out.push(...blockElement(node, ctx, container));
  }
  flushInline();
  flushImages();
  return out;
}

const BLOCK = new Set([
  'p',
  'div',
  'figure',
  'picture',
  'table',
  'pre',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'details',
  'blockquote',
  'hr',
  'section',
  'center',
]);

function isBlockElement(node: Element): boolean {
  return BLOCK.has(node.tagName);
}

function blockElement(node: Element, ctx: ToDocumentContext, container: Container): AnyBlock[] {
  const attrs = attributesOf(node);
  switch (node.tagName) {
    case 'p':
    case 'center': {
      const align = node.tagName === 'center' ? 'center' : attrs.align;
      const onlyImages = imagesOnly(node.children, ctx);
      if (onlyImages) return [imagesBlock(onlyImages, { align })];
      const nodes = pack(hastInlines(trimText(node.children), [], ctx));
      const block: Paragraph = paragraph(nodes);
      if (align === 'center') block.data = { align: 'center' };
      else if (align === 'right') block.data = { align: 'end' };
      return [block];
    }
    case 'div':
    case 'section': {
      const onlyImages = imagesOnly(node.children, ctx);
      if (onlyImages)
        return [
          imagesBlock(onlyImages, {
            align: attrs.align,
            withFrame: attrs['data-with-frame'] === 'true',
            fullWidth: attrs['data-full-width'] === 'true',
          }),
        ];
      return hastBlocks(node.children, ctx, container);
    }
    case 'table':
      return [htmlTable(node, ctx, (cell) => hastBlocks(cell, ctx, 'cell'))];
    case 'pre':
      return [preCode(node, attrs)];
    case 'ul':
    case 'ol':
      return [list(node, attrs, ctx)];
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      const depth = Number(node.tagName[1]);
      const level = Math.min(Math.max(depth - 1, 1), 3) as 1 | 2 | 3;
      const nodes = pack(hastInlines(node.children, [], ctx));
      const id = attrs.id && /^[-a-z0-9.+_]+$/.test(attrs.id) ? attrs.id : undefined;
      return [{ object: 'block', type: `heading-${level}`, data: id ? { id } : {}, nodes }];
    }
    case 'blockquote':
      return [
        {
          object: 'block',
          type: 'blockquote',
          data: {},
          nodes: ctx.accept(hastBlocks(node.children, ctx, 'quote'), 'quote') as never,
        },
      ];
    case 'hr':
      return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
    case 'details':
      return [details(node, ctx)];
    default:
      throw new Unrepresentable(`<${node.tagName}>`, true);
  }
}

/** Images of content made only of figures, pictures and images (and spaces), or null. */
function imagesOnly(nodes: readonly ElementContent[], ctx: ToDocumentContext): Image[] | null {
  const found: Image[] = [];
  for (const node of nodes) {
    if (node.type === 'text' && node.value.trim() === '') continue;
    if (node.type !== 'element') return null;
    if (node.tagName === 'div' || node.tagName === 'p') {
      const inner = imagesOnly(node.children, ctx);
      if (!inner) return null;
      found.push(...inner);
      continue;
    }
    const image = node.tagName === 'img' ? imageOf(node, null, ctx) : figure(node, ctx);
    if (!image) return null;
    found.push(image);
  }
  return found.length > 0 ? found : null;
}

/** `<figure>` (an `<img>` or `<picture>`, a `<figcaption>`), a `<picture>`, or null. */
function figure(node: Element, ctx: ToDocumentContext): Image | null {
  if (node.tagName === 'picture') return pictureImage(node, null, ctx);
  if (node.tagName !== 'figure') return null;
  let image: Image | null = null;
  let caption: ElementContent[] | null = null;
  for (const child of node.children) {
    if (child.type === 'text' && child.value.trim() === '') continue;
    if (child.type !== 'element') return null;
    if (child.tagName === 'img') image = imageOf(child, null, ctx);
    else if (child.tagName === 'picture') image = pictureImage(child, null, ctx);
    else if (child.tagName === 'figcaption') caption = child.children;
    else if (child.tagName === 'div' || child.tagName === 'a') {
      // GitBook wraps nothing else around images; a link around one keeps the image.
      const inner = child.children.find(
        (c): c is Element => c.type === 'element' && (c.tagName === 'img' || c.tagName === 'picture'),
      );
      if (!inner) return null;
      image = inner.tagName === 'img' ? imageOf(inner, null, ctx) : pictureImage(inner, null, ctx);
    } else return null;
  }
  if (!image) return null;
  if (caption !== null) {
    const paragraphs = captionParagraphs(caption, ctx);
    image.fragments = [{ object: 'fragment', fragment: 'caption', nodes: paragraphs }];
  }
  return image;
}

function captionParagraphs(nodes: readonly ElementContent[], ctx: ToDocumentContext): Paragraph[] {
  const blocks = hastBlocks(nodes, ctx, 'cell').filter((b): b is Paragraph => b.type === 'paragraph');
  return blocks.length > 0 ? [blocks[0]!] : [paragraph([text('')])];
}

function pictureImage(node: Element, _caption: null, ctx: ToDocumentContext): Image | null {
  const img = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'img');
  if (!img) return null;
  const image = imageOf(img, null, ctx);
  if (!image) return null;
  const dark = node.children.find(
    (c): c is Element =>
      c.type === 'element' &&
      c.tagName === 'source' &&
      /prefers-color-scheme:\s*dark/.test(attributesOf(c).media ?? ''),
  );
  const src = dark ? (attributesOf(dark).srcset ?? '').trim().split(/\s+/)[0] : undefined;
  if (src) image.data.refDark = imageRef(src, ctx);
  return image;
}

const SIZE = /^(\d+(?:\.\d+)?)(%|px)?$/;

function imageOf(node: Element, _caption: null, ctx: ToDocumentContext): Image | null {
  const attrs = attributesOf(node);
  if (!attrs.src) return null;
  const data: Image['data'] = { ref: imageRef(attrs.src, ctx) };
  if (attrs.alt) data.alt = attrs.alt;
  for (const key of ['width', 'height'] as const) {
    const size = SIZE.exec(attrs[key] ?? '');
    if (!size) continue;
    const value = Number(size[1]);
    data[key] = size[2] === '%' ? { unit: '%', value } : value;
  }
  return { object: 'block', type: 'image', isVoid: true, data, fragments: [] };
}

function imagesBlock(
  nodes: Image[],
  options: { align?: string | undefined; withFrame?: boolean; fullWidth?: boolean },
): Images {
  const data: Images['data'] = {};
  if (options.align === 'left' || options.align === 'right') data.align = options.align;
  if (options.withFrame) data.withFrame = true;
  if (options.fullWidth) data.fullWidth = true;
  return { object: 'block', type: 'images', isVoid: false, data, nodes };
}

/**
 * `<pre class="language-x" data-title data-overflow="wrap" data-line-numbers data-full-width
 * data-expandable><code>…</code></pre>`, GitBook's form for code with highlighted lines: a line
 * inside `<strong>` is highlighted.
 */
function preCode(node: Element, attrs: Record<string, string>): Code {
  const code = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  const lines: Array<{ text: string; highlighted: boolean }> = [{ text: '', highlighted: false }];
  const walk = (nodes: readonly ElementContent[], strong: boolean) => {
    for (const child of nodes) {
      if (child.type === 'text') {
        const parts = child.value.split('\n');
        for (const [i, part] of parts.entries()) {
          if (i > 0) lines.push({ text: '', highlighted: false });
          const line = lines.at(-1)!;
          line.text += part;
          if (strong && part !== '') line.highlighted = true;
        }
      } else if (child.type === 'element') {
        if (child.tagName === 'br') lines.push({ text: '', highlighted: false });
        else walk(child.children, strong || child.tagName === 'strong' || child.tagName === 'b');
      }
    }
  };
  walk(code ? code.children : node.children, false);
  if (lines.length > 1 && lines.at(-1)!.text === '') lines.pop();
  const syntax =
    /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(attrs.class ?? '')?.[1] ??
    /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(code ? (attributesOf(code).class ?? '') : '')?.[1];
  const block = codeBlock(
    lines.map((l) => l.text).join('\n'),
    syntax && syntax.length <= 64 ? syntax : undefined,
  );
  lines.forEach((line, i) => {
    if (line.highlighted) block.nodes[i]!.data = { highlighted: true };
  });
  if (attrs['data-title']) block.data.title = attrs['data-title'].slice(0, 256);
  if (attrs['data-overflow'] === 'wrap' || attrs['data-overflow'] === 'scroll')
    block.data.overflow = attrs['data-overflow'];
  if (attrs['data-line-numbers'] !== undefined)
    block.data.lineNumbers = attrs['data-line-numbers'] !== 'false';
  if (attrs['data-full-width'] !== undefined) block.data.fullWidth = attrs['data-full-width'] === 'true';
  if (attrs['data-expandable'] !== undefined) block.data.expandable = attrs['data-expandable'] === 'true';
  return block;
}

function list(node: Element, attrs: Record<string, string>, ctx: ToDocumentContext): AnyBlock {
  const items = node.children
    .filter((c): c is Element => c.type === 'element' && c.tagName === 'li')
    .map((li) => ({
      object: 'block' as const,
      type: 'list-item' as const,
      data: {},
      nodes: ctx.accept(hastBlocks(li.children, ctx, 'listItem'), 'listItem'),
    }));
  if (node.tagName === 'ol') {
    const start = Number(attrs.start ?? '1');
    return {
      object: 'block',
      type: 'list-ordered',
      data: Number.isInteger(start) && start !== 1 ? { start } : {},
      nodes: items as never,
    };
  }
  return { object: 'block', type: 'list-unordered', data: {}, nodes: items as never };
}

function details(node: Element, ctx: ToDocumentContext): AnyBlock {
  const summary = node.children.find((c): c is Element => c.type === 'element' && c.tagName === 'summary');
  const rest = node.children.filter((c) => c !== summary);
  const title = summary ? pack(hastInlines(summary.children, [], ctx)) : [text(toText(node).slice(0, 80))];
  const body = ctx.accept(hastBlocks(rest, ctx, 'expandable'), 'expandable');
  if (body.length === 0) throw new Unrepresentable('empty details');
  const open = attributesOf(node).open !== undefined;
  return {
    object: 'block',
    type: 'expandable',
    isVoid: true,
    data: open && ctx.profile !== 'v0146' ? { defaultExpanded: true } : {},
    fragments: [
      {
        object: 'fragment',
        fragment: 'expandable-title',
        type: 'expandable-title',
        nodes: [paragraph(title)],
      },
      { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: body as never },
    ],
  };
}

/** Content without the spaces around it (HTML written on several lines indents its text). */
function trimText(nodes: readonly ElementContent[]): ElementContent[] {
  const out = [...nodes];
  const first = out[0];
  if (first?.type === 'text') out[0] = { ...first, value: first.value.replace(/^\s+/, '') };
  const last = out.at(-1);
  if (last?.type === 'text') out[out.length - 1] = { ...last, value: last.value.replace(/\s+$/, '') };
  return out;
}
