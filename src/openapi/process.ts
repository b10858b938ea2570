import { type OutboundClient, OutboundError } from '../http/outbound.js';
import { canonicalHash } from './canonical-hash.js';
import {
  type FailedSpec,
  type JsonValue,
  MAX_ISSUES,
  type OpenApiDocumentJson,
  type ProcessingIssue,
  type ProcessOutcome,
  type SpecFormat,
} from './document.js';
import { type BundleLimits, bundleExternalRefs, hasExternalRefs } from './external-refs.js';
import { brokenLocalRefs } from './local-refs.js';
import { parseSpecText, SpecParseError } from './parse-text.js';

/**
 * The OpenAPI processing engine: a specification's source (text, or a URL fetched through the
 * guarded outbound client) to the bundled 3.1 document that is stored and rendered, the way
 * GitBook processes specs:
 *
 * 1. fetch, and parse JSON or YAML; no supported `openapi`/`swagger` version is a parse error;
 * 2. bundle the files its refs point at (external-refs.ts): bundled, never dereferenced, since
 *    a spec may be circular and must stay serialisable;
 * 3. upgrade Swagger 2.0 and OpenAPI 3.0 to 3.1, so readers handle one version;
 * 4. validate with @scalar/openapi-parser. Like GitBook, a document that parsed is kept even
 *    when invalid (the validator is stricter than real specs are): its problems are issues the
 *    spec reports, not failures.
 *
 * Only fetching the entry file and reading it can fail a run (FETCH_TIMEOUT, FETCH_ERROR,
 * PARSE_ERROR); everything after yields a document.
 */

export type SpecSource = { kind: 'text'; text: string } | { kind: 'url'; url: string };

export interface EngineLimits extends BundleLimits {
  /** Largest entry file (fetched or given). */
  maxSourceBytes: number;
  /** Largest processed document, as JSON. */
  maxResultBytes: number;
  /** The whole run, fetches included. */
  totalTimeMs: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  maxSourceBytes: 20 * 1024 * 1024,
  maxDocuments: 50,
  maxDocumentBytes: 20 * 1024 * 1024,
  maxTotalBytes: 40 * 1024 * 1024,
  maxResultBytes: 64 * 1024 * 1024,
  fetchTimeoutMs: 30_000,
  totalTimeMs: 60_000,
  concurrency: 4,
};

export interface EngineOptions {
  fetcher: Pick<OutboundClient, 'fetch'>;
  limits?: Partial<EngineLimits>;
  /** Stops the run between steps (a job that lost its lease). */
  signal?: AbortSignal;
}

type Version = '2.0' | '3.0' | '3.1' | '3.2';

const ACCEPT = 'application/json, application/yaml, text/yaml, text/plain;q=0.5, */*;q=0.1';

function failed(code: FailedSpec['code'], message: string): FailedSpec {
  return { ok: false, code, message };
}

function versionOf(document: { [key: string]: JsonValue }): Version | undefined {
  if (typeof document.swagger === 'string' && document.swagger.startsWith('2.0')) return '2.0';
  const openapi = document.openapi;
  if (typeof openapi !== 'string') return undefined;
  return (['3.0', '3.1', '3.2'] as const).find((v) => openapi.startsWith(v));
}

function describeVersion(document: { [key: string]: JsonValue }): string {
  const found = document.openapi ?? document.swagger;
  return found === undefined
    ? 'it has no "openapi" or "swagger" field'
    : `it says ${document.openapi !== undefined ? 'openapi' : 'swagger'}: ${JSON.stringify(found).slice(0, 40)}`;
}

