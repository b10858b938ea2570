import type { Table } from '../../content/markdown/document-types.js';
import { attr, escapeHtml } from './escape.js';
import type { RenderContext } from './render-context.js';
import { type CardsView, renderCards } from './table-cards-html.js';
import { type ColumnDefinition, renderCell, type TableParts, viewColumns } from './table-cells-html.js';

/**
 * The table block: columns are `definition` entries, rows are `records` in `orderIndex` order,
 * cells are drawn by the type of their column (table-cells-html.ts). A grid view is a table
 * that scrolls sideways inside a focusable region, so keyboard users can scroll it too; a cards
 * view is a grid of cards (table-cards-html.ts).
 */

const ALIGN = new Set(['center', 'right']);
const VALIGN = new Set(['middle', 'bottom']);

/** The parts of a table every view uses, read defensively. */
function tableParts(block: Table): TableParts {
  const data = block.data as { definition?: unknown; records?: unknown } | undefined;
  const definition =
    data?.definition !== null && typeof data?.definition === 'object'
      ? (data.definition as Record<string, ColumnDefinition>)
      : {};
  const rawRecords =
    data?.records !== null && typeof data?.records === 'object'
      ? (data.records as Record<string, { orderIndex?: unknown; values?: unknown }>)
      : {};
  const records = Object.entries(rawRecords)
    .filter(([, record]) => record !== null && typeof record === 'object')
    .map(([id, record]) => ({
      id,
      order: String(record.orderIndex ?? ''),
      values:
        record.values !== null && typeof record.values === 'object'
          ? (record.values as Record<string, unknown>)
          : {},
    }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  const fragments = new Map<string, readonly unknown[]>();
  for (const f of Array.isArray(block.fragments) ? block.fragments : []) {
    if (typeof f?.fragment === 'string' && Array.isArray(f.nodes)) fragments.set(f.fragment, f.nodes);
  }
  return { definition, records, fragments };
}

export function renderTable(block: Table, ctx: RenderContext): string {
  const parts = tableParts(block);
  const view = block.data?.view as ({ type?: unknown } & Record<string, unknown>) | undefined;
  const full = (block.data as { fullWidth?: unknown } | undefined)?.fullWidth === true;
  if (view?.type === 'cards') return renderCards(view as CardsView, parts, ctx, full);
  return renderGrid(
    view as { columns?: unknown; columnWidths?: unknown; hideHeader?: unknown } | undefined,
    parts,
    ctx,
    full,
  );
}

function renderGrid(
  view: { columns?: unknown; columnWidths?: unknown; hideHeader?: unknown } | undefined,
  { definition, records, fragments }: TableParts,
  ctx: RenderContext,
  full: boolean,
): string {
  const columns = viewColumns(view, definition);
  const cellClass = (id: string) => {
    const column = definition[id];
    const classes: string[] = [];
    const align = column?.textAlignment;
    if (typeof align === 'string' && ALIGN.has(align)) classes.push(`align-${align}`);
    else if (column?.type === 'number' || column?.type === 'rating') classes.push('align-right');
    else if (column?.type === 'checkbox') classes.push('align-center');
    const valign = column?.verticalAlignment;
    if (typeof valign === 'string' && VALIGN.has(valign)) classes.push(`valign-${valign}`);
    return classes.length > 0 ? ` class="${classes.join(' ')}"` : '';
  };

  // Widths in pixels, as GitBook's editor sets them; the table still fills the column.
  const widths =
    view?.columnWidths !== null && typeof view?.columnWidths === 'object'
      ? (view.columnWidths as Record<string, unknown>)
      : {};
  const cols = columns.map((id) => {
    const width = Object.hasOwn(widths, id) ? widths[id] : undefined;
    const px =
      typeof width === 'number' && Number.isFinite(width) && width > 0
        ? Math.min(Math.round(width), 5000)
        : undefined;
    return `<col${attr('width', px)}>`;
  });
  const colgroup = cols.some((col) => col !== '<col>') ? `<colgroup>${cols.join('')}</colgroup>` : '';

  const head = columns
    .map((id) => `<th scope="col"${cellClass(id)}>${escapeHtml(String(definition[id]?.title ?? ''))}</th>`)
    .join('');
  const rows = records
    .map((record) => {
      const cells = columns.map(
        (id) =>
          `<td${cellClass(id)}>${renderCell(definition[id] ?? {}, record.values[id], fragments, ctx)}</td>`,
      );
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  const thead = columns.length > 0 && view?.hideHeader !== true ? `<thead><tr>${head}</tr></thead>` : '';
  return (
    `<div class="table-wrap${full ? ' full-width' : ''}" role="region" aria-label="Table" tabindex="0">` +
    `<table>${colgroup}${thead}<tbody>${rows}</tbody></table></div>`
  );
}
