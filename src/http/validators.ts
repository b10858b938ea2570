import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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
