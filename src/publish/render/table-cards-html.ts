import type { ContentRef } from '../../content/document-schema.js';
import { attr, escapeHtml, isExternal } from './escape.js';
import { imageSrc, nodeText, refHref } from './refs.js';
import type { RenderContext } from './render-context.js';
import { imageRecord, renderCell, type TableParts, viewColumns } from './table-cells-html.js';

/**
 * The cards view of a table: one card per record, a cover image on top (with a dark-theme
 * variant), the other visible columns as the card's text, and the whole card a link when its
 * target column holds a reference. A card whose text has links or controls of its own cannot
 * sit inside a link: it gets a link that covers the card instead (the inner links stay above it).
 */

export interface CardsView {
  columns?: unknown;
  cardSize?: unknown;
  targetDefinition?: unknown;
  coverDefinition?: unknown;
  coverDefinitionDark?: unknown;
  hideColumnTitle?: unknown;
}

const FITS = new Set(['contain', 'fill']);
const INTERACTIVE = /<(?:a|button|details|input|select|textarea|summary)[\s>]/;

function cover(value: unknown, ctx: RenderContext, theme: '' | ' light-only' | ' dark-only'): string {
  const record = imageRecord(value);
  const src = record ? imageSrc(record.ref, ctx) : undefined;
  if (src === undefined) return '';
  const alt = typeof record?.alt === 'string' ? record.alt : '';
  const fit =
    typeof record?.objectFit === 'string' && FITS.has(record.objectFit) ? record.objectFit : 'cover';
  return `<img class="table-card-cover fit-${fit}${theme}"${attr('src', src)}${attr('alt', alt)} loading="lazy" decoding="async">`;
}

/** Where a card's target column points: a reference, or the first of a list of files. */
function target(value: unknown, ctx: RenderContext): { href: string; external: boolean } | undefined {
  let ref: ContentRef | undefined;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) ref = value as ContentRef;
  else if (Array.isArray(value) && typeof value[0] === 'string') ref = { kind: 'file', file: value[0] };
  const href = refHref(ref, ctx);
  return href === undefined ? undefined : { href, external: ref?.kind === 'url' && isExternal(href) };
}

export function renderCards(view: CardsView, parts: TableParts, ctx: RenderContext, full: boolean): string {
  const { definition, records, fragments } = parts;
  const id = (value: unknown) =>
    typeof value === 'string' && Object.hasOwn(definition, value) ? value : undefined;
  const targetId = id(view.targetDefinition);
  const coverId = id(view.coverDefinition);
  const coverDarkId = id(view.coverDefinitionDark);
  const special = new Set([targetId, coverId, coverDarkId]);
  const columns = viewColumns(view, definition).filter((column) => !special.has(column));
  const titles = view.hideColumnTitle !== true;

  const cards = records.map((record) => {
    const lightValue = coverId ? record.values[coverId] : undefined;
    const darkValue = coverDarkId ? record.values[coverDarkId] : undefined;
    const both = cover(lightValue, ctx, '') !== '' && cover(darkValue, ctx, '') !== '';
    const covers = both
      ? cover(lightValue, ctx, ' light-only') + cover(darkValue, ctx, ' dark-only')
      : cover(lightValue, ctx, '') || cover(darkValue, ctx, '');
    const fields = columns
      .map((column) => {
        const html = renderCell(definition[column] ?? {}, record.values[column], fragments, ctx);
        if (html.trim() === '') return '';
        const title = String(definition[column]?.title ?? '');
        const label = titles && title ? `<span class="table-card-label">${escapeHtml(title)}</span>` : '';
        return `<div class="table-card-field">${label}<div class="table-card-value">${html}</div></div>`;
      })
      .join('');
    const body = `${covers ? `<div class="table-card-media">${covers}</div>` : ''}<div class="table-card-body">${fields}</div>`;
    const link = targetId ? target(record.values[targetId], ctx) : undefined;
    if (!link) return `<li class="table-card">${body}</li>`;
    const rel = link.external ? ' rel="noopener"' : '';
    if (!INTERACTIVE.test(fields)) {
      return `<li class="table-card linked"><a class="table-card-link"${attr('href', link.href)}${rel}>${body}</a></li>`;
    }
    // Named by the card's first text (what a reader sees as its title).
    const name = columns
      .map((column) => {
        const value = record.values[column];
        const nodes = typeof value === 'string' ? fragments.get(value) : undefined;
        return nodes ? nodeText({ nodes }, ctx).trim() : '';
      })
      .find(Boolean);
    return (
      `<li class="table-card linked stretched">${body}` +
      `<a class="table-card-cover-link"${attr('href', link.href)}${rel}${attr('aria-label', name || 'Open')}></a></li>`
    );
  });
  const size = view.cardSize === 'large' ? 'large' : 'medium';
  return cards.length > 0
    ? `<ul class="table-cards cards-${size}${full ? ' full-width' : ''}">${cards.join('')}</ul>`
    : '';
}
