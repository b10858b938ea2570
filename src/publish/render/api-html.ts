import { escapeHtml } from './escape.js';
import { icon } from './icons.js';
import { ask } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * Blocks whose content lives elsewhere and that Quire cannot draw yet: OpenAPI operations,
 * schemas and webhooks, legacy `swagger` blocks, integration blocks. Each is a card that says
 * what it would show and where it comes from; nothing is fetched.
 */

interface ApiBlock {
  type: string;
  data?: Record<string, unknown>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace']);

function text(value: unknown, max = 2048): string {
  return typeof value === 'string' ? value.slice(0, max) : '';
}

function methodBadge(method: unknown): string {
  const name = text(method, 16).trim().toLowerCase();
  if (!/^[a-z]+$/.test(name)) return '';
  const kind = METHODS.has(name) ? name : 'other';
  return `<span class="method-badge method-${kind}">${escapeHtml(name.toUpperCase())}</span>`;
}

/** Where the block's specification comes from, as words. */
function source(data: Record<string, unknown>, ctx: RenderContext): string {
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

function card(kind: string, label: string, title: string, note: string): string {
  return (
    `<div class="api-placeholder ${kind}" role="note" aria-label="${label}">` +
    `<div class="api-title">${icon('file', 'icon api-icon')}${title}</div>` +
    `<p class="api-note">${escapeHtml(note)}</p></div>`
  );
}

export function renderApiPlaceholder(block: ApiBlock, ctx: RenderContext): string {
  const data = block.data ?? {};
  const from = source(data, ctx);
  const unavailable = `From ${from}, not available on this site yet.`;
  switch (block.type) {
    case 'openapi-operation':
    case 'swagger': {
      const path = text(data.path);
      const title = `${methodBadge(data.method)}<code class="api-path">${escapeHtml(path || '(operation)')}</code>`;
      return card('api-operation', 'API operation', title, unavailable);
    }
    case 'openapi-webhook': {
      const name = text(data.name, 256);
      const title = `${methodBadge(data.method)}<span class="api-kind">Webhook</span><code class="api-path">${escapeHtml(name || '(webhook)')}</code>`;
      return card('api-webhook', 'API webhook', title, unavailable);
    }
    case 'openapi-schemas': {
      const names = (Array.isArray(data.schemas) ? data.schemas : [])
        .filter((name): name is string => typeof name === 'string' && name !== '')
        .slice(0, 100);
      const custom = text(data.title, 256);
      const title = custom
        ? `<span class="api-kind">${escapeHtml(custom)}</span>`
        : `<span class="api-kind">${names.length === 1 ? 'Schema' : 'Schemas'}</span>` +
          names.map((name) => `<code class="api-path">${escapeHtml(name.slice(0, 256))}</code>`).join(' ');
      return card('api-schemas', 'API schemas', title, unavailable);
    }
    default: {
      const name = text(data.integration, 100);
      const title = `<span class="api-kind">${escapeHtml(name ? `Integration “${name}”` : 'Integration')}</span>`;
      return card('integration', 'Integration', title, 'This integration is not available on this site.');
    }
  }
}
