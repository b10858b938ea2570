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
import { headingId } from '../../content/slugs.js';
import { renderApiBlock } from './api-html.js';
import { renderCode } from './code-html.js';
import { attr, escapeHtml } from './escape.js';
import { faIcon } from './fa-icons.js';
import { type IconName, icon } from './icons.js';
import { nodeText, renderInlines } from './inline-html.js';
import { type Inner, renderColumns, renderStepper, renderUpdates } from './layout-blocks-html.js';
import { renderContentRef, renderDrawing, renderEmbed, renderFile, renderImages } from './media-html.js';
import type { DocumentLinks } from './model.js';
import { renderPrompt } from './prompt-html.js';
import { ask } from './refs.js';
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

export function renderDocument(
  document: JsonDocument,
  links: DocumentLinks,
  options: { idPrefix?: string } = {},
): RenderedDocument {
  const ctx = new RenderContext(links, (nodes, c) => renderBlocks(nodes, c, c.depth + 1), options.idPrefix);
  const html = renderBlocks(document?.nodes, ctx, 0);
  return { html, headings: ctx.headings };
}

/** Containers nest; past this depth blocks are drawn as their text (no recursion without end). */
const MAX_DEPTH = 40;
/** Reusable contents one page may draw (each may include others: no blow-up by repetition). */
const MAX_REUSABLE = 100;

function renderBlocks(nodes: readonly unknown[] | undefined, ctx: RenderContext, depth: number): string {
  let out = '';
  const outer = ctx.depth;
  for (const node of Array.isArray(nodes) ? nodes : []) {
    ctx.depth = depth;
    out += renderBlock(node as AnyBlock, ctx, depth);
  }
  ctx.depth = outer;
  return out;
}

function renderBlock(block: AnyBlock, ctx: RenderContext, depth: number): string {
  if (block?.object !== 'block' || depth > MAX_DEPTH) return unknownBlock(block, ctx);
  const inner: Inner = (nodes) => renderBlocks(nodes, ctx, depth + 1);
  // Quire's own node for markdown it could not read (not part of the GitBook schema).
  if ((block as { type?: unknown }).type === 'raw') return renderRaw(block);
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
    case 'stepper-step':
    case 'update':
    case 'column':
      // Items met outside their container: their content, in order.
      return inner(block.nodes);
    case 'code':
      return renderCode(block as Code, ctx);
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
    case 'stepper':
      return renderStepper(block, inner);
    case 'updates':
      return renderUpdates(block, ctx, inner);
    case 'columns':
      return renderColumns(block, inner);
    case 'if':
      return renderIf(block, ctx, inner);
    case 'prompt':
      return renderPrompt(block, ctx);
    case 'reusable-content':
      return renderReusable(block, ctx, depth);
    case 'openapi-operation':
    case 'openapi-schemas':
    case 'openapi-webhook':
    case 'swagger':
    case 'integration':
      return renderApiBlock(block as { type: string; data?: Record<string, unknown> }, ctx);
    default:
      if ((block as { type?: unknown }).type === 'drawing')
        return renderDrawing(block as { data?: { ref?: unknown } }, ctx);
      return unknownBlock(block, ctx);
  }
}

/**
 * A node of a kind not drawn here: its text, escaped, so no content silently disappears (but
 * for the content of `if` blocks, which `nodeText` leaves out: its condition is not known).
 */
function unknownBlock(node: unknown, ctx: RenderContext): string {
  const text = nodeText(node, ctx).trim();
  return text ? `<p>${escapeHtml(text)}</p>` : '';
}

