import { entries, field, isObject, items, type JsonObject } from '../../../openapi/read/read.js';
import {
  hiddenIn,
  type SchemaMode,
  type SchemaPath,
  schemaTypes,
  variantsOf,
  viewSchema,
} from '../../../openapi/read/schema-info.js';
import type { SpecReader } from '../../../openapi/read/spec-reader.js';

/**
 * Example values: the ones a spec gives (`example`, `examples`), else one made from the schema,
 * the way API references usually do it: an explicit example, const, default or first enum value
 * wins; `oneOf`/`anyOf` take their first branch, `allOf` is merged; strings follow their
 * format. Made examples are bounded in depth and size, and a schema that contains itself stops
 * where it would repeat.
 */

const MAX_DEPTH = 8;
/** Values one made example holds at most (objects, arrays and leaves together). */
const MAX_VALUES = 400;
const MAX_PROPERTIES = 60;

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-01-15T09:30:00Z',
  date: '2024-01-15',
  time: '09:30:00',
  duration: 'P3D',
  email: 'name@example.com',
  'idn-email': 'name@example.com',
  uuid: '123e4567-e89b-12d3-a456-426614174000',
  uri: 'https://example.com',
  url: 'https://example.com',
  'uri-reference': '/path',
  iri: 'https://example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'ZXhhbXBsZQ==',
  binary: 'binary',
  password: 'password',
  regex: '^[a-z]+$',
  'json-pointer': '/a/b',
};

/** The example a media type, parameter or header gives itself, if any. */
export function explicitExample(reader: SpecReader, holder: unknown): unknown {
  if (!isObject(holder)) return undefined;
  if (Object.hasOwn(holder, 'example')) return holder.example;
  for (const [, example] of entries(field(holder, 'examples'), 1)) {
    const value = field(reader.resolve(example).value, 'value');
    if (value !== undefined) return value;
  }
  return undefined;
}

export function exampleFromSchema(reader: SpecReader, schema: unknown, mode: SchemaMode): unknown {
  let budget = MAX_VALUES;
  const path: SchemaPath = [];

  const sample = (value: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH || budget <= 0) return undefined;
    budget -= 1;
    const view = viewSchema(reader, value, path);
    if (view.circular !== undefined || view.broken !== undefined) return undefined;
    const s = view.schema;
    const given = givenValue(s);
    if (given !== undefined) return given;
    path.push(view.key);
    try {
      const variants = variantsOf(s);
      if (variants && !isObject(field(s, 'properties'))) return sample(variants.branches[0], depth + 1);
      const { types, nullable } = schemaTypes(s);
      const type = types[0];
      switch (type) {
        case 'object':
          return objectSample(s, depth);
        case 'array': {
          const item = sample(field(s, 'items'), depth + 1);
          return item === undefined ? [] : [item];
        }
        case 'string':
          return STRING_FORMATS[String(field(s, 'format'))] ?? 'text';
        case 'integer':
        case 'number':
          return numberSample(s, type);
        case 'boolean':
          return true;
        default:
          return nullable ? null : undefined;
      }
    } finally {
      path.pop();
    }
  };

  const objectSample = (s: JsonObject, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [name, property] of entries(field(s, 'properties'), MAX_PROPERTIES)) {
      const resolved = reader.resolve(property).value;
      if (isObject(resolved) && hiddenIn(mode, resolved)) continue;
      const value = sample(property, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    const extra = field(s, 'additionalProperties');
    if (Object.keys(out).length === 0 && isObject(extra)) {
      const value = sample(extra, depth + 1);
      if (value !== undefined) out.key = value;
    }
    return out;
  };

  return sample(schema, 0);
}

/** What the schema itself says its value is, when it says it. */
function givenValue(s: JsonObject): unknown {
  if (Object.hasOwn(s, 'example')) return s.example;
  const examples = items(field(s, 'examples'), 1);
  if (examples.length > 0) return examples[0];
  if (Object.hasOwn(s, 'const')) return s.const;
  if (Object.hasOwn(s, 'default')) return s.default;
  const first = items(field(s, 'enum'), 1);
  return first.length > 0 ? first[0] : undefined;
}

function numberSample(s: JsonObject, type: 'integer' | 'number'): number {
  const num = (key: string): number | undefined => {
    const value = field(s, key);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  };
  const step = type === 'integer' ? 1 : 0.5;
  const exMin = num('exclusiveMinimum');
  const min = num('minimum');
  if (exMin !== undefined) return exMin + step;
  if (min !== undefined) return field(s, 'exclusiveMinimum') === true ? min + step : min;
  const exMax = num('exclusiveMaximum');
  const max = num('maximum');
  if (max !== undefined && max < 1) return field(s, 'exclusiveMaximum') === true ? max - step : max;
  if (exMax !== undefined && exMax <= 1) return exMax - step;
  return 1;
}

/** The example of a media type: its own, else one made from its schema. */
export function mediaExample(reader: SpecReader, media: unknown, mode: SchemaMode): unknown {
  const given = explicitExample(reader, media);
  if (given !== undefined) return given;
  const schema = field(media, 'schema');
  return schema === undefined ? undefined : exampleFromSchema(reader, schema, mode);
}
