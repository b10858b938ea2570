import { findOperation, findWebhook } from '../../../openapi/read/operation.js';
import { isObject, items, LIMITS } from '../../../openapi/read/read.js';
import { readerFor } from '../../../openapi/read/spec-reader.js';
import { escapeHtml } from '../escape.js';
import { ask } from '../refs.js';
import type { RenderContext } from '../render-context.js';
import { blockState } from './block-state.js';
import { apiCard, methodBadge, specWords } from './card-html.js';
import { operationHtml } from './operation-html.js';
import { blockLevel } from './outline.js';
import { schemasHtml } from './schemas-html.js';

/**
 * The OpenAPI blocks of a page (`openapi-operation`, `openapi-webhook`, `openapi-schemas`,
 * legacy `swagger`) drawn from the document the site's `openapi` hook gives. A spec the site
 * does not have, an operation the spec does not hold, or a document that breaks the renderer
 * all end in a notice card: a page is never lost to its API reference.
 */

export type SpecSource =
  | { kind: 'openapi'; spec: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string };

export function specSource(ref: unknown): SpecSource | undefined {
  if (!isObject(ref)) return undefined;
  if (ref.kind === 'openapi' && typeof ref.spec === 'string' && ref.spec)
    return { kind: 'openapi', spec: ref.spec };
  if (ref.kind === 'file' && typeof ref.file === 'string' && ref.file)
    return { kind: 'file', file: ref.file };
  if (ref.kind === 'url' && typeof ref.url === 'string' && ref.url) return { kind: 'url', url: ref.url };
  return undefined;
}

interface Block {
  type: string;
  data?: Record<string, unknown>;
}

export function renderOpenApiBlock(block: Block, ctx: RenderContext): string {
  const data: Record<string, unknown> = isObject(block.data) ? { ...block.data } : {};
  const from = specWords(data, ctx);
  const notice = (note: string): string => noticeCard(block.type, data, note);
  const source = specSource(data.ref);
  const document = source ? ask(() => ctx.links.openapi?.(source)) : undefined;
  if (!isObject(document)) return notice(`${capitalize(from)} is not available.`);

  const outlined = ctx.headings.length;
  try {
    const state = blockState(readerFor(document), ctx, blockLevel(ctx));
    switch (block.type) {
      case 'openapi-webhook': {
        const op = findWebhook(state.reader, data.name, data.method);
        if (!op) return notice(`The webhook ${words(data.method, data.name)} is not in ${from}.`);
        return operationHtml(op, state);
      }
      case 'openapi-schemas': {
        const names = schemaNames(data.schemas);
        if (names.length === 0) return notice(`No schema of ${from} is named here.`);
        const title =
          typeof data.title === 'string' && data.title.trim() ? data.title.slice(0, 256) : undefined;
        return schemasHtml(
          names,
          data.grouped !== false,
          title,
          state,
          (name) =>
            `<p class="oa-missing">The schema “${escapeHtml(name)}” is not in ${escapeHtml(from)}.</p>`,
        );
      }
      default: {
        const op = findOperation(state.reader, data.path, data.method);
        if (!op) return notice(`The operation ${words(data.method, data.path)} is not in ${from}.`);
        return operationHtml(op, state, { fullWidth: data.fullWidth === true });
      }
    }
  } catch {
    // A document shaped in a way the renderer did not foresee: a notice, not a failed page.
    ctx.headings.length = outlined;
    return notice(`Error while loading this API reference from ${from}.`);
  }
}

function schemaNames(value: unknown): string[] {
  return items(value, 100)
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .map((name) => name.slice(0, LIMITS.name));
}

function words(method: unknown, name: unknown): string {
  const m = typeof method === 'string' ? method.slice(0, 16).toUpperCase() : '';
  const n = typeof name === 'string' ? name.slice(0, 2048) : '';
  return [m, n].filter(Boolean).join(' ') || '(unnamed)';
}

function capitalize(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** The notice: the block's title as the placeholder drew it, and what went wrong. */
function noticeCard(type: string, data: Record<string, unknown>, note: string): string {
  const str = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '');
  switch (type) {
    case 'openapi-webhook': {
      const name = str(data.name, 256);
      const title = `${methodBadge(data.method)}<span class="api-kind">Webhook</span><code class="api-path">${escapeHtml(name || '(webhook)')}</code>`;
      return apiCard('api-webhook', 'API webhook', title, note);
    }
    case 'openapi-schemas': {
      const names = schemaNames(data.schemas);
      const custom = str(data.title, 256);
      const title = custom
        ? `<span class="api-kind">${escapeHtml(custom)}</span>`
        : `<span class="api-kind">${names.length === 1 ? 'Schema' : 'Schemas'}</span>` +
          names.map((name) => `<code class="api-path">${escapeHtml(name)}</code>`).join(' ');
      return apiCard('api-schemas', 'API schemas', title, note);
    }
    default: {
      const path = str(data.path, 2048);
      const title = `${methodBadge(data.method)}<code class="api-path">${escapeHtml(path || '(operation)')}</code>`;
      return apiCard('api-operation', 'API operation', title, note);
    }
  }
}
