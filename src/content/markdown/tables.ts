import type { AlignType, Html, Table as MdTable, TableCell, TableRow } from 'mdast';
import { escapeMarkdownHtml } from '../../html-escape.js';
import { type ToDocumentContext, Unrepresentable } from './context.js';
import {
  type AnyBlock,
  type InlineNode,
  type Paragraph,
  paragraph,
  plainText,
  type Table,
  type TableFragment,
  text,
} from './document-types.js';
import type { FromContext } from './from-context.js';
import { toPhrasing } from './from-inline.js';
import { blocksToHtml } from './html-write.js';
import { toInlines } from './to-inline.js';

/**
 * GFM tables and the document `table` block: a grid view of text columns, one record per body
 * row, each cell a fragment with one paragraph. Column titles are plain text (marks in header
 * cells are not kept). Ids are positional (`c0`, `r0`, `r0c0`) so converting the same table
 * twice gives the same block; row order is carried by fractional-index style order keys.
 */

type Alignment = 'left' | 'center' | 'right';

export function tableToDocument(node: MdTable, ctx: ToDocumentContext): Table {
  const [header, ...rows] = node.children;
  if (!header) throw new Unrepresentable('table without header');
  const columns = header.children.map((_, i) => `c${i}`);
  const definition: Table['data']['definition'] = {};
  for (const [i, cell] of header.children.entries()) {
    const id = columns[i]!;
    definition[id] = {
      id,
      title: cellTitle(cell, ctx),
      type: 'text',
      textAlignment: alignment(node.align?.[i]),
    };
  }
  const records: Table['data']['records'] = {};
  const fragments: TableFragment[] = [];
  for (const [r, row] of rows.entries()) {
    if (row.children.length > columns.length) throw new Unrepresentable('row wider than the header');
    const values: Record<string, string> = {};
    // Short rows read as empty cells, as GFM renders them: every record has every column.
    for (const [c, column] of columns.entries()) {
      const fragment = `r${r}c${c}`;
      values[column] = fragment;
      const cell = row.children[c];
      fragments.push({
        object: 'fragment',
        fragment,
        nodes: [paragraph(toInlines(cell?.children ?? [], ctx))],
      });
    }
    records[`r${r}`] = { orderIndex: orderKey(r), values };
  }
  return {
    object: 'block',
    type: 'table',
    isVoid: true,
    data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
    fragments,
  };
}

function cellTitle(cell: TableCell, ctx: ToDocumentContext): string {
  return plainText(toInlines(cell.children, ctx));
}

function alignment(align: AlignType | undefined): Alignment {
  return align === 'center' || align === 'right' ? align : 'left';
}

/**
 * A table as markdown: a GFM table when it is one (a grid of text columns, every cell one
 * paragraph, no widths or hidden columns), otherwise GitBook's one-line HTML table.
 */
export function tableFromDocument(block: Table, ctx: FromContext): MdTable | Html {
  const { view, records, definition } = block.data;
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes as AnyBlock[]]));
  const gfm =
    view.type === 'grid' &&
    !view.hideHeader &&
    !view.columnWidths &&
    !block.data.fullWidth &&
    Object.values(definition).every((d) => d.type === 'text' && view.columns.includes(d.id)) &&
    Object.values(records).every((record) =>
      Object.values(record.values).every((value) => {
        const nodes = typeof value === 'string' ? fragments.get(value) : undefined;
        return nodes?.every((n) => n.type === 'paragraph') === true;
      }),
    );
  if (!gfm) return { type: 'html', value: tableHtml(block, ctx) };
  const columns = view.columns.filter((id) => definition[id]);
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((id) => ({
      type: 'tableCell',
      children: [{ type: 'text', value: definition[id]!.title }],
    })),
  };
  const rows = sortedRecords(records).map(
    (record): TableRow => ({
      type: 'tableRow',
      children: columns.map((id) => {
        const paragraphs = (fragments.get(String(record.values[id] ?? '')) ?? []) as Paragraph[];
        return { type: 'tableCell', children: toPhrasing(cellInlines(paragraphs), ctx, true) };
      }),
    }),
  );
  return {
    type: 'table',
    // Left is the default: written without a colon, as most tables are.
    align: columns.map((id) => {
      const column = definition[id]!;
      const align = column.type === 'text' ? column.textAlignment : 'left';
      return align === 'left' ? null : align;
    }),
    children: [header, ...rows],
  };
}

function sortedRecords(records: Table['data']['records']): Array<Table['data']['records'][string]> {
  return Object.values(records).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
}

