import { Ajv, type ErrorObject } from 'ajv';
import type { TSchema } from 'typebox';
import { invalidField } from './errors.js';

const ajv = new Ajv({ allErrors: false, strict: false });

/**
 * Validates values that route schemas leave open (recursive documents, free-form JSON) with the
 * same message form as request validation: the field path and the rule it breaks.
 */
export function compileValidator<T>(schema: TSchema): (value: unknown, field: string) => asserts value is T {
  // Compiled on first use: large schemas (documents) would otherwise slow every start.
  let validate: ReturnType<typeof ajv.compile> | undefined;
  return (value: unknown, field: string): asserts value is T => {
    validate ??= ajv.compile(schema);
    if (validate(value)) return;
    const issue = mostSpecific(validate.errors ?? []);
    const path = issue ? issue.instancePath.replaceAll('/', '.') : '';
    throw invalidField(`${field}${path}`, issue ? describe(issue) : 'is invalid');
  };
}

/** With unions, the deepest failing location is the one the caller got wrong. */
function mostSpecific(errors: ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    if (!best || error.instancePath.length > best.instancePath.length) best = error;
  }
  return best ?? errors[0];
}

function describe(issue: ErrorObject): string {
  const params = issue.params as Record<string, unknown>;
  switch (issue.keyword) {
    case 'required':
      return `is missing the property "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `must not have the property "${String(params.additionalProperty)}"`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message ?? 'is invalid';
  }
}
