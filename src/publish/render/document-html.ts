import type { Block, JsonDocument } from '../../content/document-schema.js';
import type {
  AnyBlock,
  Code,
  Expandable,
  FileBlock,
  Heading,
  Hint,
  Images,
  List,
  Paragraph,
  Table,
  Tabs,
} from '../../content/markdown/document-types.js';
import { renderCode } from './code-html.js';
import { attr, escapeHtml } from './escape.js';
import { type IconName, icon } from './icons.js';
import { nodeText, renderInlines } from './inline-html.js';
import { renderContentRef, renderEmbed, renderFile, renderImages } from './media-html.js';
import type { DocumentLinks } from './model.js';
import { type DocumentHeading, RenderContext } from './render-context.js';
import { renderTable } from './table-html.js';

/**
 * A page body (the rich-text document tree) to HTML. The HTML is built from the tree: every
 * text and attribute is escaped, no raw HTML of the document is ever passed through, and a
 * node the renderer does not know is drawn as its escaped text.
 */

export type { DocumentHeading } from './render-context.js';

export interface RenderedDocument {
  html: string;
  /** Headings in document order, with their unique ids: the on-page table of contents. */
  headings: DocumentHeading[];
}

export function renderDocument(document: JsonDocument, links: DocumentLinks): RenderedDocument {
  const ctx = new RenderContext(links);
  const html = renderBlocks(document?.nodes, ctx, 0);
  return { html, headings: ctx.headings };
}

/** Containers nest; past this depth blocks are drawn as their text (no recursion without end). */
const MAX_DEPTH = 40;

function renderBlocks(nodes: readonly unknown[] | undefined, ctx: RenderContext, depth: number): string {
  let out = '';
  for (const node of nodes ?? []) out += renderBlock(node as AnyBlock, ctx, depth);
  return out;
}

function renderBlock(block: AnyBlock, ctx: RenderContext, depth: number): string {
  if (block?.object !== 'block' || depth > MAX_DEPTH) return unknownBlock(block);
  const inner = (nodes: readonly unknown[] | undefined) => renderBlocks(nodes, ctx, depth + 1);
  switch (block.type) {
    case 'paragraph':
      return renderParagraph(block, ctx);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return renderHeading(block, ctx);
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return renderList(block, inner);
    case 'list-item':
      return `<li>${inner(block.nodes)}</li>`;
    case 'blockquote':
      return `<blockquote>${inner(block.nodes)}</blockquote>`;
    case 'hint':
      return renderHint(block, inner);
    case 'tabs':
      return renderTabs(block, ctx, inner);
    case 'tabs-item':
      return `<div class="tab-panel">${inner(block.nodes)}</div>`;
    case 'code':
      return renderCode(block as Code);
    case 'expandable':
      return renderExpandable(block, ctx, inner);
    case 'images':
      return renderImages(block as Images, ctx);
    case 'image':
      return renderImages({ object: 'block', type: 'images', isVoid: false, data: {}, nodes: [block] }, ctx);
    case 'file':
      return renderFile(block as FileBlock, ctx);
    case 'embed':
      return renderEmbed(block, ctx);
    case 'content-ref':
      return renderContentRef(block, ctx);
    case 'table':
      return renderTable(block as Table, ctx);
    case 'divider':
      return '<hr>';
    case 'math':
      return `<pre class="math-block" tabindex="0"><code class="math">${escapeHtml(String(block.data?.formula ?? ''))}</code></pre>`;
    default:
      return unknownBlock(block);
  }
}

/** A node of a kind not drawn here: its text, escaped, so no content silently disappears. */
function unknownBlock(node: unknown): string {
  const text = nodeText(node).trim();
  return text ? `<p>${escapeHtml(text)}</p>` : '';
}

const ALIGN: Record<string, string> = { center: 'align-center', end: 'align-end' };

function alignClass(data: { align?: unknown } | undefined): string {
  const name = typeof data?.align === 'string' ? ALIGN[data.align] : undefined;
  return name ? ` class="${name}"` : '';
}

function renderParagraph(block: Paragraph, ctx: RenderContext): string {
  const html = renderInlines(block.nodes, ctx);
  if (html === '') return '';
  return `<p${alignClass(block.data)}>${html}</p>`;
}

