/** What processing a specification yields: the types the API area and the site renderer share. */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A processed OpenAPI document, as parsed JSON: 3.1 (2.0 and 3.0 are upgraded) or 3.2, bundled,
 * so every `$ref` that could be followed is local (`#/components/...`, or `#/x-ext/<key>/...` for
 * what came from another file). Refs that could not be followed are kept as written, and the
 * document may be circular through its refs, which is why it is never dereferenced.
 *
 * Shared with caches: read it, never change it.
 */
export interface OpenApiDocumentJson {
  readonly openapi: string;
  readonly [key: string]: JsonValue;
}

/** The official `lastProcessErrorCode` values: the run produced no document. */
export type ProcessingFailureCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/** One entry of `lastProcessedErrors`. */
export interface ProcessingIssue {
  message: string;
  code?: string;
}

export type SpecFormat = 'json' | 'yaml';

export interface ProcessedSpec {
  ok: true;
  document: OpenApiDocumentJson;
  /** The document as stored: JSON in the document's own key order. */
  json: string;
  /** SHA-256 (hex) of the canonical JSON of the document (keys sorted): equal content, equal hash. */
  hash: string;
  /** The entry file exactly as submitted or fetched, and its format. */
  raw: { text: string; format: SpecFormat };
  /** The URL that answered, after redirects (URL sources only). */
  url?: string;
  /** How many other files were bundled into the document. */
  externalDocuments: number;
  /** Informational: validation problems and refs that could not be followed (at most `MAX_ISSUES`). */
  issues: ProcessingIssue[];
  /** How many issues there were before the list was cut. */
  issueCount: number;
}

export interface FailedSpec {
  ok: false;
  code: ProcessingFailureCode;
  message: string;
}

export type ProcessOutcome = ProcessedSpec | FailedSpec;

/** The most issues kept: the official `lastProcessedErrors` is cut, `lastProcessedErrorCount` is not. */
export const MAX_ISSUES = 100;
