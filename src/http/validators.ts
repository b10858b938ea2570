import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { makeAjv } from '../validation.js';
import { piecewiseSerializer } from './answer-pieces.js';
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

/** An answer serialized: text, or bytes for a long one (answer-pieces.ts). */
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
      serialize = writeSharedOnce(piecewiseSerializer(schema, whole) ?? whole);
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
