import { entries, field, isObject, items, type JsonObject, LIMITS, text } from './read.js';
import type { SpecReader } from './spec-reader.js';

/**
 * What a schema says, read once for drawing: references followed, `allOf` merged into one
 * object (the way readers think of it), the type as words, the constraints as facts.
 */

export interface SchemaView {
  /** The schema with references followed and `allOf` merged; `{}` when there is nothing to read. */
  schema: JsonObject;
  /** The name of the schema it refers to, when it came through a reference. */
  name?: string | undefined;
  /** Identity on the path being drawn (see `Resolved.key`). */
  key: unknown;
  /** It refers to a schema already being drawn above it: cut, named. */
  circular?: string | undefined;
  /** Its reference does not resolve: shown as the reference's name. */
  broken?: string | undefined;
}

/** The schemas being drawn from the root down to here, by `key`: a schema met again is a cycle. */
export type SchemaPath = unknown[];

const EMPTY: JsonObject = Object.freeze({});

export function viewSchema(reader: SpecReader, schema: unknown, path: SchemaPath): SchemaView {
  const resolved = reader.resolve(schema);
  if (resolved.broken !== undefined) return { schema: EMPTY, key: resolved.key, broken: resolved.name };
  // 3.1 allows `true` (anything) and `false` (nothing) as schemas.
  if (!isObject(resolved.value)) return { schema: EMPTY, key: resolved.key, name: resolved.name };
  if (path.includes(resolved.key))
    return { schema: EMPTY, key: resolved.key, circular: resolved.name ?? schemaTitle(resolved.value) };
  const merged = mergeAllOf(reader, resolved.value, [...path, resolved.key], 0);
  return { schema: merged.schema, key: resolved.key, name: resolved.name ?? merged.name };
}

function schemaTitle(schema: JsonObject): string {
  return text(field(schema, 'title'), LIMITS.name) ?? 'schema';
}

/** Branch schemas merged into one; nested `allOf` within branches merged up to this depth. */
const MAX_ALLOF_DEPTH = 6;
const MAX_BRANCHES = 32;

/** Keys whose values combine across `allOf` branches instead of the first one winning. */
function mergeAllOf(
  reader: SpecReader,
  schema: JsonObject,
  path: SchemaPath,
  depth: number,
): { schema: JsonObject; name?: string | undefined } {
  const branches = items(field(schema, 'allOf'), MAX_BRANCHES);
  if (branches.length === 0) return { schema };
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries(schema, 200)) if (key !== 'allOf') out[key] = value;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  addProperties(properties, required, schema);
  const names: string[] = [];
  for (const branch of branches) {
    const resolved = reader.resolve(branch);
    if (!isObject(resolved.value) || path.includes(resolved.key)) continue;
    if (resolved.name) names.push(resolved.name);
    const merged =
      depth < MAX_ALLOF_DEPTH
        ? mergeAllOf(reader, resolved.value, [...path, resolved.key], depth + 1).schema
        : resolved.value;
    addProperties(properties, required, merged);
    for (const [key, value] of entries(merged, 200)) {
      if (key === 'properties' || key === 'required' || key === 'allOf') continue;
      if (!Object.hasOwn(out, key)) out[key] = value;
    }
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.size > 0) out.required = [...required];
  // `allOf: [{$ref: Pet}]` plus a description is how 3.0 writes "a Pet, described here".
  const onlyRef = branches.length === 1 && names.length === 1 ? names[0] : undefined;
  return { schema: out, name: onlyRef };
}

function addProperties(properties: Record<string, unknown>, required: Set<string>, schema: JsonObject): void {
  for (const [name, value] of entries(field(schema, 'properties'), LIMITS.properties)) {
    if (!Object.hasOwn(properties, name)) properties[name] = value;
  }
  for (const name of items(field(schema, 'required'), LIMITS.properties))
    if (typeof name === 'string') required.add(name);
}

/** The schema's types, `null` apart: 3.1 writes `type: [string, "null"]`, 3.0 `nullable: true`. */
export function schemaTypes(schema: JsonObject): { types: string[]; nullable: boolean } {
  const raw = field(schema, 'type');
  const list = typeof raw === 'string' ? [raw] : items(raw, 8).filter((t) => typeof t === 'string');
  const types = (list as string[]).filter((t) => t !== 'null').map((t) => t.slice(0, 32));
  const nullable = list.includes('null') || field(schema, 'nullable') === true;
  if (types.length > 0) return { types, nullable };
  // Schemas often leave `type` out; what they hold tells it.
  if (isObject(field(schema, 'properties')) || isObject(field(schema, 'additionalProperties')))
    return { types: ['object'], nullable };
  if (field(schema, 'items') !== undefined) return { types: ['array'], nullable };
  const example = field(schema, 'const') ?? items(field(schema, 'enum'), 1)[0];
  if (example === null) return { types: [], nullable: true };
  if (example !== undefined) return { types: [jsonType(example)], nullable };
  return { types: [], nullable };
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value === 'number' ? 'number' : typeof value === 'object' ? 'object' : typeof value;
}

/** `oneOf` or `anyOf` branches and which of the two, when the schema has them. */
export function variantsOf(schema: JsonObject): { kind: 'oneOf' | 'anyOf'; branches: unknown[] } | undefined {
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const branches = items(field(schema, kind), 50);
    if (branches.length > 0) return { kind, branches };
  }
  return undefined;
}

