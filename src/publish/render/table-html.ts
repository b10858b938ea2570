import type { Table } from '../../content/markdown/document-types.js';
import { escapeHtml } from './escape.js';
import { renderInlines } from './inline-html.js';
import type { RenderContext } from './render-context.js';

/**
 * The table block: a grid view whose columns are `definition` entries and whose rows are
 * `records` in `orderIndex` order; each cell is a fragment of paragraphs. The table scrolls
 * sideways inside a focusable region, so keyboard users can scroll it too.
 */

const ALIGN = new Set(['center', 'right']);

export function renderTable(block: Table, ctx: RenderContext): string {
  const data = block.data;
  const definition = data?.definition ?? {};
  const columns = (data?.view?.columns ?? []).filter((id) => Object.hasOwn(definition, id));
  const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f.nodes ?? []]));
  const alignClass = (id: string) => {
    const align = definition[id]?.textAlignment;
    return align && ALIGN.has(align) ? ` class="align-${align}"` : '';
  };

  const head = columns
    .map((id) => `<th scope="col"${alignClass(id)}>${escapeHtml(String(definition[id]?.title ?? ''))}</th>`)
    .join('');
  const records = Object.values(data?.records ?? {}).sort((a, b) =>
    a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0,
  );
  const rows = records
    .map((record) => {
      const cells = columns.map((id) => {
        const fragmentId = record.values?.[id];
        const paragraphs = fragmentId === undefined ? [] : (fragments.get(fragmentId) ?? []);
        const content = paragraphs.map((p) => renderInlines(p.nodes, ctx)).join('<br>');
        return `<td${alignClass(id)}>${content}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  const thead = columns.length > 0 ? `<thead><tr>${head}</tr></thead>` : '';
  return `<div class="table-wrap" role="region" aria-label="Table" tabindex="0"><table>${thead}<tbody>${rows}</tbody></table></div>`;
}
