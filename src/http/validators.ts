import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { makeAjv } from '../validation.js';
import { isSharedAnswer } from './shared-answers.js';

/**
 * Request validation with the server's one Ajv setup (src/validation.ts): bodies are JSON and
 * taken as sent; query strings, path parameters and headers are text and coerced. This
 * compiler replaces Fastify's own, so Fastify's `ajv` server option has no effect here: every
 * validation option lives in `makeAjv`. Failures are worded by the error handler with
 * `schemaError`, the formatter `compileValidator` uses too.
 */
export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = makeAjv({ coerce: false });
  const text = makeAjv({ coerce: true });
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : text).compile(schema as object);
}

/** An answer serialized: text, or bytes for a long list (`listSerializer`). */
type Serialize = (data: unknown) => string | Buffer;

/**
 * Response serializers, built once per schema object: every route declares the same error
 * schemas, and building a serializer per route and status made most of the start-up time.
 * A shared answer (shared-answers.ts) never changes, so each serializer writes it once and
 * hands out the same text to every request that sends it.
 */
export function responseSerializerCompiler(): FastifySerializerCompiler<unknown> {
  const built = new WeakMap<object, Serialize>();
  return ({ schema }) => {
    const key = schema as object;
    let serialize = built.get(key);
    if (!serialize) {
      const whole = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as (
        data: unknown,
      ) => string;
      serialize = writeSharedOnce(listSerializer(schema, whole) ?? whole);
      built.set(key, serialize);
    }
    // Fastify sends a buffer as it sends a string (its Content-Length counts either).
    return serialize as (data: unknown) => string;
  };
}

function writeSharedOnce(serialize: Serialize): Serialize {
  const written = new WeakMap<object, string | Buffer>();
  return (data) => {
    if (!isSharedAnswer(data)) return serialize(data);
    let text = written.get(data);
    if (text === undefined) {
      text = serialize(data);
      written.set(data, text);
    }
    return text;
  };
}

/**
 * Characters of a long list's text encoded at a time (its items' texts joined). Pieces of 4,096
 * serialized and encoded a search's 100 hits in 0.52-0.86 ms, of 16,384 in 0.88-1.26 ms (each
 * against 1.7-2.2 ms in one piece, in the same runs).
 */
const PIECE_CHARS = 4096;

/**
 * Characters of an answer made as one text; a longer list is encoded in pieces. Under 128 KB
 * however many bytes a character takes.
 *
 * V8 keeps a string of 128 KB or more apart from the others (its large-object space), and on this
 * machine (Node 20) making one there and encoding it cost about 1.3 ms more than a string just
 * under: a search's answer serialized with JSON.stringify and encoded, 55 hits (61,000 characters,
 * two bytes each in V8) 0.21 ms, 60 hits (68,000) 0.97 ms, 100 hits 1.30 ms; made of ASCII
 * characters alone (one byte each), 127,000 characters 0.27 ms, 139,000 1.72 ms.
 */
const ONE_TEXT_CHARS = 64 * 1024 - 1;

/** How a list begins, `listOf`'s items first. */
const LIST_HEAD = '{"items":[';

/**
 * A list answer (`listOf`: `items` first, then `count` and `next`) serialized item by item with
 * the item's own serializer, to the same text as `whole` writes. A long list (a search's 100
 * hits) goes as bytes, encoded a few items at a time: no text of it is ever 128 KB or more.
 * Undefined for a schema of another shape.
 */
function listSerializer(schema: unknown, whole: (data: unknown) => string): Serialize | undefined {
  const properties = (schema as { properties?: Record<string, { type?: unknown; items?: unknown }> })
    .properties;
  const items = properties?.items;
  if (!properties || Object.keys(properties)[0] !== 'items' || items?.type !== 'array') return undefined;
  if (typeof items.items !== 'object' || items.items === null || Array.isArray(items.items)) return undefined;
  const item = fastJsonStringify(items.items as Parameters<typeof fastJsonStringify>[0]) as (
    data: unknown,
  ) => string;
  return (data) => {
    const list = (data as { items?: unknown } | null)?.items;
    if (!Array.isArray(list) || list.length === 0) return whole(data);
    // The rest of the answer as `whole` writes it after the items: `],"count":...}`.
    const empty = whole({ ...(data as object), items: [] });
    if (!empty.startsWith(`${LIST_HEAD}]`)) return whole(data);
    const tail = empty.slice(LIST_HEAD.length);
    const texts: string[] = new Array(list.length);
    let chars = LIST_HEAD.length + tail.length + list.length;
    for (let i = 0; i < list.length; i++) {
      texts[i] = item(list[i]);
      chars += texts[i]!.length;
    }
    if (chars <= ONE_TEXT_CHARS) return `${LIST_HEAD}${texts.join(',')}${tail}`;
    const pieces: Buffer[] = [Buffer.from(LIST_HEAD)];
    let from = 0;
    let length = 0;
    for (let i = 0; i < texts.length; i++) {
      length += texts[i]!.length + 1;
      if (length < PIECE_CHARS && i < texts.length - 1) continue;
      pieces.push(Buffer.from(texts.slice(from, i + 1).join(',') + (i < texts.length - 1 ? ',' : tail)));
      from = i + 1;
      length = 0;
    }
    return Buffer.concat(pieces);
  };
}
