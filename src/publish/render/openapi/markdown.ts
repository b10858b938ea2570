import {
  findOperation,
  findWebhook,
  mediaTypesOf,
  type Operation,
  operationTitle,
  requestBodyOf,
  responsesOf,
  schemeWords,
  securityScheme,
} from '../../../openapi/read/operation.js';
import { plainText } from '../../../openapi/read/plain-text.js';
import { entries, field, isObject, items, LIMITS, text } from '../../../openapi/read/read.js';
import {
  hiddenIn,
  type SchemaMode,
  schemaFacts,
  schemaTypes,
  typeText,
  viewSchema,
} from '../../../openapi/read/schema-info.js';
import { namedSchema, readerFor, type SpecReader } from '../../../openapi/read/spec-reader.js';
import { valueText } from './json-text.js';

/**
 * OpenAPI blocks as markdown, for a page's `.md` view (and what reads it: llms.txt, assistants):
 * method and path, summary, description, authorization, parameters as a table, and the request
 * and response bodies briefly (their top-level properties). Pure: the document in, text out.
 */

export interface MarkdownOptions {
  /** Heading level of the operation's title (`##` by default); its sections sit one below. */
  level?: number;
}

export function operationMarkdown(
  document: unknown,
  path: string,
  method: string,
  options: MarkdownOptions = {},
): string | undefined {
  const reader = readerFor(document);
  const op = findOperation(reader, path, method);
  return op ? render(reader, op, options) : undefined;
}

export function webhookMarkdown(
  document: unknown,
  name: string,
  method: string,
  options: MarkdownOptions = {},
): string | undefined {
  const reader = readerFor(document);
  const op = findWebhook(reader, name, method);
  return op ? render(reader, op, options) : undefined;
}

