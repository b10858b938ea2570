import { findOperation, findWebhook, type Operation, operationTitle } from './operation.js';
import { plainText } from './plain-text.js';
import { entries, field, LIMITS, text } from './read.js';
import { viewSchema } from './schema-info.js';
import { namedSchema, readerFor } from './spec-reader.js';

/**
 * What the site's search index keeps of OpenAPI blocks: a title and the words a reader would
 * search for (summary, description, method and path, operation id, parameter names). Pure.
 */

export interface SearchText {
  title: string;
  text: string;
}

const MAX_TEXT = 20_000;

export function operationSearchText(document: unknown, path: string, method: string): SearchText | undefined {
  const op = findOperation(readerFor(document), path, method);
  return op ? searchText(op) : undefined;
}

export function webhookSearchText(document: unknown, name: string, method: string): SearchText | undefined {
  const op = findWebhook(readerFor(document), name, method);
  return op ? searchText(op) : undefined;
}

/** Named schemas: their names, descriptions and property names. */
export function schemasSearchText(document: unknown, names: readonly string[]): SearchText | undefined {
  const reader = readerFor(document);
  const found: string[] = [];
  const lines: string[] = [];
  for (const name of names.slice(0, 100)) {
    const schema = namedSchema(reader, name);
    if (!schema) continue;
    found.push(name);
    const view = viewSchema(reader, schema, []);
    const description = text(field(view.schema, 'description'), LIMITS.description);
    const properties = entries(field(view.schema, 'properties'), LIMITS.properties).map(([key]) => key);
    lines.push(name, description ? plainText(description) : '', properties.join(' '));
  }
  if (found.length === 0) return undefined;
  return { title: found.join(', '), text: bounded(lines) };
}

function searchText(op: Operation): SearchText {
  const title = operationTitle(op);
  const description = text(op.operation.description, LIMITS.description);
  const lines = [
    text(op.operation.summary, LIMITS.summary) ?? '',
    description ? plainText(description) : '',
    `${op.method.toUpperCase()} ${op.path}`,
    text(op.operation.operationId, LIMITS.name) ?? '',
    op.parameters.map((param) => param.name).join(' '),
  ];
  return { title, text: bounded(lines) };
}

function bounded(lines: string[]): string {
  const joined = lines.filter(Boolean).join('\n');
  return joined.length > MAX_TEXT ? joined.slice(0, MAX_TEXT) : joined;
}
