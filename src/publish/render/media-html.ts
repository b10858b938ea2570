import type { Block } from '../../content/document-schema.js';
import type { FileBlock, Image, Images } from '../../content/markdown/document-types.js';
import { attr, emojiText, escapeHtml, isExternal, safeHref } from './escape.js';
import { icon } from './icons.js';
import { imageSrc, refHref, renderInlines } from './inline-html.js';
import { ask } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * Blocks that point elsewhere: images, file downloads, embeds and content references. Embeds
 * are drawn as link cards, never as iframes: the document names any URL, and the site must
 * not load third-party pages into itself.
 */

type Embed = Extract<Block, { type: 'embed' }>;
type ContentRefBlock = Extract<Block, { type: 'content-ref' }>;

const IMAGE_ALIGN = new Set(['left', 'right']);

export function renderImages(block: Images, ctx: RenderContext): string {
  const data = (block.data ?? {}) as { align?: unknown; fullWidth?: unknown; withFrame?: unknown };
  const figures = (Array.isArray(block.nodes) ? block.nodes : []).map((image) => renderImage(image, ctx));
  const count = Math.min(figures.length, 4);
  const classes = ['images'];
  if (count > 1) classes.push(`images-${count}`);
  if (typeof data.align === 'string' && IMAGE_ALIGN.has(data.align)) classes.push(`images-${data.align}`);
  if (data.fullWidth === true) classes.push('full-width');
  if (data.withFrame === true) classes.push('framed');
  return `<div class="${classes.join(' ')}">${figures.join('')}</div>`;
}

/** Pixels: a number, or a length in px. */
function dimension(value: unknown): number | undefined {
  const px =
    value !== null && typeof value === 'object' && (value as { unit?: unknown }).unit === 'px'
      ? (value as { value?: unknown }).value
      : value;
  return typeof px === 'number' && Number.isFinite(px) && px > 0 && px < 100_000 ? Math.round(px) : undefined;
}

/** A width in percent of the column (`{unit: '%', value}`), as a whole number 1..100. */
function percentWidth(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { unit, value: amount } = value as { unit?: unknown; value?: unknown };
  if (unit !== '%' || typeof amount !== 'number' || !Number.isFinite(amount)) return undefined;
  return Math.min(100, Math.max(1, Math.round(amount)));
}

/** The HTML of a caption fragment (paragraphs of inlines), empty when there is none. */
export function captionHtml(fragments: unknown, ctx: RenderContext): string {
  const list = Array.isArray(fragments) ? (fragments as Array<{ fragment?: unknown; nodes?: unknown }>) : [];
  const caption = list.find((f) => f?.fragment === 'caption') ?? (list.length === 1 ? list[0] : undefined);
  const paragraphs = Array.isArray(caption?.nodes) ? (caption.nodes as Array<{ nodes?: unknown[] }>) : [];
  const html = paragraphs.map((p) => renderInlines(p?.nodes, ctx)).join(' ');
  return html.trim() ? html : '';
}

/**
 * One image. A dark variant is a second `<img>`: the stylesheet shows the one of the theme in
 * force, whether the system chose it or the visitor's toggle did (a `<picture>` would follow
 * the system only). Both load lazily, so the hidden one is not fetched.
 */
function renderImage(image: Image, ctx: RenderContext): string {
  const data = (image?.data ?? {}) as Image['data'];
  const src = imageSrc(data.ref, ctx);
  const dark = imageSrc(data.refDark, ctx);
  const alt = typeof data.alt === 'string' ? data.alt : '';
  const caption = captionHtml(image?.fragments, ctx);
  const size = attr('width', dimension(data.width)) + attr('height', dimension(data.height));
  const img = (source: string, className?: string) =>
    `<img${attr('class', className)}${attr('src', source)}${attr('alt', alt)}${size} loading="lazy" decoding="async">`;
  let media: string;
  if (src === undefined) {
    media = `<span class="missing-image">${icon('file')}<span>${escapeHtml(alt || 'Image not available')}</span></span>`;
  } else if (dark === undefined || dark === src) {
    media = img(src);
  } else {
    media = img(src, 'light-only') + img(dark, 'dark-only');
  }
  const percent = percentWidth(data.width);
  const figcaption = caption ? `<figcaption>${caption}</figcaption>` : '';
  return `<figure class="image${percent ? ` sized w-${percent}` : ''}">${media}${figcaption}</figure>`;
}

/** A drawing (an uploaded SVG the editor made) is drawn as an image. */
export function renderDrawing(block: { data?: { ref?: unknown } }, ctx: RenderContext): string {
  const ref = block.data?.ref as Image['data']['ref'];
  const image = { object: 'block', type: 'image', isVoid: true, data: { ref }, fragments: [] } as Image;
  return renderImages({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [image] }, ctx);
}

/** A card, with its caption under it when the block has one. */
function withCaption(card: string, fragments: unknown, ctx: RenderContext): string {
  const caption = captionHtml(fragments, ctx);
  return caption ? `<figure class="captioned">${card}<figcaption>${caption}</figcaption></figure>` : card;
}

