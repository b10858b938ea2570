import type { Html, Paragraph as MdParagraph, PhrasingContent } from 'mdast';
import { type Context, MAX_URL, Unrepresentable } from './context.js';
import { type Image, type ImageRef, type Images, paragraph, plainText, text } from './document-types.js';
import { decodeHtml, escapeHtml, parseHtmlAttributes } from './html.js';

/**
 * Block images. Markdown has two forms and the document keeps which one was used:
 * `![alt](src)` alone in a paragraph is an image without caption fragment; GitBook's
 * `<figure><img src alt><figcaption><p>caption</p></figcaption></figure>` is an image with a
 * caption fragment (an empty paragraph when the figcaption is empty). Several images in one
 * paragraph, or figures in one HTML block, are one `images` block.
 */

export interface Figure {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  /** Null when the figure has no figcaption element. */
  caption: string | null;
}

const FIGURE =
  /\s*<figure><img((?:\s+[a-zA-Z][\w-]*="[^"]*")*)\s*\/?>(?:<figcaption>(.*?)<\/figcaption>)?<\/figure>\s*/sy;
const CAPTION = /^(?:<p>([^<]*)<\/p>)?$/;
const SIZE = /^[0-9]{1,5}$/;

/** The figures of an HTML block made only of figures, or null. */
export function parseFigures(html: string): Figure[] | null {
  const figures: Figure[] = [];
  let offset = 0;
  while (offset < html.length) {
    FIGURE.lastIndex = offset;
    const match = FIGURE.exec(html);
    if (!match) return null;
    const figure = figureOf(match[1] ?? '', match[2]);
    if (!figure) return null;
    figures.push(figure);
    offset = FIGURE.lastIndex;
  }
  return figures.length > 0 ? figures : null;
}

function figureOf(attributes: string, caption: string | undefined): Figure | null {
  const attrs = parseHtmlAttributes(attributes);
  const src = attrs?.get('src');
  if (!attrs || src === undefined) return null;
  const figure: Figure = { src, alt: attrs.get('alt') ?? '', caption: null };
  for (const [name, value] of attrs) {
    if (name === 'width' || name === 'height') {
      if (!SIZE.test(value)) return null;
      figure[name] = Number(value);
    } else if (name !== 'src' && name !== 'alt') {
      return null;
    }
  }
  if (caption !== undefined) {
    const inner = CAPTION.exec(caption);
    const decoded = inner ? decodeHtml(inner[1] ?? '') : null;
    if (decoded === null) return null;
    figure.caption = decoded;
  }
  return figure;
}

export function imageRef(href: string, ctx: Context): ImageRef {
  const ref = ctx.links.resolve(href);
  if (ref.kind === 'file') return { kind: 'file', file: ref.file };
  if (href.length > MAX_URL) throw new Unrepresentable('URL too long');
  return { kind: 'url', url: href };
}

function image(ref: ImageRef, alt: string, caption: string | null, size: Partial<Figure> = {}): Image {
  const data: Image['data'] = { ref };
  if (alt) data.alt = alt;
  if (size.width !== undefined) data.width = size.width;
  if (size.height !== undefined) data.height = size.height;
  return {
    object: 'block',
    type: 'image',
    isVoid: true,
    data,
    fragments:
      caption === null
        ? []
        : [{ object: 'fragment', fragment: 'caption', nodes: [paragraph([text(caption)])] }],
  };
}

function images(nodes: Image[]): Images {
  return { object: 'block', type: 'images', isVoid: false, data: {}, nodes };
}

/** A paragraph holding only images (and spaces between them), or null. */
export function imagesFromParagraph(node: MdParagraph, ctx: Context): Images | null {
  const found: Image[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && child.value.trim() === '') continue;
    if (child.type !== 'image') return null;
    if (child.title) throw new Unrepresentable('image title');
    found.push(image(imageRef(child.url, ctx), child.alt ?? '', null));
  }
  return found.length > 0 ? images(found) : null;
}

export function imagesFromHtml(node: Html, ctx: Context): Images | null {
  const figures = parseFigures(node.value);
  if (!figures) return null;
  return images(figures.map((f) => image(imageRef(f.src, ctx), f.alt, f.caption, f)));
}

export function imagesToMdast(block: Images, ctx: Context): MdParagraph | Html {
  const asFigures = block.nodes.some(
    (node) => node.fragments.length > 0 || node.data.width !== undefined || node.data.height !== undefined,
  );
  if (!asFigures) {
    const children: PhrasingContent[] = [];
    for (const node of block.nodes) {
      if (children.length > 0) children.push({ type: 'text', value: ' ' });
      children.push({
        type: 'image',
        url: ctx.links.href(node.data.ref),
        alt: node.data.alt ?? '',
        title: null,
      });
    }
    return { type: 'paragraph', children };
  }
  return { type: 'html', value: block.nodes.map((node) => figureHtml(node, ctx)).join('\n') };
}

function figureHtml(node: Image, ctx: Context): string {
  const { ref, alt = '', width, height } = node.data;
  let img = `<img src="${escapeHtml(ctx.links.href(ref))}" alt="${escapeHtml(alt)}"`;
  if (width !== undefined) img += ` width="${Math.round(width)}"`;
  if (height !== undefined) img += ` height="${Math.round(height)}"`;
  const caption = node.fragments[0];
  if (!caption) return `<figure>${img}></figure>`;
  const words = plainText(caption.nodes.flatMap((p) => p.nodes));
  return `<figure>${img}><figcaption>${words ? `<p>${escapeHtml(words)}</p>` : ''}</figcaption></figure>`;
}
