import { escapeHtml } from './escape.js';
import { renderOpenApiBlock } from './openapi/block-html.js';
import { apiCard } from './openapi/card-html.js';
import type { RenderContext } from './render-context.js';

/**
 * Blocks whose content lives elsewhere: OpenAPI operations, schemas and webhooks and legacy
 * `swagger` blocks are drawn from their specification (openapi/); integration blocks, which
 * Quire cannot run, are a card that says what they are. Nothing is fetched here.
 */

export interface ApiBlock {
  type: string;
  data?: Record<string, unknown>;
}

export function renderApiBlock(block: ApiBlock, ctx: RenderContext): string {
  if (block.type === 'integration') return renderIntegration(block);
  return renderOpenApiBlock(block, ctx);
}

function renderIntegration(block: ApiBlock): string {
  const value = block.data?.integration;
  const name = typeof value === 'string' ? value.slice(0, 100) : '';
  const title = `<span class="api-kind">${escapeHtml(name ? `Integration “${name}”` : 'Integration')}</span>`;
  return apiCard('integration', 'Integration', title, 'This integration is not available on this site.');
}
