import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The official GitBook OpenAPI documents (0.146.0 and 0.202.0), compiled with ajv so tests can
 * check every response Quire gives against the schema of its operation.
 */

const require = createRequire(import.meta.url);

export type SpecVersion = '0.146' | '0.202';

interface Operation {
  version: SpecVersion;
  method: string;
  template: string;
  operationId: string;
  matcher: RegExp;
  literalSegments: number;
  responses: Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are untyped JSON
type Json = any;

function load(file: string): Json {
  return JSON.parse(readFileSync(require.resolve(file), 'utf8'));
}

/**
 * The official `Document` union has an "Empty" branch written as `{}` with
 * `additionalProperties: false`; inside an `allOf` with a page's other fields a literal validator
 * rejects every page without a body. Its meaning is "neither markdown nor document".
 */
function patchEmptyDocument(doc: Json): void {
  const union = doc.components?.schemas?.Document?.oneOf as Json[] | undefined;
  if (!union) return;
  for (const [i, branch] of union.entries()) {
    if (branch.title === 'Empty' || (branch.additionalProperties === false && !branch.required)) {
      union[i] = { not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
    }
  }
}

/** OpenAPI 3.0 `nullable` as plain JSON Schema, so one validator reads both versions. */
function convertNullable(node: Json): Json {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = convertNullable(value);
  if (out.nullable !== true) {
    delete out.nullable;
    return out;
  }
  delete out.nullable;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum.push(null);
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function makeAjv(version: SpecVersion): Ajv {
  const options = { strict: false, allErrors: true, validateFormats: true } as const;
  const ajv = version === '0.202' ? new Ajv2020(options) : new Ajv(options);
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const format of ['int32', 'int64', 'emoji', 'icon', 'byte']) ajv.addFormat(format, true);
  return ajv as Ajv;
}

class Spec {
  readonly ajv: Ajv;
  readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    readonly version: SpecVersion,
    readonly doc: Json,
  ) {
    if (version === '0.146') Object.assign(doc, convertNullable(doc));
    patchEmptyDocument(doc);
    this.ajv = makeAjv(version);
    this.ajv.addSchema(doc, `spec${version}`);
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!op || typeof op !== 'object' || !op.operationId) continue;
        const segments = template.split('/').filter(Boolean);
        const pattern = segments.map((s) => (s.startsWith('{') ? '[^/]+' : escapeRegExp(s))).join('/');
        this.operations.push({
          version,
          method: method.toUpperCase(),
          template,
          operationId: op.operationId,
          matcher: new RegExp(`^/${pattern}/?$`),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          responses: op.responses ?? {},
        });
      }
    }
  }

  find(method: string, path: string): Operation | undefined {
    let best: Operation | undefined;
    for (const op of this.operations) {
      if (op.method !== method || !op.matcher.test(path)) continue;
      if (!best || op.literalSegments > best.literalSegments) best = op;
    }
    return best;
  }

  /** The validator of a named component schema (`#/components/schemas/<name>`), or null. */
  componentValidator(name: string): ValidateFunction | null {
    const key = `#/components/schemas/${name}`;
    if (this.compiled.has(key)) return this.compiled.get(key)!;
    const validate = this.doc.components?.schemas?.[name]
      ? this.ajv.compile({ $ref: `spec${this.version}#/components/schemas/${pointerEscape(name)}` })
      : null;
    this.compiled.set(key, validate as ValidateFunction);
    return validate;
  }

  findById(operationId: string): Operation | undefined {
    return this.operations.find((op) => op.operationId === operationId);
  }

  /** The validator of a JSON response of `op` with `status`, or null when none is declared. */
  validator(op: Operation, status: number): ValidateFunction | null {
    const key = `${op.method} ${op.template} ${status}`;
    if (this.compiled.has(key)) return this.compiled.get(key)!;
    let response: Json = op.responses[String(status)] ?? op.responses.default;
    let pointer = `#/paths/${pointerEscape(op.template)}/${op.method.toLowerCase()}/responses/${op.responses[String(status)] ? status : 'default'}`;
    if (response?.$ref) {
      pointer = response.$ref;
      response = resolve(this.doc, response.$ref);
    }
    if (!response?.content?.['application/json']?.schema) {
      this.compiled.set(key, null as never);
      return null;
    }
    const validate = this.ajv.compile({
      $ref: `spec${this.version}${pointer}/content/application~1json/schema`,
    });
    this.compiled.set(key, validate);
    return validate;
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function pointerEscape(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

function resolve(doc: Json, ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: Json, part: string) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

let specs: Spec[] | undefined;

export function officialSpecs(): Spec[] {
  specs ??= [
    new Spec('0.146', load('gitbook-api-0146/spec/openapi.json')),
    new Spec('0.202', load('@gitbook/api/spec/openapi.json')),
  ];
  return specs;
}

export interface SchemaProblem {
  version: SpecVersion;
  operationId: string;
  errors: string[];
}

/**
 * Checks one response body against every official version that has the operation. Returns the
 * operation ids found (empty when neither version knows the route) and the problems.
 */
export function checkResponse(
  method: string,
  apiPath: string,
  status: number,
  body: unknown,
): { operations: string[]; problems: SchemaProblem[] } {
  const operations: string[] = [];
  const problems: SchemaProblem[] = [];
  // A status either version declares is fine (e.g. 204 for `Prefer: return=minimal`, 0.202 only).
  const declaredSomewhere = officialSpecs().some((spec) => {
    const op = spec.find(method, apiPath);
    return op !== undefined && String(status) in op.responses;
  });
  for (const spec of officialSpecs()) {
    const op = spec.find(method, apiPath);
    if (!op) continue;
    operations.push(`${op.operationId}@${spec.version}`);
    if (status >= 400) {
      const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
      if (!error || error.code !== status || typeof error.message !== 'string' || error.message === '') {
        problems.push({
          version: spec.version,
          operationId: op.operationId,
          errors: [
            `error body must be {"error":{"code":${status},"message":"..."}}, got ${JSON.stringify(body)}`,
          ],
        });
      }
      continue;
    }
    const declared = Object.keys(op.responses);
    if (!declared.includes(String(status)) && !declared.includes('default')) {
      if (declaredSomewhere) continue;
      problems.push({
        version: spec.version,
        operationId: op.operationId,
        errors: [`status ${status} is not one the operation declares (${declared.join(', ')})`],
      });
      continue;
    }
    const validate = spec.validator(op, status);
    if (!validate) continue;
    if (!validate(body)) {
      problems.push({
        version: spec.version,
        operationId: op.operationId,
        errors: (validate.errors ?? [])
          .slice(0, 8)
          .map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`),
      });
    }
  }
  return { operations, problems };
}

/**
 * Checks a value against a component schema (`JSONDocument`, `DocumentBlockTable`, …) of every
 * official version. A version without that schema is a problem too: the name is then wrong.
 * `operationId` of each problem names the schema.
 */
export function checkSchema(name: string, value: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const spec of officialSpecs()) {
    const validate = spec.componentValidator(name);
    if (!validate) {
      problems.push({
        version: spec.version,
        operationId: name,
        errors: [`no component schema named ${name}`],
      });
      continue;
    }
    if (validate(value)) continue;
    problems.push({
      version: spec.version,
      operationId: name,
      errors: (validate.errors ?? [])
        .slice(0, 8)
        .map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`),
    });
  }
  return problems;
}
