import type { ContentRef } from '../../content/document-schema.js';
import { attr, escapeHtml, isExternal } from './escape.js';
import { renderInlines } from './inline-html.js';
import { ask, colorClass, imageSrc, refHref } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * The value of one table cell, by the type of its column: text (a fragment of blocks), number,
 * checkbox, rating, select (coloured badges), content reference (a link), files, image, users.
 * Values come from API clients too, so each is checked for the shape its type expects; a value
 * of the wrong shape draws nothing.
 */

export interface ColumnDefinition {
  id?: unknown;
  title?: unknown;
  type?: unknown;
  textAlignment?: unknown;
  verticalAlignment?: unknown;
  max?: unknown;
  options?: unknown;
}

export type Fragments = ReadonlyMap<string, readonly unknown[]>;

export interface TableParts {
  definition: Record<string, ColumnDefinition>;
  records: Array<{ id: string; values: Record<string, unknown> }>;
  fragments: Fragments;
}

/** The view's column ids that the definition knows. */
export function viewColumns(view: { columns?: unknown } | undefined, definition: object): string[] {
  const columns = Array.isArray(view?.columns) ? view.columns : [];
  return columns.filter((id): id is string => typeof id === 'string' && Object.hasOwn(definition, id));
}

/** Text of a fragment: paragraphs as lines (the usual case), any other block drawn as a block. */
function renderFragment(nodes: readonly unknown[], ctx: RenderContext): string {
  const paragraphs = nodes.every((n) => (n as { type?: unknown })?.type === 'paragraph');
  if (paragraphs)
    return nodes.map((p) => renderInlines((p as { nodes?: unknown[] }).nodes, ctx)).join('<br>');
  return ctx.renderCellBlocks(nodes);
}

/** A readable name for a reference: page title, `#anchor`, file name, URL. */
export function refLabel(ref: ContentRef | undefined, ctx: RenderContext): string {
  switch (ref?.kind) {
    case 'page':
    case 'anchor': {
      const page = ref.page;
      const title = typeof page === 'string' ? ask(() => ctx.links.pageInfo?.(page))?.title : undefined;
      if (ref.kind === 'page') return typeof title === 'string' ? title : (refHref(ref, ctx) ?? '');
      return typeof title === 'string' ? `${title} › ${ref.anchor}` : `#${String(ref.anchor ?? '')}`;
    }
    case 'file':
      return ask(() => ctx.links.file(ref.file))?.name ?? '';
    case 'url':
      return typeof ref.url === 'string' ? ref.url : '';
    default:
      return '';
  }
}

export function refLink(ref: ContentRef | undefined, ctx: RenderContext): string {
  const label = refLabel(ref, ctx);
  const href = refHref(ref, ctx);
  if (href === undefined) return label ? `<span class="unresolved-link">${escapeHtml(label)}</span>` : '';
  const external = ref?.kind === 'url' && isExternal(href);
  return `<a${attr('href', href)}${external ? ' class="external" rel="noopener"' : ''}>${escapeHtml(label || href)}</a>`;
}

/** An image value: a file or URL reference, `{ref, objectFit, alt}`, or a list of file ids. */
export function imageRecord(
  value: unknown,
): { ref: unknown; objectFit?: unknown; alt?: unknown } | undefined {
  if (Array.isArray(value)) {
    const first = value.find((id) => typeof id === 'string');
    return first === undefined ? undefined : { ref: { kind: 'file', file: first } };
  }
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as { kind?: unknown; ref?: unknown };
  if (v.kind === 'file' || v.kind === 'url') return { ref: v };
  if (v.ref !== null && typeof v.ref === 'object') return v as { ref: unknown };
  return undefined;
}

const isContentRef = (value: unknown): value is ContentRef =>
  value !== null && typeof value === 'object' && typeof (value as { kind?: unknown }).kind === 'string';

function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function rating(value: unknown, max: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return '';
  const top =
    typeof max === 'number' && Number.isFinite(max) ? Math.min(100, Math.max(1, Math.round(max))) : 5;
  const score = Math.min(top, Math.max(0, Math.round(n)));
  const label = `${score} out of ${top}`;
  if (top > 10) return `<span class="rating">${escapeHtml(`${score} / ${top}`)}</span>`;
  return (
    `<span class="rating" role="img"${attr('aria-label', label)}>` +
    `<span class="rating-on">${'★'.repeat(score)}</span><span class="rating-off">${'★'.repeat(top - score)}</span></span>`
  );
}

function select(definition: ColumnDefinition, value: unknown): string {
  const options = Array.isArray(definition.options)
    ? (definition.options as Array<{ value?: unknown; label?: unknown; color?: unknown }>)
    : [];
  const badges = stringList(value).map((chosen) => {
    const option = options.find((o) => o?.value === chosen);
    const label = typeof option?.label === 'string' && option.label ? option.label : chosen;
    const color = colorClass('badge', option?.color);
    return `<span class="badge${color ? ` ${color}` : ''}">${escapeHtml(label)}</span>`;
  });
  return badges.join(' ');
}

export function renderCell(
  definition: ColumnDefinition,
  value: unknown,
  fragments: Fragments,
  ctx: RenderContext,
): string {
  const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
  switch (definition.type) {
    case 'number':
      if (fragment) return renderFragment(fragment, ctx);
      return typeof value === 'number' && Number.isFinite(value)
        ? escapeHtml(String(value))
        : typeof value === 'string'
          ? escapeHtml(value)
          : '';
    case 'checkbox': {
      const on = value === true || value === 'true';
      return `<span class="checkbox-value${on ? ' checked' : ''}" role="img" aria-label="${on ? 'Yes' : 'No'}">${on ? '☑' : '☐'}</span>`;
    }
    case 'rating':
      return rating(value, definition.max);
    case 'select':
      return select(definition, value);
    case 'content-ref':
      return isContentRef(value) ? refLink(value, ctx) : '';
    case 'files':
      return stringList(value)
        .map((id) => refLink({ kind: 'file', file: id }, ctx))
        .filter(Boolean)
        .join('<br>');
    case 'image': {
      const record = imageRecord(value);
      const src = record ? imageSrc(record.ref, ctx) : undefined;
      if (src === undefined) return '';
      const alt = typeof record?.alt === 'string' ? record.alt : '';
      return `<img class="cell-image"${attr('src', src)}${attr('alt', alt)} loading="lazy" decoding="async">`;
    }
    case 'users':
      return stringList(value)
        .map((id) => {
          const name = ask(() => ctx.links.user?.(id));
          return `<span class="mention mention-user">${escapeHtml(typeof name === 'string' && name ? name : 'a user')}</span>`;
        })
        .join(' ');
    default:
      // Text columns, and columns of a type this renderer does not know: a fragment, or a plain value.
      if (fragment) return renderFragment(fragment, ctx);
      return typeof value === 'number' ? escapeHtml(String(value)) : '';
  }
}
