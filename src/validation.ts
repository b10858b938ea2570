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
    // Errors carry their schema and value: the formatter picks the union form a value meant.
    verbose: true,
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

/**
 * What the formatter reads of an Ajv error (Fastify hands the request validator's errors over
 * as they are). `schema` and `data` are there because Ajv runs `verbose`: a union's error then
 * carries its forms and the value, which tells which form the value meant.
 */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown> | object;
  message?: string;
  schema?: unknown;
  data?: unknown;
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
    case 'const':
      rule = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
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

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The properties a union form fixes with `const` (its discriminators: `kind`, `type`). */
function discriminators(form: unknown): Array<[string, unknown]> {
  if (!isObject(form) || !isObject(form.properties)) return [];
  return Object.entries(form.properties).flatMap(([name, property]) =>
    isObject(property) && 'const' in property ? [[name, property.const] as [string, unknown]] : [],
  );
}

/**
 * The failure to report. Each form of a union (`anyOf`) reports its own first failure, most of
 * them about forms the caller did not mean. The form whose discriminators the value matches is
 * the one they meant: only its failures count. A value matching no form's discriminator is
 * told the values the discriminator may take. Then the deepest failure is the most specific.
 */
function mostSpecific(issues: readonly SchemaIssue[]): SchemaIssue | undefined {
  let candidates = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf');
  for (const union of issues) {
    if ((union.keyword !== 'anyOf' && union.keyword !== 'oneOf') || !Array.isArray(union.schema)) continue;
    const forms = union.schema.map(discriminators);
    const value = union.data;
    if (!isObject(value) || forms.some((d) => d.length === 0)) continue;
    const meant = forms.flatMap((d, i) => (d.every(([name, v]) => value[name] === v) ? [i] : []));
    const inUnion = (i: SchemaIssue) => i.schemaPath.startsWith(`${union.schemaPath}/`);
    if (meant.length === 1) {
      const form = `${union.schemaPath}/${meant[0]}/`;
      candidates = candidates.filter((i) => !inUnion(i) || i.schemaPath.startsWith(form));
    } else if (meant.length === 0) {
      const name = forms[0]![0]![0];
      if (!forms.every((d) => d.some(([n]) => n === name))) continue;
      const allowedValues = forms.map((d) => d.find(([n]) => n === name)![1]);
      const choice: SchemaIssue = {
        keyword: 'enum',
        instancePath: `${union.instancePath}/${name}`,
        schemaPath: union.schemaPath,
        params: { allowedValues },
      };
      candidates = [choice, ...candidates.filter((i) => !inUnion(i))];
    }
  }
  return (
    candidates.reduce<SchemaIssue | undefined>(
      (best, i) => (!best || i.instancePath.length > best.instancePath.length ? i : best),
      undefined,
    ) ?? issues[0]
  );
}

/** `/header/links/0/to` -> `.header.links.0.to` (JSON pointer escapes undone). */
function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => `.${part.replaceAll('~1', '/').replaceAll('~0', '~')}`)
    .join('');
}
