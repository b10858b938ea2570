/**
 * Reading an OpenAPI document that is untrusted user content: any field may be missing, of the
 * wrong type or huge. These helpers never throw on plain JSON and cut every list and string,
 * so what the renderer draws stays bounded whatever the document holds.
 */

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own field: `__proto__` or `constructor` written in a spec are data, never the prototype's. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A string field cut to `max` characters; undefined for anything else and for empty strings. */
export function text(value: unknown, max = 2048): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

export function items(value: unknown, max: number): unknown[] {
  return Array.isArray(value) ? value.slice(0, max) : [];
}

/**
 * The first `max` own entries of an object. Walks keys lazily, so an object of a million keys
 * costs what `max` entries cost.
 */
export function entries(value: unknown, max: number): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  if (!isObject(value)) return out;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (out.length >= max) break;
    out.push([key, value[key]]);
  }
  return out;
}

/** Limits shared by the renderer, the markdown view and the search text. */
export const LIMITS = {
  /** Names: properties, parameters, schemas, media types, headers. */
  name: 256,
  /** Descriptions and summaries. */
  description: 20_000,
  summary: 500,
  /** Properties of one object, parameters of one operation, responses, media types. */
  properties: 300,
  parameters: 100,
  responses: 60,
  mediaTypes: 12,
  enumValues: 50,
  /** Schema nesting drawn before a tree stops. */
  depth: 8,
  /** Schema-tree rows one block draws in all. */
  nodes: 2000,
} as const;
