import type { Element, ElementContent } from 'hast';
import { toText } from 'hast-util-to-text';
import type { ColumnDefinition, ContentRef } from '../document-schema.js';
import type { ToDocumentContext } from './context.js';
import { type AnyBlock, paragraph, type Table, type TableFragment, text } from './document-types.js';
import { attributesOf } from './html-inlines.js';
import { orderKey } from './tables.js';

/** Converts the content of a text cell (the caller's HTML block converter). */
export type CellBlocks = (nodes: readonly ElementContent[]) => AnyBlock[];

/**
 * GitBook's HTML tables (written on one line whenever a table has more than a GFM table can
 * say): `<th>` attributes define the columns (`width`, `align`, `data-hidden`, `data-type` of
 * checkbox, number, rating, select, users, files, image or content-ref, and the card view's
 * `data-card-target`, `data-card-cover`, `data-card-cover-dark`), `<table>` attributes the view
 * (`data-view="cards"`, `data-card-size`, `data-header-hidden`, `data-column-title-hidden`,
 * `data-full-width`). Text cells become fragments holding blocks; the other types hold values.
 */

type Values = Table['data']['records'][string]['values'];
type CellValue = Values[string];

interface Column {
  id: string;
  definition: ColumnDefinition;
  hidden: boolean;
  attrs: Record<string, string>;
}

export function htmlTable(node: Element, ctx: ToDocumentContext, cellBlocks: CellBlocks): Table {
  const table = attributesOf(node);
  const rows = rowsOf(node);
  const header = rows.find((r) => r.head) ?? rows[0];
  const body = rows.filter((r) => r !== header && !r.head);
  const columns: Column[] = (header?.cells ?? []).map((th, i) => column(th, i));
  const fragments: TableFragment[] = [];
  const records: Table['data']['records'] = {};
  for (const [r, row] of body.entries()) {
    const values: Values = {};
    for (const [c, col] of columns.entries()) {
      const cell = row.cells[c];
      const value = cellValue(col, cell, `r${r}c${c}`, fragments, ctx, cellBlocks);
      if (value !== undefined) values[col.id] = value;
    }
    records[`r${r}`] = { orderIndex: orderKey(r), values };
  }
  const definition: Table['data']['definition'] = {};
  for (const col of columns) definition[col.id] = col.definition;
  const visible = columns.filter((c) => !c.hidden).map((c) => c.id);
  let view: Table['data']['view'];
  if (table['data-view'] === 'cards') {
    const find = (attr: string) => columns.find((c) => c.attrs[attr] !== undefined)?.id;
    view = {
      type: 'cards',
      columns: visible,
      cardSize: table['data-card-size'] === 'large' ? 'large' : 'medium',
    };
    const target = find('data-card-target');
    const cover = find('data-card-cover');
    const coverDark = find('data-card-cover-dark');
    if (target) view.targetDefinition = target;
    if (cover) view.coverDefinition = cover;
    if (coverDark) view.coverDefinitionDark = coverDark;
    if (table['data-column-title-hidden'] !== undefined) view.hideColumnTitle = true;
  } else {
    view = { type: 'grid', columns: visible, hideHeader: table['data-header-hidden'] !== undefined };
    const widths: Record<string, number> = {};
    // Widths on `<th>` (GitBook), else on `<colgroup><col width>` (older and hand-written tables).
    const cols = colWidths(node);
    for (const [i, col] of columns.entries()) {
      const written = col.attrs.width ?? cols[i];
      const width = Number.parseFloat(written ?? '');
      if (Number.isFinite(width) && width > 0 && !/%$/.test(written ?? '')) widths[col.id] = width;
    }
    if (Object.keys(widths).length > 0) view.columnWidths = widths;
  }
  const data: Table['data'] = { view, records, definition };
  if (table['data-full-width'] === 'true') data.fullWidth = true;
  return { object: 'block', type: 'table', isVoid: true, data, fragments };
}

/** The `width` of each `<col>` of the table's `<colgroup>`s, in order. */
function colWidths(table: Element): Array<string | undefined> {
  const widths: Array<string | undefined> = [];
  for (const group of table.children)
    if (group.type === 'element' && group.tagName === 'colgroup')
      for (const col of group.children)
        if (col.type === 'element' && col.tagName === 'col') {
          const attrs = attributesOf(col);
          const span = Math.min(Math.max(Number(attrs.span ?? 1) || 1, 1), 100);
          for (let i = 0; i < span; i++) widths.push(attrs.width);
        }
  return widths;
}

interface Row {
  head: boolean;
  cells: Element[];
}

function rowsOf(table: Element): Row[] {
  const rows: Row[] = [];
  const visit = (node: Element, head: boolean) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'thead') visit(child, true);
      else if (child.tagName === 'tbody' || child.tagName === 'tfoot') visit(child, false);
      else if (child.tagName === 'tr')
        rows.push({
          head: head || child.children.every((c) => c.type !== 'element' || c.tagName === 'th'),
          cells: child.children.filter(
            (c): c is Element => c.type === 'element' && (c.tagName === 'td' || c.tagName === 'th'),
          ),
        });
    }
  };
  visit(table, false);
  return rows;
}

