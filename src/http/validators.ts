import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';

/**
 * Request validation. Query strings and path parameters arrive as text, so they are coerced
 * ("limit=10" is a number); bodies are JSON and are taken as sent, so `{"title": 42}` is an error
 * rather than the title "42".
 */
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

export function requestValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodies = makeAjv(false);
  const text = makeAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodies : text).compile(schema as object);
}

/**
 * Response serializers, built once per schema object: every route declares the same error
 * schemas, and building a serializer per route and status made most of the start-up time.
 */
export function responseSerializerCompiler(): FastifySerializerCompiler<unknown> {
  const built = new WeakMap<object, (data: unknown) => string>();
  return ({ schema }) => {
    const key = schema as object;
    let serialize = built.get(key);
    if (!serialize) {
      serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as (
        data: unknown,
      ) => string;
      built.set(key, serialize);
    }
    return serialize;
  };
}
