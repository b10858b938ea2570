import { escapeHtml } from '../escape.js';
import { icon } from '../icons.js';
import { ask } from '../refs.js';
import type { RenderContext } from '../render-context.js';

/** Pieces shared by API blocks: the method badge, the words for a spec source, the notice card. */

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']);

function text(value: unknown, max = 2048): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

export function methodBadge(method: unknown): string {
  const name = text(method, 16).trim().toLowerCase();
  if (!/^[a-z]+$/.test(name)) return '';
  const kind = METHODS.has(name) ? name : 'other';
  return `<span class="method-badge method-${kind}">${escapeHtml(name.toUpperCase())}</span>`;
}

/** Where a block's specification comes from, as words. */
export function specWords(data: Record<string, unknown>, ctx: RenderContext): string {
  const ref = (data.ref ?? {}) as { kind?: unknown; spec?: unknown; url?: unknown; file?: unknown };
  if (ref.kind === 'openapi' && text(ref.spec)) return `the OpenAPI specification “${text(ref.spec, 200)}”`;
  if (ref.kind === 'url' && text(ref.url)) return `the OpenAPI specification at ${text(ref.url)}`;
  if (ref.kind === 'file' && typeof ref.file === 'string') {
    const id = ref.file;
    const name = ask(() => ctx.links.file(id))?.name;
    return name ? `the OpenAPI specification file “${name}”` : 'an OpenAPI specification file';
  }
  return 'an OpenAPI specification';
}

/** A card standing for a block that cannot be drawn: what it is (title HTML) and why (note text). */
export function apiCard(kind: string, label: string, title: string, note: string): string {
  return (
    `<div class="api-placeholder ${kind}" role="note" aria-label="${label}">` +
    `<div class="api-title">${icon('file', 'icon api-icon')}${title}</div>` +
    `<p class="api-note">${escapeHtml(note)}</p></div>`
  );
}