/** Named schemas of `components.schemas`, each a heading, its description and its properties. */
export function schemasMarkdown(
  document: unknown,
  names: readonly string[],
  options: MarkdownOptions = {},
): string | undefined {
  const reader = readerFor(document);
  const level = clampLevel(options.level);
  const parts: string[] = [];
  for (const name of names.slice(0, 100)) {
    const schema = namedSchema(reader, name);
    if (!schema) continue;
    const view = viewSchema(reader, schema, []);
    const description = text(field(view.schema, 'description'), LIMITS.description);
    parts.push(
      [
        `${'#'.repeat(level)} ${oneLine(name)}`,
        `Type: ${code(typeText(reader, view, []))}`,
        description?.trim(),
        propertiesTable(reader, schema, 'schema'),
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
  }
  return parts.length > 0 ? `${parts.join('\n\n')}\n` : undefined;
}

function clampLevel(level: number | undefined): number {
  return typeof level === 'number' && Number.isInteger(level) ? Math.min(5, Math.max(1, level)) : 2;
}

function render(reader: SpecReader, op: Operation, options: MarkdownOptions): string {
  const level = clampLevel(options.level);
  const h = (below: number): string => '#'.repeat(Math.min(6, level + below));
  const out: string[] = [`${h(0)} ${oneLine(operationTitle(op))}`];
  const where = op.webhook ? op.path : `${op.server}${op.path}`;
  out.push(`${code(`${op.method.toUpperCase()} ${where}`)}${op.webhook ? ' (webhook)' : ''}`);
  if (op.operation.deprecated === true) out.push('> **Deprecated**');
  const description = text(op.operation.description, LIMITS.description)?.trim();
  if (description) out.push(description);

  const security = op.security
    .filter((alternative) => alternative.length > 0)
    .map((alternative) =>
      alternative
        .map(({ name, scopes }) => {
          const words = schemeWords(securityScheme(reader, name).scheme);
          const scopeText = scopes.length > 0 ? `, scopes ${scopes.map(code).join(', ')}` : '';
          return `${code(name)} (${words}${scopeText})`;
        })
        .join(' and '),
    );
  if (security.length > 0) out.push(`**Authorization:** ${security.join(' or ')}`);

  for (const [location, title] of [
    ['path', 'Path parameters'],
    ['query', 'Query parameters'],
    ['header', 'Header parameters'],
    ['cookie', 'Cookie parameters'],
  ] as const) {
    const params = op.parameters.filter((p) => p.in === location);
    if (params.length === 0) continue;
    const rows = params.map((param) => {
      const view = viewSchema(reader, param.schema, []);
      const about = [
        text(param.object.description, 2000) ?? text(field(view.schema, 'description'), 2000),
        factsText(view.schema),
      ];
      return row([code(param.name), typeText(reader, view, []), param.required ? 'yes' : 'no', about]);
    });
    out.push(`${h(1)} ${title}`, table(['Name', 'Type', 'Required', 'Description'], rows));
  }

  const body = requestBodyOf(reader, op);
  const [bodyMedia] = mediaTypesOf(body);
  if (body && bodyMedia) {
    const [type, media] = bodyMedia;
    const schema = field(media, 'schema');
    const view = schema === undefined ? undefined : viewSchema(reader, schema, []);
    const parts = [`${h(1)} ${op.webhook ? 'Payload' : 'Request body'}`];
    parts.push(
      `${code(type)}${view ? `: ${code(view.name ?? typeText(reader, view, []))}` : ''}${body.required === true ? ' (required)' : ''}`,
    );
    const about = text(body.description, LIMITS.description)?.trim();
    if (about) parts.push(about);
    if (schema !== undefined) parts.push(propertiesTable(reader, schema, 'request'));
    out.push(...parts.filter(Boolean));
  }

  const responses = responsesOf(reader, op);
  if (responses.length > 0) {
    const rows = responses.map(([status, response]) => {
      const [media] = mediaTypesOf(response);
      const schema = field(media?.[1], 'schema');
      const view = schema === undefined ? undefined : viewSchema(reader, schema, []);
      const bodyText = media
        ? `${code(media[0])}${view ? `: ${code(view.name ?? typeText(reader, view, []))}` : ''}`
        : '';
      return row([code(status), text(response.description, 2000) ?? '', bodyText]);
    });
    out.push(`${h(1)} Responses`, table(['Status', 'Description', 'Body'], rows));
    const success = responses.find(([status]) => status.startsWith('2'));
    const [media] = success ? mediaTypesOf(success[1]) : [];
    const schema = field(media?.[1], 'schema');
    if (success && schema !== undefined) {
      const properties = propertiesTable(reader, schema, 'response');
      if (properties) out.push(`${h(2)} ${success[0]} response`, properties);
    }
  }
  return `${out.join('\n\n')}\n`;
}

/** The top-level properties of a schema (of its items, for an array) as a table; '' when none. */
function propertiesTable(reader: SpecReader, schema: unknown, mode: SchemaMode): string {
  let view = viewSchema(reader, schema, []);
  for (
    let i = 0;
    i < 3 && field(view.schema, 'items') !== undefined && !isObject(field(view.schema, 'properties'));
    i++
  )
    view = viewSchema(reader, field(view.schema, 'items'), [view.key]);
  const required = new Set(items(field(view.schema, 'required'), LIMITS.properties));
  const rows: string[] = [];
  for (const [name, property] of entries(field(view.schema, 'properties'), 100)) {
    const propertyView = viewSchema(reader, property, [view.key]);
    if (hiddenIn(mode, propertyView.schema)) continue;
    const type = typeText(reader, propertyView, [view.key]);
    const named = propertyView.name && type === 'object' ? `${type} (${propertyView.name})` : type;
    const shown = schemaTypes(propertyView.schema).nullable ? `${named}, nullable` : named;
    rows.push(
      row([
        code(name),
        shown,
        required.has(name) ? 'yes' : 'no',
        [text(field(propertyView.schema, 'description'), 2000), factsText(propertyView.schema)],
      ]),
    );
  }
  return rows.length > 0 ? table(['Name', 'Type', 'Required', 'Description'], rows) : '';
}

function factsText(schema: Parameters<typeof schemaFacts>[0]): string {
  return schemaFacts(schema)
    .filter((fact) => fact.label !== 'Example')
    .map((fact) => {
      const values = (fact.values ?? []).slice(0, 20).map((v) => code(valueText(v, 100)));
      return `${fact.label}: ${[...values, fact.words ?? ''].filter(Boolean).join(', ')}.`;
    })
    .join(' ');
}

function table(head: string[], rows: string[]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows].join('\n');
}

/** A table row; a cell given as parts joins the parts that are there. */
function row(cells: Array<string | Array<string | undefined>>): string {
  return `| ${cells.map((cell) => cellText(Array.isArray(cell) ? sentences(cell) : cell)).join(' | ')} |`;
}

/** Parts of a cell as sentences: a description without a full stop gets one before the facts. */
function sentences(parts: Array<string | undefined>): string {
  return parts
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part))
    .map((part, i, all) => (i < all.length - 1 && !/[.!?:]$/.test(part) ? `${part}.` : part))
    .join(' ');
}

function cellText(value: string): string {
  const flat = plainCell(value);
  return flat.length > 500 ? `${flat.slice(0, 500)}…` : flat;
}

/** A table cell is one line, and a `|` in it would end it. */
function plainCell(value: string): string {
  return value
    .replace(/\r?\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

function oneLine(value: string): string {
  return plainText(value, 500).replace(/\s+/g, ' ').trim();
}

/** Inline code, fenced with enough backticks for what it holds. */
function code(value: string): string {
  const flat = value.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
