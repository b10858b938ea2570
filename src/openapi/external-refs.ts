import {
  bundle,
  type LifecyclePlugin,
  type LoaderPlugin,
  type ResolveResult,
} from '@scalar/json-magic/bundle';
import type { OutboundClient } from '../http/outbound.js';
import type { JsonValue, ProcessingIssue } from './document.js';
import { parseSpecText, SpecParseError } from './parse-text.js';
import { someRef } from './ref-walk.js';

/**
 * Pulls the files a specification refers to (`$ref: ./schemas.json#/Pet`,
 * `$ref: https://…/common.yaml`) into it, under `x-ext`, with @scalar/json-magic's bundler.
 *
 * Every file comes through the guarded outbound client and nothing else: the bundler gets two
 * loaders of ours, one for http(s) URLs and one that refuses everything else (local paths,
 * `file:`), and never the library's file-reading plugin. A file that cannot be had is reported
 * as an issue and its ref is kept as written; the library would print a console warning for
 * each one (a document can hold thousands), so a failed load is handed back to it as a
 * placeholder that the lifecycle hooks below undo.
 */

export interface BundleLimits {
  /** Other files fetched at most, per specification: an endless chain of refs stops here. */
  maxDocuments: number;
  /** Largest single file. */
  maxDocumentBytes: number;
  /** All files together. */
  maxTotalBytes: number;
  fetchTimeoutMs: number;
  /** Files fetched at once. */
  concurrency: number;
}

export interface BundleOptions {
  fetcher: Pick<OutboundClient, 'fetch'>;
  /** The URL the entry file came from; relative refs resolve against it. None for text. */
  origin: string | undefined;
  limits: BundleLimits;
  /** Epoch milliseconds after which nothing more is fetched. */
  deadline: number;
}

export interface BundleReport {
  /** How many other files were bundled in. */
  documents: number;
  issues: ProcessingIssue[];
}

const EXT = 'x-ext';
const ACCEPT = 'application/json, application/yaml, text/yaml, text/plain;q=0.5, */*;q=0.1';

