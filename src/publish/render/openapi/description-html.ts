import type { JsonDocument } from '../../../content/document-schema.js';
import { markdownToDocument } from '../../../content/markdown/index.js';
import { LIMITS, text } from '../../../openapi/read/read.js';
import { escapeHtml } from '../escape.js';
import type { BlockState } from './block-state.js';

/**
 * Descriptions in a spec are CommonMark. They go through the same path as page markdown (the
 * converter to document nodes, then the escaping renderer), never as HTML: raw HTML in them
 * comes out as text. Blocks that would draw other content (OpenAPI blocks, reusable contents,
 * integrations, conditions) are dropped, so a description cannot pull in another spec or
 * itself. Text with no markdown in it, and text past the block's budget, is drawn as escaped
 * paragraphs.
 */

/** Block types a description may hold; anything else the converter makes is left out. */
const ALLOWED = new Set([
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'list-item',
  'blockquote',
  'hint',
  'code',
  'code-line',
  'divider',
  'math',
  'images',
  'image',
  'table',
  'expandable',
  'tabs',
  'tabs-item',
  'raw',
]);

/** Characters and line starts that make markdown; text without any is drawn as is. */
const MARKDOWN = /[*_`[\]<>&#|~\\!]|:\/\/|^ {0,3}(?:[-+=]|\d{1,9}[.)])(?:\s|$)|^ {4}|^\s*>/m;

/** Converted descriptions by text: the same ones recur across operations of a spec. */
const cache = new Map<string, unknown[]>();
const MAX_CACHED = 1000;

export function descriptionHtml(value: unknown, state: BlockState, className = 'oa-description'): string {
  const source = text(value, LIMITS.description)?.trim();
  if (!source || state.chars <= 0) return '';
  state.chars -= source.length;
  let html = '';
  if (MARKDOWN.test(source) && state.markdown > 0) {
    state.markdown -= 1;
    html = state.ctx.renderCellBlocks(markdownNodes(source));
  }
  return `<div class="${className}">${html || plainHtml(source)}</div>`;
}

/** Escaped paragraphs: blank lines part them, single line ends stay line ends. */
function plainHtml(source: string): string {
  return source
    .split(/\r?\n[ \t]*\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => `<p>${escapeHtml(part).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

function markdownNodes(source: string): unknown[] {
  const cached = cache.get(source);
  if (cached) return cached;
  let nodes: unknown[];
  try {
    const document: JsonDocument = markdownToDocument(source, { profile: 'render' });
    nodes = keepAllowed(document.nodes);
  } catch {
    nodes = [];
  }
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(source, nodes);
  return nodes;
}

function keepAllowed(nodes: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    const n = node as { object?: unknown; type?: unknown; nodes?: unknown; fragments?: unknown };
    if (n?.object === 'block' && !ALLOWED.has(String(n.type))) continue;
    if (n === null || typeof n !== 'object') continue;
    const copy: Record<string, unknown> = { ...n };
    if (Array.isArray(n.nodes)) copy.nodes = keepAllowed(n.nodes);
    if (Array.isArray(n.fragments)) copy.fragments = keepAllowed(n.fragments);
    out.push(copy);
  }
  return out;
}
