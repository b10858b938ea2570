import type { Block, JsonDocument } from '../../../src/content/document-schema.js';
import { type RenderedDocument, renderDocument } from '../../../src/publish/render/document-html.js';
import type { DocumentLinks } from '../../../src/publish/render/model.js';
import { links } from './sample-site.js';

/** Helpers of the OpenAPI renderer tests: blocks as the markdown importer makes them, drawn with a spec hook. */

export type Specs = Record<string, unknown>;

export function withSpecs(specs: Specs, base: DocumentLinks = links): DocumentLinks {
  return {
    ...base,
    openapi: (source) => {
      if (source.kind === 'openapi') return specs[source.spec];
      if (source.kind === 'file') return specs[`file:${source.file}`];
      return specs[`url:${source.url}`];
    },
  };
}

export function draw(nodes: unknown[], specs: Specs, base?: DocumentLinks): RenderedDocument {
  const document: JsonDocument = { object: 'document', data: {}, nodes: nodes as Block[] };
  return renderDocument(document, withSpecs(specs, base));
}

export function operation(spec: string, path: string, method: string): unknown {
  return {
    object: 'block',
    type: 'openapi-operation',
    isVoid: true,
    data: { ref: { kind: 'openapi', spec }, path, method },
  };
}

export function webhook(spec: string, name: string, method: string): unknown {
  return {
    object: 'block',
    type: 'openapi-webhook',
    isVoid: true,
    data: { ref: { kind: 'openapi', spec }, name, method },
  };
}

export function schemas(spec: string, names: string[], extra: Record<string, unknown> = {}): unknown {
  return {
    object: 'block',
    type: 'openapi-schemas',
    isVoid: true,
    data: { ref: { kind: 'openapi', spec }, schemas: names, ...extra },
  };
}

/** The visible text of some HTML: tags dropped (as spaces), entities decoded, spaces collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of code as a reader copies it: tags dropped without a trace (highlighting splits tokens). */
export function codeText(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ''));
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