/** Whether any `$ref` leaves the document: when none does, bundling has nothing to do. */
export function hasExternalRefs(value: unknown): boolean {
  return someRef(value, (ref) => !ref.startsWith('#'));
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Runs at most `n` of the given tasks at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const shown = (ref: string) => (ref.length > 300 ? `${ref.slice(0, 300)}…` : ref);

/** Bundles `document` in place. */
export async function bundleExternalRefs(
  document: { [key: string]: JsonValue },
  options: BundleOptions,
): Promise<BundleReport> {
  const { limits, fetcher } = options;
  const issues: ProcessingIssue[] = [];
  const placeholders = new WeakSet<object>();
  const refsAsWritten = new WeakMap<object, unknown>();
  const limit = limiter(limits.concurrency);
  let attempted = 0;
  let bundled = 0;
  // Files are fetched side by side: each reserves the most it may read (within what is left of
  // the total), waits when fetches in flight hold the rest, and gives back what it did not use.
  let usedBytes = 0;
  let reservedBytes = 0;
  const waiting: Array<() => void> = [];
  const reserve = async (): Promise<number> => {
    for (;;) {
      const left = limits.maxTotalBytes - usedBytes;
      if (left <= 0) return 0;
      const allowance = Math.min(limits.maxDocumentBytes, left - reservedBytes);
      if (allowance > 0) {
        reservedBytes += allowance;
        return allowance;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
  };

  const refused = (ref: string, reason: string): ResolveResult => {
    issues.push({
      code: 'EXTERNAL_REFERENCE_NOT_FOUND',
      message: `Cannot resolve $ref ${shown(ref)}: ${reason}`,
    });
    const placeholder = {};
    placeholders.add(placeholder);
    return { ok: true, data: placeholder, raw: '' };
  };

  const load = async (url: string): Promise<ResolveResult> => {
    if (attempted >= limits.maxDocuments) {
      return refused(
        url,
        `the specification refers to more than ${limits.maxDocuments} other files; bundle some of them into one`,
      );
    }
    attempted++;
    const fetched = await limit(async (): Promise<Buffer | ResolveResult> => {
      const allowance = await reserve();
      if (allowance === 0) {
        return refused(url, `the files referred to are larger than ${limits.maxTotalBytes} bytes together`);
      }
      let used = 0;
      try {
        const remaining = options.deadline - Date.now();
        if (remaining <= 0) return refused(url, 'processing ran out of time before this file was fetched');
        const response = await fetcher.fetch(url, {
          timeoutMs: Math.min(limits.fetchTimeoutMs, remaining),
          maxBytes: allowance,
          headers: { accept: ACCEPT },
        });
        used = response.body.length;
        if (response.status < 200 || response.status > 299) {
          return refused(url, `the server answered HTTP ${response.status}`);
        }
        return response.body;
      } catch (error) {
        return refused(url, error instanceof Error ? error.message : String(error));
      } finally {
        reservedBytes -= allowance;
        usedBytes += used;
        for (const wake of waiting.splice(0)) wake();
      }
    });
    if (!Buffer.isBuffer(fetched)) return fetched;
    try {
      const parsed = parseSpecText(fetched.toString('utf8'), 'the file', limits.maxDocumentBytes);
      bundled++;
      return { ok: true, data: parsed.value, raw: '' };
    } catch (error) {
      if (error instanceof SpecParseError) return refused(url, error.message);
      throw error;
    }
  };

  const http: LoaderPlugin = { type: 'loader', validate: isHttpUrl, exec: load };
  const elsewhere: LoaderPlugin = {
    type: 'loader',
    validate: () => true,
    exec: async (ref) =>
      refused(
        ref,
        options.origin === undefined
          ? 'a specification given as text can only refer to other files by absolute http(s) URL'
          : 'only http:// and https:// files are fetched',
      ),
  };
  // A ref with a scheme other than http(s) (`file:`, `ftp:`, `C:`) is kept from the bundler,
  // which would otherwise read it as a path on the entry file's server. Its value is swapped
  // for a non-string while bundling (so the node keeps its key order) and put back after.
  const hidden: Array<[Record<string, unknown>, unknown]> = [];
  // The bundler rewrites a resolved ref to point into `x-ext`; a placeholder's ref goes back to
  // what the author wrote, so the document still says what it wanted.
  const restore: LifecyclePlugin = {
    type: 'lifecycle',
    onBeforeNodeProcess: (node) => {
      const ref = node.$ref;
      const scheme = typeof ref === 'string' ? SCHEME.exec(ref)?.[1]?.toLowerCase() : undefined;
      if (scheme === undefined || scheme === 'http' || scheme === 'https') return;
      refused(
        ref as string,
        `${scheme}: references are not followed; only http:// and https:// files are fetched`,
      );
      hidden.push([node, ref]);
      node.$ref = {};
    },
    onResolveStart: (node) => {
      refsAsWritten.set(node, node.$ref);
    },
    onResolveSuccess: (node) => {
      const key = typeof node.$ref === 'string' ? node.$ref.split('/')[2] : undefined;
      const bundledFiles = document[EXT] as Record<string, unknown> | undefined;
      const target =
        key === undefined ? undefined : bundledFiles?.[key.replaceAll('~1', '/').replaceAll('~0', '~')];
      if (target && typeof target === 'object' && placeholders.has(target))
        node.$ref = refsAsWritten.get(node);
    },
  };

  await bundle(document, {
    plugins: [http, elsewhere, restore],
    treeShake: false,
    ...(options.origin === undefined ? {} : { origin: options.origin }),
  });

  for (const [node, ref] of hidden) node.$ref = ref;
  const files = document[EXT];
  if (files && typeof files === 'object' && !Array.isArray(files)) {
    for (const [key, value] of Object.entries(files)) {
      if (value && typeof value === 'object' && placeholders.has(value)) delete files[key];
    }
    if (Object.keys(files).length === 0) delete document[EXT];
  }
  return { documents: bundled, issues };
}