/**
 * The type as words: `string · date-time`, `Pet[]`, `integer | string`, `Cat | Dog`. Names of
 * referenced objects stand for `object`; `depth` bounds arrays of arrays and variants of variants.
 */
export function typeText(reader: SpecReader, view: SchemaView, path: SchemaPath, depth = 0): string {
  if (view.circular !== undefined) return view.circular;
  if (view.broken !== undefined) return view.broken;
  const { schema } = view;
  const { types } = schemaTypes(schema);
  const format = text(field(schema, 'format'), 64);
  if (types.length === 1 && types[0] === 'array') {
    const item = field(schema, 'items');
    if (item === undefined || depth >= 3) return 'array';
    const itemView = viewSchema(reader, item, [...path, view.key]);
    const itemText = itemView.name ?? typeText(reader, itemView, [...path, view.key], depth + 1);
    // `string[] · uuid`: the format of the items reads after the brackets.
    const [itemType, format] = itemText.split(' · ');
    const list = itemType!.includes(' ') ? `(${itemType})[]` : `${itemType}[]`;
    return format ? `${list} · ${format}` : list;
  }
  if (types.length === 1 && types[0] === 'object') return 'object';
  if (types.length > 0) return types.join(' | ') + (format ? ` · ${format}` : '');
  const variants = variantsOf(schema);
  if (variants && depth < 3) {
    const names = variants.branches.slice(0, 5).map((branch) => {
      const v = viewSchema(reader, branch, [...path, view.key]);
      return (
        v.name ?? text(field(v.schema, 'title'), 64) ?? typeText(reader, v, [...path, view.key], depth + 1)
      );
    });
    return names.join(' | ') + (variants.branches.length > 5 ? ' | …' : '');
  }
  return format ? `any · ${format}` : 'any';
}

/** One line of a schema's facts: `Default`, `Possible values`, `Minimum`… */
export interface Fact {
  label: string;
  /** Values are JSON (drawn as code); words are plain text. */
  values?: unknown[];
  words?: string;
}

/** What a schema constrains, in the order readers look for it. */
export function schemaFacts(schema: JsonObject): Fact[] {
  const facts: Fact[] = [];
  const enumValues = field(schema, 'enum');
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    const shown = enumValues.slice(0, LIMITS.enumValues);
    facts.push({
      label: 'Possible values',
      values: shown,
      ...(enumValues.length > shown.length ? { words: `and ${enumValues.length - shown.length} more` } : {}),
    });
  }
  if (Object.hasOwn(schema, 'const')) facts.push({ label: 'Constant', values: [schema.const] });
  if (Object.hasOwn(schema, 'default')) facts.push({ label: 'Default', values: [schema.default] });
  const example = Object.hasOwn(schema, 'example') ? schema.example : items(field(schema, 'examples'), 1)[0];
  if (example !== undefined) facts.push({ label: 'Example', values: [example] });
  facts.push(...rangeFacts(schema));
  const pattern = text(field(schema, 'pattern'), 500);
  if (pattern !== undefined) facts.push({ label: 'Pattern', values: [pattern] });
  return facts;
}

const BOUNDS: Array<[string, string]> = [
  ['minLength', 'Min length'],
  ['maxLength', 'Max length'],
  ['minItems', 'Min items'],
  ['maxItems', 'Max items'],
  ['minProperties', 'Min properties'],
  ['maxProperties', 'Max properties'],
  ['multipleOf', 'Multiple of'],
];

function rangeFacts(schema: JsonObject): Fact[] {
  const facts: Fact[] = [];
  const num = (key: string): number | undefined => {
    const value = field(schema, key);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
  // 3.0 marks a bound exclusive with a boolean; 3.1 gives the exclusive bound as a number.
  const min = num('minimum');
  const exMin = field(schema, 'exclusiveMinimum');
  if (typeof exMin === 'number' && Number.isFinite(exMin))
    facts.push({ label: 'Greater than', values: [exMin] });
  else if (min !== undefined)
    facts.push({ label: exMin === true ? 'Greater than' : 'Minimum', values: [min] });
  const max = num('maximum');
  const exMax = field(schema, 'exclusiveMaximum');
  if (typeof exMax === 'number' && Number.isFinite(exMax))
    facts.push({ label: 'Less than', values: [exMax] });
  else if (max !== undefined) facts.push({ label: exMax === true ? 'Less than' : 'Maximum', values: [max] });
  for (const [key, label] of BOUNDS) {
    const value = num(key);
    if (value !== undefined) facts.push({ label, values: [value] });
  }
  if (field(schema, 'uniqueItems') === true) facts.push({ label: 'Unique items', words: 'yes' });
  return facts;
}

/** Whether a property is left out of a request (`readOnly`) or a response (`writeOnly`). */
export function hiddenIn(mode: SchemaMode, schema: JsonObject): boolean {
  if (mode === 'request') return field(schema, 'readOnly') === true;
  if (mode === 'response') return field(schema, 'writeOnly') === true;
  return false;
}

/** Where a schema is drawn: request bodies leave read-only properties out, responses write-only ones. */
export type SchemaMode = 'request' | 'response' | 'schema';
