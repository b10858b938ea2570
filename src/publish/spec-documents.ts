import type { OpenContent } from '../areas/content/service.js';
import type { BlobStore } from '../content/blob-store.js';
import { type SpecSource, specSource } from './render/openapi/index.js';
import type { PublishedSpec } from './site-data.js';

/**
 * The OpenAPI documents a page draws, read before it is drawn (the renderer is synchronous).
 * A block names its specification three ways: a spec of the organization by slug (the newest
 * version the site data names, so the page's ETag already follows it), or, in the legacy
 * `swagger` form, a file of the space or a URL, processed like a spec and cached by the
 * processing service.
 */

/** How a block names its specification (the renderer's hook takes the same). */
export type SpecRef = SpecSource;

/** What loading a page's documents calls: the processing service's read side, and the blobs. */
export interface SpecDocumentsNeeds {
  openapi: {
    /** The bundled document of a version (cached by version id). */
    versionDocument(versionId: string): Promise<unknown>;
    /** A legacy block's file text or URL, processed (cached); undefined when it does not process. */
    processedSource(
      source: { kind: 'text'; text: string; key: string } | { kind: 'url'; url: string },
    ): Promise<unknown>;
  };
  blobs: Pick<BlobStore, 'get'>;
}

/** A legacy spec file larger than this is not processed for a page (the API takes 5 MiB texts). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Distinct specifications one page may draw. */
const MAX_SPECS = 20;

/** One key per specification, whichever way it is named (slugs are case-insensitive). */
export function specKey(ref: SpecRef): string {
  return ref.kind === 'openapi'
    ? `openapi:${ref.spec.toLowerCase()}`
    : ref.kind === 'file'
      ? `file:${ref.file}`
      : `url:${ref.url}`;
}

const API_BLOCKS = new Set(['openapi-operation', 'openapi-schemas', 'openapi-webhook', 'swagger']);

/** The specification an OpenAPI block's `data.ref` names, if it is one. */
export function specRefOf(type: string | undefined, ref: unknown): SpecRef | undefined {
  if (!API_BLOCKS.has(type ?? '')) return undefined;
  const source = specSource(ref);
  // Only the legacy block names a file or a URL; a URL is fetched only over http(s).
  if (!source || (type === 'swagger') === (source.kind === 'openapi')) return undefined;
  return source.kind === 'url' && !/^https?:\/\//i.test(source.url) ? undefined : source;
}

export async function loadSpecDocuments(
  needs: SpecDocumentsNeeds,
  open: OpenContent,
  specs: Map<string, PublishedSpec>,
  refs: Iterable<SpecRef>,
): Promise<Map<string, unknown>> {
  const wanted = new Map<string, SpecRef>();
  for (const ref of refs) if (wanted.size < MAX_SPECS) wanted.set(specKey(ref), ref);
  const out = new Map<string, unknown>();
  await Promise.all(
    [...wanted].map(async ([key, ref]) => {
      const document = await loadOne(needs, open, specs, ref);
      if (document !== undefined) out.set(key, document);
    }),
  );
  return out;
}

async function loadOne(
  needs: SpecDocumentsNeeds,
  open: OpenContent,
  specs: Map<string, PublishedSpec>,
  ref: SpecRef,
): Promise<unknown> {
  try {
    if (ref.kind === 'openapi') {
      const version = specs.get(ref.spec.toLowerCase())?.last_version_id;
      return version ? await needs.openapi.versionDocument(version) : undefined;
    }
    if (ref.kind === 'url') return await needs.openapi.processedSource({ kind: 'url', url: ref.url });
    const file = open.snapshot.content.files.get(ref.file);
    if (!file || file.size > MAX_FILE_BYTES) return undefined;
    const bytes = await needs.blobs.get(file.blob);
    return bytes
      ? await needs.openapi.processedSource({ kind: 'text', text: bytes.toString('utf8'), key: file.blob })
      : undefined;
  } catch {
    // A specification that cannot be read draws the block's notice, never a failed page.
    return undefined;
  }
}
