import type { Html, Paragraph as MdParagraph, PhrasingContent } from 'mdast';
import { type Context, Unrepresentable } from './context.js';
import type { Image, ImageRef, Images } from './document-types.js';
import type { FromContext } from './from-context.js';
import { figureHtml } from './html-write.js';
import { imageRef } from './inline-parts.js';

/**
 * Block images. Markdown has two forms and the document keeps which one was used:
 * `![alt](src)` alone in a paragraph is an image without caption fragment; GitBook's
 * `<figure><img src alt><figcaption><p>caption</p></figcaption></figure>` (read by
 * `html-blocks.ts`) is an image with a caption fragment, a size, a dark variant. Several images
 * in one paragraph, or figures in one HTML block, are one `images` block; GitBook wraps a
 * framed or aligned group in a `<div>`.
 */

function image(ref: ImageRef, alt: string): Image {
  const data: Image['data'] = { ref };
  if (alt) data.alt = alt;
  return { object: 'block', type: 'image', isVoid: true, data, fragments: [] };
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
    found.push(image(imageRef(child.url, ctx), child.alt ?? ''));
  }
  return found.length > 0 ? images(found) : null;
}

export function imagesToMdast(block: Images, ctx: FromContext): MdParagraph | Html {
  const data = block.data;
  const plain =
    !data.align &&
    !data.withFrame &&
    !data.fullWidth &&
    block.nodes.every(
      (node) =>
        node.fragments.length === 0 &&
        node.data.width === undefined &&
        node.data.height === undefined &&
        node.data.refDark === undefined,
    );
  if (plain) {
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
  const figures = block.nodes.map((node) => figureHtml(node, ctx));
  let attrs = '';
  if (data.align && data.align !== 'center') attrs += ` align="${data.align}"`;
  if (data.withFrame) attrs += ' data-with-frame="true"';
  if (data.fullWidth) attrs += ' data-full-width="true"';
  if (attrs) return { type: 'html', value: `<div${attrs}>${figures.join(' ')}</div>` };
  return { type: 'html', value: figures.join('\n') };
}