/** Text Quire could not read as markdown: escaped paragraphs, split at blank lines. */
function renderRaw(block: unknown): string {
  const text = (block as { data?: { text?: unknown } }).data?.text;
  if (typeof text !== 'string') return '';
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p class="raw-text">${escapeHtml(part)}</p>`)
    .join('');
}

/**
 * Adaptive content: drawn only when the site says the condition holds for this visitor. A
 * missing hook, `false`, an error or anything but `true` leaves nothing in the page, not even
 * a heading in the table of contents.
 */
function renderIf(block: Extract<Block, { type: 'if' }>, ctx: RenderContext, inner: Inner): string {
  const expression = block.data?.expression;
  if (typeof expression !== 'string') return '';
  const visible = ask(() => ctx.links.visible?.(expression));
  return visible === true ? inner(block.nodes) : '';
}

/** Reusable content, drawn in place; one that includes itself (directly or not) is cut. */
function renderReusable(
  block: Extract<Block, { type: 'reusable-content' }>,
  ctx: RenderContext,
  depth: number,
): string {
  const id = block.data?.ref?.reusableContent;
  if (typeof id !== 'string' || ctx.reusableStack.includes(id) || ctx.reusableCount >= MAX_REUSABLE)
    return '';
  const document = ask(() => ctx.links.reusable?.(id));
  if (!document || !Array.isArray(document.nodes)) return '';
  ctx.reusableCount += 1;
  ctx.reusableStack.push(id);
  try {
    return renderBlocks(document.nodes, ctx, depth + 1);
  } finally {
    ctx.reusableStack.pop();
  }
}

const ALIGN: Record<string, string> = { center: 'align-center', end: 'align-end' };

function alignClass(data: { align?: unknown } | undefined): string {
  const name =
    typeof data?.align === 'string' && Object.hasOwn(ALIGN, data.align) ? ALIGN[data.align] : undefined;
  return name ? ` class="${name}"` : '';
}

function renderParagraph(block: Paragraph, ctx: RenderContext): string {
  const html = renderInlines(block.nodes, ctx);
  if (html === '') return '';
  return `<p${alignClass(block.data)}>${html}</p>`;
}

function renderHeading(block: Heading, ctx: RenderContext): string {
  const level = Number(block.type.slice(-1));
  const title = nodeText({ nodes: block.nodes }, ctx).replace(/\s+/g, ' ').trim();
  const id = ctx.headingId(block.data?.id, title);
  ctx.outline({ id, title, level });
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

function renderList(block: List, inner: Inner): string {
  const items = (Array.isArray(block.nodes) ? block.nodes : []).filter(
    (item) => item !== null && typeof item === 'object',
  );
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

function renderHint(block: Hint, inner: Inner): string {
  const style =
    typeof block.data?.style === 'string' && Object.hasOwn(HINTS, block.data.style)
      ? block.data.style
      : 'info';
  const { icon: glyph, label } = HINTS[style]!;
  const custom = typeof block.data?.icon === 'string' && block.data.icon ? faIcon(block.data.icon) : '';
  return (
    `<div class="hint hint-${style}" role="note" aria-label="${label}">` +
    `<span class="hint-icon">${custom || icon(glyph)}</span>` +
    `<div class="hint-body">${inner(block.nodes)}</div></div>`
  );
}

/**
 * Accessible tabs. Without script every panel shows, stacked under its title, and the tab
 * list stays hidden; the client script shows the tab list, hides the other panels and wires
 * arrow keys (role=tablist/tab/tabpanel with aria-selected and aria-controls already set).
 */
function renderTabs(block: Tabs, ctx: RenderContext, inner: Inner): string {
  const items = Array.isArray(block.nodes) ? block.nodes : [];
  if (items.length === 0) return '';
  const group = ctx.elementId('Tabs');
  const tabs: string[] = [];
  const panels: string[] = [];
  for (const [i, item] of items.entries()) {
    const data = (item?.data ?? {}) as { title?: unknown; icon?: unknown; slug?: unknown };
    const title = typeof data.title === 'string' && data.title.trim() ? data.title : `Tab ${i + 1}`;
    const tabId = `${group}-tab-${i}`;
    const panelId = `${group}-panel-${i}`;
    const selected = i === 0;
    const glyph = typeof data.icon === 'string' && data.icon ? faIcon(data.icon, 'tab-icon') : '';
    // Buttons with a `select` action choose the tabs of a slug (the title's, unless it has one).
    const slug = headingId(typeof data.slug === 'string' && headingId(data.slug) ? data.slug : title);
    tabs.push(
      `<button type="button" role="tab" id="${tabId}" aria-controls="${panelId}" aria-selected="${selected}" tabindex="${selected ? 0 : -1}"${attr('data-slug', slug || undefined)}>${glyph}${escapeHtml(title)}</button>`,
    );
    panels.push(
      `<div class="tab-panel" role="tabpanel" id="${panelId}" aria-labelledby="${tabId}" tabindex="0">` +
        `<p class="tab-panel-title">${glyph}${escapeHtml(title)}</p>${inner(item?.nodes)}</div>`,
    );
  }
  return `<div class="tabs" data-tabs><div class="tab-list" role="tablist" hidden>${tabs.join('')}</div>${panels.join('')}</div>`;
}

function renderExpandable(block: Expandable, ctx: RenderContext, inner: Inner): string {
  const fragments = Array.isArray(block.fragments) ? block.fragments : [];
  const titleFragment =
    fragments.find((f) => f?.fragment === 'expandable-title') ??
    (fragments.length === 2 ? fragments[0] : undefined);
  const bodyFragment =
    fragments.find((f) => f?.fragment === 'expandable-body') ??
    (fragments.length === 2 ? fragments[1] : undefined);
  const paragraphs = Array.isArray(titleFragment?.nodes) ? titleFragment.nodes : [];
  const title = paragraphs.map((p) => renderInlines((p as { nodes?: unknown[] })?.nodes, ctx)).join(' ');
  const open = (block.data as { defaultExpanded?: unknown } | undefined)?.defaultExpanded === true;
  return (
    `<details class="expandable"${open ? ' open' : ''}>` +
    `<summary>${icon('chevronRight', 'icon expandable-chevron')}<span class="expandable-title">${title || 'Details'}</span></summary>` +
    `<div class="expandable-body">${inner(bodyFragment?.nodes)}</div></details>`
  );
}

export type { Block };