/** GitBook's HTML table: columns described on `<th>`, one line. */
function tableHtml(block: Table, ctx: FromContext): string {
  const { view, records, definition } = block.data;
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes as AnyBlock[]]));
  const ids = [
    ...view.columns.filter((id) => definition[id]),
    ...Object.keys(definition).filter((id) => !view.columns.includes(id)),
  ];
  let table = '<table';
  if (view.type === 'cards') {
    table += ' data-view="cards"';
    if (view.cardSize === 'large') table += ' data-card-size="large"';
    if (view.hideColumnTitle) table += ' data-column-title-hidden';
  } else if (view.hideHeader) table += ' data-header-hidden';
  if (block.data.fullWidth !== undefined) table += ` data-full-width="${block.data.fullWidth}"`;
  table += '>';
  const heads = ids.map((id) => {
    const column = definition[id]!;
    let attrs = '';
    if (view.type === 'grid' && view.columnWidths?.[id] !== undefined)
      attrs += ` width="${view.columnWidths[id]}"`;
    if (column.type === 'text' && column.textAlignment !== 'left')
      attrs += ` align="${column.textAlignment}"`;
    if (!view.columns.includes(id)) attrs += ' data-hidden';
    if (view.type === 'cards') {
      if (view.targetDefinition === id) attrs += ' data-card-target';
      if (view.coverDefinition === id) attrs += ' data-card-cover';
      if (view.coverDefinitionDark === id) attrs += ' data-card-cover-dark';
    }
    if (column.type !== 'text') attrs += ` data-type="${column.type}"`;
    if (column.type === 'rating') attrs += ` data-max="${column.max}"`;
    if ((column.type === 'select' || column.type === 'users') && column.multiple) attrs += ' data-multiple';
    let title = escapeMarkdownHtml(column.title);
    if (column.type === 'select')
      title += `<select>${column.options.map((o) => `<option value="${escapeMarkdownHtml(o.value)}" label="${escapeMarkdownHtml(o.label)}" color="${escapeMarkdownHtml(o.color)}"></option>`).join('')}</select>`;
    return `<th${attrs}>${title}</th>`;
  });
  const rows = sortedRecords(records).map((record) => {
    const cells = ids.map((id) => `<td>${cellHtml(definition[id]!, record.values[id], fragments, ctx)}</td>`);
    return `<tr>${cells.join('')}</tr>`;
  });
  return `${table}<thead><tr>${heads.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function cellHtml(
  column: Table['data']['definition'][string],
  value: Table['data']['records'][string]['values'][string] | undefined,
  fragments: ReadonlyMap<string, AnyBlock[]>,
  ctx: FromContext,
): string {
  if (value === undefined || value === null) return '';
  switch (column.type) {
    case 'text': {
      const nodes = fragments.get(String(value)) ?? [];
      // One paragraph is written as its inline content, as GitBook does.
      return blocksToHtml(nodes, ctx).replace(/^<p>((?:(?!<p>)[\s\S])*)<\/p>$/, '$1');
    }
    case 'checkbox':
    case 'number':
    case 'rating':
      return escapeMarkdownHtml(String(value));
    case 'select':
      return (Array.isArray(value) ? value : [])
        .map((option) => {
          const label = column.options.find((o) => o.value === option)?.label ?? option;
          return `<span data-option="${escapeMarkdownHtml(option)}">${escapeMarkdownHtml(label)}</span>`;
        })
        .join('');
    case 'files':
      return (Array.isArray(value) ? value : [])
        .map((file) => {
          const href = ctx.links.href({ kind: 'file', file });
          return `<a href="${escapeMarkdownHtml(href)}">${escapeMarkdownHtml(href.split('/').pop() ?? href)}</a>`;
        })
        .join('');
    default: {
      if (typeof value !== 'object' || Array.isArray(value)) return escapeMarkdownHtml(String(value));
      const ref = 'kind' in value ? value : value.ref;
      const href = ctx.links.href(ref);
      return `<a href="${escapeMarkdownHtml(href)}">${escapeMarkdownHtml(href.split('/').pop() || href)}</a>`;
    }
  }
}

/** A cell is one line in GFM: paragraphs after the first follow a line break. */
function cellInlines(paragraphs: Paragraph[]): InlineNode[] {
  return paragraphs.flatMap((p, i) => (i === 0 ? p.nodes : [text('\n'), ...p.nodes]));
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The n-th order key in the style of fractional indexing (`a0`…`az`, `b00`…`bzz`, …): keys
 * sort by plain string comparison, and editors can insert between them.
 */
export function orderKey(n: number): string {
  let width = 1;
  let first = 0;
  while (n - first >= DIGITS.length ** width) {
    first += DIGITS.length ** width;
    width++;
  }
  let rest = n - first;
  let digits = '';
  for (let i = 0; i < width; i++) {
    digits = DIGITS[rest % DIGITS.length] + digits;
    rest = Math.floor(rest / DIGITS.length);
  }
  return String.fromCharCode('a'.charCodeAt(0) + width - 1) + digits;
}
