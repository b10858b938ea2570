import type { AlignType, Table as MdTable, TableCell, TableRow } from 'mdast';
import { type Context, Unrepresentable } from './context.js';
import {
  type InlineNode,
  type Paragraph,
  paragraph,
  plainText,
  type Table,
  type TableFragment,
  text,
} from './document-types.js';
import { toPhrasing } from './from-inline.js';
import { toInlines } from './to-inline.js';

/**
 * GFM tables and the document `table` block: a grid view of text columns, one record per body
 * row, each cell a fragment with one paragraph. Column titles are plain text (marks in header
 * cells are not kept). Ids are positional (`c0`, `r0`, `r0c0`) so converting the same table
 * twice gives the same block; row order is carried by fractional-index style order keys.
 */

type Alignment = Table['data']['definition'][string]['textAlignment'];

export function tableToDocument(node: MdTable, ctx: Context): Table {
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

function cellTitle(cell: TableCell, ctx: Context): string {
  return plainText(toInlines(cell.children, ctx));
}

function alignment(align: AlignType | undefined): Alignment {
  return align === 'center' || align === 'right' ? align : 'left';
}

export function tableFromDocument(block: Table, ctx: Context): MdTable {
  const { view, records, definition } = block.data;
  const columns = view.columns.filter((id) => definition[id]);
  const fragments = new Map(block.fragments.map((f) => [f.fragment, f.nodes]));
  const header: TableRow = {
    type: 'tableRow',
    children: columns.map((id) => ({
      type: 'tableCell',
      children: [{ type: 'text', value: definition[id]!.title }],
    })),
  };
  const rows = Object.values(records)
    .sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0))
    .map(
      (record): TableRow => ({
        type: 'tableRow',
        children: columns.map((id) => {
          const paragraphs = fragments.get(record.values[id] ?? '') ?? [];
          return { type: 'tableCell', children: toPhrasing(cellInlines(paragraphs), ctx, true) };
        }),
      }),
    );
  return {
    type: 'table',
    // Left is the default: written without a colon, as most tables are.
    align: columns.map((id) => {
      const align = definition[id]!.textAlignment;
      return align === 'left' ? null : align;
    }),
    children: [header, ...rows],
  };
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