export function renderFile(block: FileBlock, ctx: RenderContext): string {
  return withCaption(fileCard(block, ctx), (block as { fragments?: unknown }).fragments, ctx);
}

function fileCard(block: FileBlock, ctx: RenderContext): string {
  const fileId = block.data?.ref?.file;
  const file = typeof fileId === 'string' ? ask(() => ctx.links.file(fileId)) : undefined;
  const href = safeHref(file?.href);
  if (!file || href === undefined) {
    return `<div class="card file-card unavailable">${icon('file', 'icon card-icon')}<span class="card-text"><span class="card-title">File not available</span></span></div>`;
  }
  const kind = fileKind(file.name, file.contentType);
  return (
    `<a class="card file-card"${attr('href', href)} download>` +
    icon('file', 'icon card-icon') +
    `<span class="card-text"><span class="card-title">${escapeHtml(file.name)}</span>` +
    (kind ? `<span class="card-subtitle">${escapeHtml(kind)}</span>` : '') +
    '</span>' +
    `<span class="card-action">${icon('download')}<span class="visually-hidden">Download</span></span></a>`
  );
}

/** A short label for a file: its extension, else the subtype of its content type. */
function fileKind(name: string, contentType: string | undefined): string {
  const extension = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1];
  if (extension) return extension.toUpperCase();
  const subtype = contentType?.split(';')[0]?.split('/')[1];
  return subtype ? subtype.toUpperCase() : '';
}

export function renderEmbed(block: Embed, ctx: RenderContext): string {
  return withCaption(embedCard(block, ctx), (block as { fragments?: unknown }).fragments, ctx);
}

function embedCard(block: Embed, ctx: RenderContext): string {
  const url = typeof block.data?.url === 'string' ? block.data.url : '';
  const checked = safeHref(url);
  const href = checked === undefined ? undefined : safeHref(ask(() => ctx.links.url(checked)));
  if (href === undefined || !isExternal(href)) {
    return `<div class="card embed-card unavailable">${icon('globe', 'icon card-icon')}<span class="card-text"><span class="card-title">Embedded content</span><span class="card-subtitle">${escapeHtml(url)}</span></span></div>`;
  }
  return (
    `<a class="card embed-card"${attr('href', href)} rel="noopener">` +
    icon('globe', 'icon card-icon') +
    `<span class="card-text"><span class="card-title">${escapeHtml(hostOf(href))}</span>` +
    `<span class="card-subtitle">${escapeHtml(href)}</span></span>` +
    `<span class="card-action">${icon('external')}</span></a>`
  );
}

/** The host of an absolute URL (a relative one is its own best name). */
function hostOf(url: string): string {
  if (!isExternal(url)) return url;
  try {
    return new URL(url, 'https://invalid.invalid').hostname.replace(/^www\./, '') || url;
  } catch {
    return url;
  }
}

export function renderContentRef(block: ContentRefBlock, ctx: RenderContext): string {
  const ref = block.data?.ref;
  const href = refHref(ref, ctx);
  let title = '';
  let subtitle = '';
  let glyph: 'page' | 'file' | 'globe' | 'link' = 'page';
  let emoji = '';
  switch (ref?.kind) {
    case 'page':
    case 'anchor': {
      const page = ref.page;
      const info = page === undefined ? undefined : ask(() => ctx.links.pageInfo?.(page));
      title = info?.title ?? (ref.kind === 'anchor' ? `#${ref.anchor}` : (href ?? 'Page not available'));
      if (ref.kind === 'anchor' && info) title += ` › #${ref.anchor}`;
      subtitle = info?.description ?? '';
      emoji = info?.emoji ? emojiText(info.emoji) : '';
      if (ref.kind === 'anchor') glyph = 'link';
      break;
    }
    case 'file': {
      const file = ask(() => ctx.links.file(ref.file));
      title = file?.name ?? 'File not available';
      glyph = 'file';
      break;
    }
    case 'url':
      title = href ? hostOf(href) : ref.url;
      subtitle = ref.url;
      glyph = 'globe';
      break;
    default:
      title = 'Not available';
  }
  const lead = emoji
    ? `<span class="card-emoji" aria-hidden="true">${escapeHtml(emoji)}</span>`
    : icon(glyph, 'icon card-icon');
  const text =
    `<span class="card-text"><span class="card-title">${escapeHtml(title)}</span>` +
    (subtitle ? `<span class="card-subtitle">${escapeHtml(subtitle)}</span>` : '') +
    '</span>';
  if (href === undefined) return `<div class="card content-ref unavailable">${lead}${text}</div>`;
  const external = ref?.kind === 'url' && isExternal(href);
  return `<a class="card content-ref"${attr('href', href)}${external ? ' rel="noopener"' : ''}>${lead}${text}<span class="card-action">${icon(external ? 'external' : 'chevronRight')}</span></a>`;
}
