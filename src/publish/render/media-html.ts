import type { Block } from '../../content/document-schema.js';
import type { FileBlock, Image, Images } from '../../content/markdown/document-types.js';
import { attr, emojiText, escapeHtml, isExternal, safeHref } from './escape.js';
import { icon } from './icons.js';
import { imageSrc, refHref, renderInlines } from './inline-html.js';
import type { RenderContext } from './render-context.js';

/**
 * Blocks that point elsewhere: images, file downloads, embeds and content references. Embeds
 * are drawn as link cards, never as iframes: the document names any URL, and the site must
 * not load third-party pages into itself.
 */

type Embed = Extract<Block, { type: 'embed' }>;
type ContentRefBlock = Extract<Block, { type: 'content-ref' }>;

export function renderImages(block: Images, ctx: RenderContext): string {
  const figures = (block.nodes ?? []).map((image) => renderImage(image, ctx));
  const count = Math.min(figures.length, 4);
  return `<div class="images${count > 1 ? ` images-${count}` : ''}">${figures.join('')}</div>`;
}

function dimension(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value < 100_000
    ? Math.round(value)
    : undefined;
}

function renderImage(image: Image, ctx: RenderContext): string {
  const src = imageSrc(image.data?.ref, ctx);
  const alt = typeof image.data?.alt === 'string' ? image.data.alt : '';
  const caption = (image.fragments?.[0]?.nodes ?? []).map((p) => renderInlines(p.nodes, ctx)).join(' ');
  const media =
    src === undefined
      ? `<span class="missing-image">${icon('file')}<span>${escapeHtml(alt || 'Image not available')}</span></span>`
      : `<img${attr('src', src)}${attr('alt', alt)}${attr('width', dimension(image.data?.width))}${attr('height', dimension(image.data?.height))} loading="lazy" decoding="async">`;
  const figcaption = caption.trim() ? `<figcaption>${caption}</figcaption>` : '';
  return `<figure class="image">${media}${figcaption}</figure>`;
}

export function renderFile(block: FileBlock, ctx: RenderContext): string {
  const fileId = block.data?.ref?.file;
  const file = typeof fileId === 'string' ? ctx.links.file(fileId) : undefined;
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
  const url = typeof block.data?.url === 'string' ? block.data.url : '';
  const checked = safeHref(url);
  const href = checked === undefined ? undefined : safeHref(ctx.links.url(checked));
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

function hostOf(url: string): string {
  try {
    return new URL(url, 'https://invalid.invalid').hostname.replace(/^www\./, '');
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
      const info = ref.page === undefined ? undefined : ctx.links.pageInfo?.(ref.page);
      title = info?.title ?? (ref.kind === 'anchor' ? `#${ref.anchor}` : (href ?? 'Page not available'));
      if (ref.kind === 'anchor' && info) title += ` › #${ref.anchor}`;
      subtitle = info?.description ?? '';
      emoji = info?.emoji ? emojiText(info.emoji) : '';
      if (ref.kind === 'anchor') glyph = 'link';
      break;
    }
    case 'file': {
      const file = ctx.links.file(ref.file);
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
