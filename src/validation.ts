import { Ajv, type SchemaValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from 'typebox';
import { type ApiError, invalidField } from './errors.js';
import { linkUrlProblem } from './link-urls.js';

/** Schema keyword of link targets (a string option of TypeBox: `{ [LINK_URL]: true }`). */
export const LINK_URL = 'x-link-url';

const validateLinkUrl: SchemaValidateFunction = (enabled: boolean, value: string) => {
  const problem = enabled ? linkUrlProblem(value) : undefined;
  validateLinkUrl.errors = problem === undefined ? [] : [{ keyword: LINK_URL, message: problem, params: {} }];
  return problem === undefined;
};

/**
 * The one JSON Schema setup of the server: request validation (route schemas) and the values
 * route schemas leave open (recursive documents, free-form JSON) are checked by Ajv instances
 * made here, and their failures worded by `schemaError` below, so one rule reads the same
 * wherever it is broken.
 *
 * Query strings and path parameters arrive as text, so they are coerced ("limit=10" is a
 * number); bodies are JSON and taken as sent, so `{"title": 42}` is an error rather than the
 * title "42". Properties a schema does not name are kept (not removed) and defaults are filled in.
 */
export function makeAjv(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv({
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  ajv.addKeyword({
    // `{"x-link-url": true}` on a string: a link target, by the rule the site renderer uses.
    keyword: LINK_URL,
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: validateLinkUrl,
  });
  return ajv;
}

/** The instance for JSON values (request bodies and `compileValidator`). */
let jsonAjv: Ajv | undefined;
export function sharedJsonAjv(): Ajv {
  jsonAjv ??= makeAjv({ coerce: false });
  return jsonAjv;
}

/**
 * Validates a value that route schemas leave open, throwing the 400 a route schema would:
 * `Invalid request: <field><path> <rule>`.
 */
export function compileValidator<T>(schema: TSchema): (value: unknown, field: string) => asserts value is T {
  // Compiled on first use: large schemas (documents) would otherwise slow every start.
  let validate: ReturnType<Ajv['compile']> | undefined;
  return (value: unknown, field: string): asserts value is T => {
    validate ??= sharedJsonAjv().compile(schema);
    if (validate(value)) return;
    throw schemaError(field, validate.errors ?? []);
  };
}

/** What the formatter reads of an Ajv error (Fastify's validation errors have the same fields). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown> | object;
  message?: string;
}

/** Longest user-supplied text (a property name, a value) quoted back in a message. */
const MAX_QUOTED = 100;

/** `value` in double quotes, cut to a bounded length: messages never echo long input whole. */
export function quoted(value: unknown): string {
  const text = String(value);
  return JSON.stringify(text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text);
}

/**
 * The 400 for a schema violation, naming the field and the rule:
 * "Invalid request: body.title must NOT have more than 255 characters".
 * `field` is where the validated value sits (`body`, `querystring`, `body.document`).
 */
export function schemaError(field: string, issues: readonly SchemaIssue[]): ApiError {
  const issue = mostSpecific(issues);
  if (!issue) return invalidField(field, 'is invalid');
  let path = field + pointerToPath(issue.instancePath);
  const params = issue.params as Record<string, unknown>;
  let rule = issue.message ?? 'is invalid';
  switch (issue.keyword) {
    case 'required':
      path = `${path}.${String(params.missingProperty)}`;
      rule = 'is required';
      break;
    case 'additionalProperties':
      rule = `must not have the property ${quoted(params.additionalProperty)}`;
      break;
    case 'const': {
      // Each form of a union failing on its discriminator (`kind`, `type`): list them all.
      const allowed = issues
        .filter((i) => i.keyword === 'const' && i.instancePath === issue.instancePath)
        .map((i) => JSON.stringify((i.params as Record<string, unknown>).allowedValue));
      rule = allowed.length > 1 ? `must be one of: ${allowed.join(', ')}` : `must be ${allowed[0]}`;
      break;
    }
    case 'enum':
      rule = `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      break;
    case 'anyOf':
    case 'oneOf':
      rule = 'does not match any of the accepted forms';
      break;
  }
  return invalidField(path, rule);
}

/**
 * With unions (`anyOf`), each form reports its first failure. A form whose discriminator
 * (a `const`) failed is the wrong form, not the caller's mistake: the deepest failure of the
 * other forms is what they got wrong; when every form failed on its discriminator, that is it.
 */
function mostSpecific(issues: readonly SchemaIssue[]): SchemaIssue | undefined {
  const concrete = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf');
  const pick = (list: SchemaIssue[]) =>
    list.reduce<SchemaIssue | undefined>(
      (best, i) => (!best || i.instancePath.length > best.instancePath.length ? i : best),
      undefined,
    );
  return pick(concrete.filter((i) => i.keyword !== 'const')) ?? pick(concrete) ?? issues[0];
}

/** `/header/links/0/to` -> `.header.links.0.to` (JSON pointer escapes undone). */
function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => `.${part.replaceAll('~1', '/').replaceAll('~0', '~')}`)
    .join('');
}
