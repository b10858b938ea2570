import type { Block } from '../../content/document-schema.js';
import { attr, escapeHtml } from './escape.js';
import { faIcon } from './fa-icons.js';
import { ask } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * Blocks that lay out other blocks: steppers (numbered steps joined by a line), updates (a
 * changelog timeline) and columns (a row that stacks on narrow screens). Their children are
 * ordinary blocks, drawn by `inner`, so headings inside keep their ids and TOC entries.
 */

export type Inner = (nodes: readonly unknown[] | undefined) => string;

type Stepper = Extract<Block, { type: 'stepper' }>;
type Updates = Extract<Block, { type: 'updates' }>;
type Columns = Extract<Block, { type: 'columns' }>;

/** The child blocks of a container, without what is not an object. */
const children = (block: {
  nodes?: unknown;
}): Array<{ type?: unknown; data?: unknown; nodes?: unknown[] }> =>
  Array.isArray(block.nodes) ? block.nodes.filter((n) => n !== null && typeof n === 'object') : [];

export function renderStepper(block: Stepper, inner: Inner): string {
  const steps = children(block).map((step, i) => {
    const data = (step.data ?? {}) as { icon?: unknown };
    const badge = typeof data.icon === 'string' && data.icon ? faIcon(data.icon) : `<span>${i + 1}</span>`;
    return (
      '<li class="stepper-step">' +
      `<span class="stepper-badge" aria-hidden="true">${badge}</span>` +
      `<div class="stepper-body">${inner(step.nodes)}</div></li>`
    );
  });
  return steps.length > 0 ? `<ol class="stepper">${steps.join('')}</ol>` : '';
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `YYYY-MM-DD` of an ISO date or date-time as written (no time-zone shift), when it is a real date. */
function calendarDate(value: unknown): { year: number; month: number; day: number; iso: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(value.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return undefined;
  return { year, month, day, iso: `${match[1]}-${match[2]}-${match[3]}` };
}

/** A date as the `updates` block's format asks: full, numeric or short (English month names). */
export function formatUpdateDate(value: unknown, format: unknown): string {
  const date = calendarDate(value);
  if (!date) return typeof value === 'string' ? value : '';
  const month = MONTHS[date.month - 1]!;
  if (format === 'numeric') return date.iso;
  if (format === 'short') return `${month.slice(0, 3)} ${date.day}, ${date.year}`;
  return `${month} ${date.day}, ${date.year}`;
}

export function renderUpdates(block: Updates, ctx: RenderContext, inner: Inner): string {
  const format = (block.data as { format?: unknown } | undefined)?.format;
  const entries = children(block).map((update) => {
    const data = (update.data ?? {}) as { date?: unknown; tags?: unknown };
    const date = calendarDate(data.date);
    const label = formatUpdateDate(data.date, format);
    const when = date
      ? `<time class="update-date"${attr('datetime', date.iso)}>${escapeHtml(label)}</time>`
      : label
        ? `<span class="update-date">${escapeHtml(label)}</span>`
        : '';
    const tags = (Array.isArray(data.tags) ? data.tags : [])
      .map((tag) => (tag as { tag?: unknown } | null)?.tag)
      .filter((slug): slug is string => typeof slug === 'string' && slug !== '')
      .map((slug) => {
        const found = ask(() => ctx.links.tag?.(slug))?.label;
        return `<li class="tag">${escapeHtml(typeof found === 'string' && found ? found : slug)}</li>`;
      });
    const tagList = tags.length > 0 ? `<ul class="update-tags" aria-label="Tags">${tags.join('')}</ul>` : '';
    return (
      '<article class="update">' +
      `<div class="update-meta">${when}${tagList}</div>` +
      `<div class="update-body">${inner(update.nodes)}</div></article>`
    );
  });
  return entries.length > 0 ? `<div class="updates">${entries.join('')}</div>` : '';
}

/** A column's width in whole percent (0..100), or undefined to share what is left. */
export function columnWidth(width: unknown): number | undefined {
  let percent: number | undefined;
  if (typeof width === 'number') percent = width;
  else if (width !== null && typeof width === 'object') {
    const { unit, value } = width as { unit?: unknown; value?: unknown };
    if (unit === '%' && typeof value === 'number') percent = value;
  }
  if (percent === undefined || !Number.isFinite(percent)) return undefined;
  return Math.min(100, Math.max(0, Math.round(percent)));
}

const VALIGN = new Set(['top', 'middle', 'bottom']);

export function renderColumns(block: Columns, inner: Inner): string {
  const columns = children(block).map((column) => {
    const data = (column.data ?? {}) as { width?: unknown; verticalAlignment?: unknown };
    const width = columnWidth(data.width);
    const classes = ['column'];
    // Widths are classes of the stylesheet (`w-0`…`w-100`): the page has no style attributes.
    if (width !== undefined) classes.push('sized', `w-${width}`);
    if (typeof data.verticalAlignment === 'string' && VALIGN.has(data.verticalAlignment))
      classes.push(`valign-${data.verticalAlignment}`);
    return `<div class="${classes.join(' ')}">${inner(column.nodes)}</div>`;
  });
  if (columns.length === 0) return '';
  const full = (block.data as { fullWidth?: unknown } | undefined)?.fullWidth === true;
  return `<div class="columns${full ? ' full-width' : ''}">${columns.join('')}</div>`;
}