function renderHeading(block: Heading, ctx: RenderContext): string {
  const level = Number(block.type.slice(-1));
  const title = nodeText({ nodes: block.nodes }).replace(/\s+/g, ' ').trim();
  const id = ctx.headingId(block.data?.id, title);
  ctx.headings.push({ id, title, level });
  // The page title is the one <h1>: document headings start at <h2>.
  const tag = `h${level + 1}`;
  const align = alignClass(block.data).replace(/^ class="(.*)"$/, ' $1');
  return (
    `<${tag} id="${id}" class="heading${align}">` +
    `<span class="heading-text">${renderInlines(block.nodes, ctx)}</span>` +
    `<a class="anchor" href="#${id}"${attr('aria-label', `Link to section: ${title || id}`)}>${icon('link')}</a>` +
    `</${tag}>`
  );
}

function renderList(block: List, inner: (nodes: readonly unknown[] | undefined) => string): string {
  const items = block.nodes ?? [];
  if (block.type === 'list-ordered') {
    const start = block.data?.start;
    const startAttr =
      typeof start === 'number' && Number.isInteger(start) && start !== 1 && Math.abs(start) < 1e9
        ? ` start="${start}"`
        : '';
    return `<ol${startAttr}>${items.map((item) => `<li>${inner(item.nodes)}</li>`).join('')}</ol>`;
  }
  if (block.type === 'list-tasks') {
    const lis = items.map((item) => {
      const checked = item.data?.checked === true;
      return `<li class="task${checked ? ' done' : ''}"><input type="checkbox" disabled${checked ? ' checked' : ''}><div class="task-body">${inner(item.nodes)}</div></li>`;
    });
    return `<ul class="task-list">${lis.join('')}</ul>`;
  }
  return `<ul>${items.map((item) => `<li>${inner(item.nodes)}</li>`).join('')}</ul>`;
}

const HINTS: Record<string, { icon: IconName; label: string }> = {
  info: { icon: 'info', label: 'Info' },
  success: { icon: 'success', label: 'Success' },
  warning: { icon: 'warning', label: 'Warning' },
  danger: { icon: 'danger', label: 'Danger' },
};

function renderHint(block: Hint, inner: (nodes: readonly unknown[] | undefined) => string): string {
  const style = Object.hasOwn(HINTS, block.data?.style) ? block.data.style : 'info';
  const { icon: glyph, label } = HINTS[style]!;
  return (
    `<div class="hint hint-${style}" role="note" aria-label="${label}">` +
    `<span class="hint-icon">${icon(glyph)}</span>` +
    `<div class="hint-body">${inner(block.nodes)}</div></div>`
  );
}

/**
 * Accessible tabs. Without script every panel shows, stacked under its title, and the tab
 * list stays hidden; the client script shows the tab list, hides the other panels and wires
 * arrow keys (role=tablist/tab/tabpanel with aria-selected and aria-controls already set).
 */
function renderTabs(
  block: Tabs,
  ctx: RenderContext,
  inner: (nodes: readonly unknown[] | undefined) => string,
): string {
  const items = block.nodes ?? [];
  if (items.length === 0) return '';
  const group = ctx.elementId('Tabs');
  const tabs: string[] = [];
  const panels: string[] = [];
  for (const [i, item] of items.entries()) {
    const title =
      typeof item.data?.title === 'string' && item.data.title.trim() ? item.data.title : `Tab ${i + 1}`;
    const tabId = `${group}-tab-${i}`;
    const panelId = `${group}-panel-${i}`;
    const selected = i === 0;
    tabs.push(
      `<button type="button" role="tab" id="${tabId}" aria-controls="${panelId}" aria-selected="${selected}" tabindex="${selected ? 0 : -1}">${escapeHtml(title)}</button>`,
    );
    panels.push(
      `<div class="tab-panel" role="tabpanel" id="${panelId}" aria-labelledby="${tabId}" tabindex="0">` +
        `<p class="tab-panel-title">${escapeHtml(title)}</p>${inner(item.nodes)}</div>`,
    );
  }
  return `<div class="tabs" data-tabs><div class="tab-list" role="tablist" hidden>${tabs.join('')}</div>${panels.join('')}</div>`;
}

function renderExpandable(
  block: Expandable,
  ctx: RenderContext,
  inner: (nodes: readonly unknown[] | undefined) => string,
): string {
  const [titleFragment, bodyFragment] = block.fragments ?? [];
  const title = (titleFragment?.nodes ?? []).map((p) => renderInlines(p.nodes, ctx)).join(' ');
  return (
    '<details class="expandable">' +
    `<summary>${icon('chevronRight', 'icon expandable-chevron')}<span class="expandable-title">${title || 'Details'}</span></summary>` +
    `<div class="expandable-body">${inner(bodyFragment?.nodes)}</div></details>`
  );
}

export type { Block };