const TYPES = new Set(['number', 'checkbox', 'files', 'content-ref', 'image', 'rating', 'users', 'select']);

function column(th: Element, i: number): Column {
  const attrs = attributesOf(th);
  const id = `c${i}`;
  const title = toText({
    ...th,
    children: th.children.filter((c) => !(c.type === 'element' && c.tagName === 'select')),
  })
    .replace(/\s+/g, ' ')
    .trim();
  const type = attrs['data-type'] && TYPES.has(attrs['data-type']) ? attrs['data-type'] : 'text';
  let definition: ColumnDefinition;
  switch (type) {
    case 'rating':
      definition = { id, title, type: 'rating', max: clamp(Number(attrs['data-max'] ?? 5), 1, 100) };
      break;
    case 'users':
      definition = { id, title, type: 'users', multiple: attrs['data-multiple'] !== undefined };
      break;
    case 'select': {
      const select = th.children.find((c): c is Element => c.type === 'element' && c.tagName === 'select');
      const options = (select?.children ?? [])
        .filter((c): c is Element => c.type === 'element' && c.tagName === 'option')
        .map((option) => {
          const o = attributesOf(option);
          return {
            value: o.value ?? '',
            label: o.label ?? toText(option).trim(),
            color: (o.color ?? 'default').slice(0, 32),
          };
        })
        .slice(0, 200);
      definition = { id, title, type: 'select', multiple: attrs['data-multiple'] !== undefined, options };
      break;
    }
    case 'number':
    case 'checkbox':
    case 'files':
    case 'content-ref':
    case 'image':
      definition = { id, title, type };
      break;
    default: {
      const align = attrs.align === 'center' || attrs.align === 'right' ? attrs.align : 'left';
      definition = { id, title, type: 'text', textAlignment: align };
    }
  }
  return { id, definition, hidden: attrs['data-hidden'] !== undefined, attrs };
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(Math.max(value, min), max) : min;
}

function cellValue(
  col: Column,
  cell: Element | undefined,
  fragmentId: string,
  fragments: TableFragment[],
  ctx: ToDocumentContext,
  cellBlocks: CellBlocks,
): CellValue | undefined {
  const content: ElementContent[] = cell?.children ?? [];
  const plain = cell ? toText(cell).trim() : '';
  switch (col.definition.type) {
    case 'text': {
      const nodes = cellBlocks(content);
      fragments.push({
        object: 'fragment',
        fragment: fragmentId,
        nodes: (nodes.length > 0 ? nodes : [paragraph([text('')])]) as never,
      });
      return fragmentId;
    }
    case 'checkbox':
      return plain === 'true';
    case 'number':
    case 'rating': {
      const value = Number.parseFloat(plain);
      return Number.isFinite(value) ? value : null;
    }
    case 'select':
      return elements(content, (e) => attributesOf(e)['data-option'] !== undefined).map(
        (e) => attributesOf(e)['data-option']!,
      );
    case 'users':
      return [];
    case 'files':
      return targets(content, ctx).flatMap((ref) => (ref.kind === 'file' ? [ref.file] : []));
    case 'image': {
      // `{ref}`: a bare file or URL reference would match two branches of the value's `oneOf`.
      const ref = targets(content, ctx).find((r) => r.kind === 'file' || r.kind === 'url');
      return ref ? ({ ref } as CellValue) : null;
    }
    case 'content-ref': {
      const ref = targets(content, ctx)[0];
      // A URL or file target matches two branches of the value's `oneOf` in both schemas: only
      // the site keeps it.
      if (ref && (ref.kind === 'url' || ref.kind === 'file') && ctx.profile !== 'render') return null;
      return ref ?? null;
    }
  }
}

/** Elements under `nodes` (depth first) that match. */
function elements(nodes: readonly ElementContent[], match: (e: Element) => boolean): Element[] {
  const out: Element[] = [];
  const visit = (list: readonly ElementContent[]) => {
    for (const node of list) {
      if (node.type !== 'element') continue;
      if (match(node)) out.push(node);
      visit(node.children);
    }
  };
  visit(nodes);
  return out;
}

/** Where a cell's links and images point. */
function targets(nodes: readonly ElementContent[], ctx: ToDocumentContext): ContentRef[] {
  return elements(
    nodes,
    (e) =>
      (e.tagName === 'a' && Boolean(attributesOf(e).href)) ||
      (e.tagName === 'img' && Boolean(attributesOf(e).src)),
  ).map((e) => {
    const attrs = attributesOf(e);
    const ref = ctx.links.resolve(attrs.href ?? attrs.src!);
    return ref.kind === 'url' && ref.url.length > 2048 ? { kind: 'url', url: ref.url.slice(0, 2048) } : ref;
  });
}