async function fetchEntry(
  url: string,
  options: EngineOptions,
  limits: EngineLimits,
): Promise<{ text: string; url: string } | FailedSpec> {
  try {
    const response = await options.fetcher.fetch(url, {
      timeoutMs: Math.min(limits.fetchTimeoutMs, limits.totalTimeMs),
      maxBytes: limits.maxSourceBytes,
      headers: { accept: ACCEPT },
    });
    if (response.status < 200 || response.status > 299) {
      return failed('FETCH_ERROR', `The source URL answered HTTP ${response.status}`);
    }
    return { text: response.body.toString('utf8'), url: response.url };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    return failed(error.code === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', error.message);
  }
}

/**
 * The parser's error objects as `lastProcessedErrors` items. Its "external reference not found"
 * errors are left out: every ref to another file went through the bundler's loaders, which
 * reported the ones they could not follow with the reason.
 */
function validationIssues(errors: ReadonlyArray<{ message: string; code?: string; path?: unknown }>) {
  return errors
    .filter((error) => error.code !== 'EXTERNAL_REFERENCE_NOT_FOUND')
    .map((error): ProcessingIssue => {
      // Typed as segments, given as a JSON pointer (0.24.17): either is shown as a pointer.
      const path = Array.isArray(error.path) ? `/${error.path.join('/')}` : error.path;
      const message = typeof path === 'string' && path !== '' ? `${path}: ${error.message}` : error.message;
      return error.code ? { message, code: error.code } : { message };
    });
}

export async function processSpec(source: SpecSource, options: EngineOptions): Promise<ProcessOutcome> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const deadline = Date.now() + limits.totalTimeMs;
  const checkpoint = () => options.signal?.throwIfAborted();

  let text: string;
  let origin: string | undefined;
  if (source.kind === 'url') {
    const fetched = await fetchEntry(source.url, options, limits);
    if ('ok' in fetched) return fetched;
    text = fetched.text;
    origin = fetched.url;
  } else {
    text = source.text;
  }
  checkpoint();

  let document: { [key: string]: JsonValue };
  let format: SpecFormat;
  try {
    ({ value: document, format } = parseSpecText(text, 'The specification', limits.maxSourceBytes));
  } catch (error) {
    if (error instanceof SpecParseError) return failed('PARSE_ERROR', error.message);
    throw error;
  }
  const version = versionOf(document);
  if (!version) {
    return failed(
      'PARSE_ERROR',
      `The document is not a supported OpenAPI specification (3.0, 3.1, 3.2 or Swagger 2.0): ${describeVersion(document)}`,
    );
  }

  try {
    return await build(document, version, { text, format, origin, deadline, limits, options });
  } catch (error) {
    // A hostile or broken document can break a library (a cycle, nesting past the stack):
    // the run ends with a failure the user sees rather than retrying what will fail again.
    if (options.signal?.aborted) throw error;
    const reason =
      error instanceof RangeError
        ? 'it is nested too deeply'
        : error instanceof Error
          ? error.message
          : String(error);
    return failed('PARSE_ERROR', `The document could not be processed: ${reason}`);
  }
}

interface BuildContext {
  text: string;
  format: SpecFormat;
  origin: string | undefined;
  deadline: number;
  limits: EngineLimits;
  options: EngineOptions;
}

/** Steps 2 to 4 of the comment at the top: bundle, upgrade, validate, and serialize. */
async function build(
  parsed: { [key: string]: JsonValue },
  version: Version,
  { text, format, origin, deadline, limits, options }: BuildContext,
): Promise<ProcessOutcome> {
  let document = parsed;
  // Loaded with the first document: the parser is 0.2 s of every start otherwise.
  const { upgrade, validate } = await import('@scalar/openapi-parser');
  const checkpoint = () => options.signal?.throwIfAborted();
  const issues: ProcessingIssue[] = [];
  let externalDocuments = 0;
  if (hasExternalRefs(document)) {
    const report = await bundleExternalRefs(document, {
      fetcher: options.fetcher,
      origin,
      limits,
      deadline,
    });
    externalDocuments = report.documents;
    issues.push(...report.issues);
    checkpoint();
  }

  if (version === '2.0' || version === '3.0') {
    document = upgrade(document).specification as unknown as { [key: string]: JsonValue };
  }

  // The validator fills in a missing `info.version`: it gets copies of the nodes it writes to.
  const info = document.info;
  const forValidation =
    info && typeof info === 'object' && !Array.isArray(info) ? { ...document, info: { ...info } } : document;
  const found: ProcessingIssue[] = [];
  try {
    const result = await validate(forValidation);
    found.push(...validationIssues(result.errors ?? []));
  } catch (error) {
    found.push({ message: `The document could not be validated: ${(error as Error).message}` });
  }
  found.push(...brokenLocalRefs(document));
  const seen = new Set<string>();
  for (const issue of found) {
    const key = `${issue.code}\n${issue.message}`;
    if (!seen.has(key)) issues.push(issue);
    seen.add(key);
  }
  checkpoint();

  const json = JSON.stringify(document);
  if (json.length > limits.maxResultBytes) {
    return failed(
      'PARSE_ERROR',
      `The processed document is ${json.length} bytes, more than the limit of ${limits.maxResultBytes} bytes`,
    );
  }
  return {
    ok: true,
    document: document as OpenApiDocumentJson,
    json,
    hash: canonicalHash(document),
    raw: { text, format },
    ...(origin === undefined ? {} : { url: origin }),
    externalDocuments,
    issues: issues.slice(0, MAX_ISSUES),
    issueCount: issues.length,
  };
}
