import { createHash } from 'node:crypto';
import type { BlobStore } from '../../content/blob-store.js';
import type { OpenApiSpecsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { OutboundClient } from '../../http/outbound.js';
import { Lru } from '../../lru.js';
import type { OpenApiDocumentJson } from '../../openapi/document.js';
import { processSpec } from '../../openapi/process.js';
import { publicSpecUrl } from './present.js';

/**
 * Processed documents for the published site, which draws API references from them on every
 * page view: parsed once and kept, by version id (a version never changes), or, for a legacy
 * block's own source, by the file's key or the URL (a URL for a while only: it may change).
 * Concurrent requests for the same document share one load.
 */

/** A legacy `swagger` block's source: a file's text (with a stable key, e.g. its hash), or a URL. */
export type SpecSourceInput = { kind: 'text'; text: string; key?: string } | { kind: 'url'; url: string };

/** Parsed documents can be large: a few are kept. */
const VERSIONS_KEPT = 16;
const SOURCES_KEPT = 32;
const URL_TTL_MS = 15 * 60_000;
/** A source that failed is not tried again on every page view. */
const FAILURE_TTL_MS = 60_000;
/** Processed while a visitor waits for the page: shorter than a background run may take. */
const RENDER_LIMITS = { fetchTimeoutMs: 10_000, totalTimeMs: 20_000 };

interface SourceEntry {
  document: OpenApiDocumentJson | undefined;
  until: number;
}

export class SpecDocuments {
  private readonly byVersion = new Lru<string, OpenApiDocumentJson>(VERSIONS_KEPT);
  private readonly bySource = new Lru<string, SourceEntry>(SOURCES_KEPT);
  private readonly loading = new Map<string, Promise<OpenApiDocumentJson | undefined>>();

  constructor(
    private readonly deps: Deps,
    private readonly services: { blobs: Pick<BlobStore, 'get'>; outbound: Pick<OutboundClient, 'fetch'> },
    private readonly find: (orgId: string, slug: string) => Promise<OpenApiSpecsTable | undefined>,
  ) {}

  publicUrl(spec: OpenApiSpecsTable): string {
    return publicSpecUrl(this.deps.urls, spec);
  }

  async latest(orgId: string, slug: string): Promise<OpenApiDocumentJson | undefined> {
    const versionId = (await this.find(orgId, slug))?.last_version_id;
    return versionId ? this.ofVersion(versionId) : undefined;
  }

  async ofVersion(versionId: string): Promise<OpenApiDocumentJson | undefined> {
    const cached = this.byVersion.get(versionId);
    if (cached) return cached;
    return this.once(`version:${versionId}`, async () => {
      const version = await this.deps.db
        .selectFrom('openapi_spec_versions')
        .select('document_blob')
        .where('id', '=', versionId)
        .executeTakeFirst();
      const data = version && (await this.services.blobs.get(version.document_blob));
      if (!data) return undefined;
      const document = JSON.parse(data.toString('utf8')) as OpenApiDocumentJson;
      this.byVersion.set(versionId, document);
      return document;
    });
  }

  async fromSource(source: SpecSourceInput): Promise<OpenApiDocumentJson | undefined> {
    const key =
      source.kind === 'url'
        ? `url:${source.url}`
        : `text:${source.key ?? createHash('sha256').update(source.text).digest('hex')}`;
    const hit = this.bySource.get(key);
    if (hit && hit.until > this.deps.clock.now().getTime()) return hit.document;
    return this.once(key, async () => {
      const outcome = await processSpec(
        source.kind === 'url' ? { kind: 'url', url: source.url } : { kind: 'text', text: source.text },
        {
          fetcher: this.services.outbound,
          limits: {
            ...RENDER_LIMITS,
            fetchTimeoutMs: Math.min(RENDER_LIMITS.fetchTimeoutMs, this.deps.config.openapiFetchTimeoutMs),
          },
        },
      ).catch((error: unknown) => {
        // A page draws a notice for a source it cannot use; a bug here must not fail the page.
        this.deps.log.error({ err: error }, 'processing an OpenAPI block source failed');
        return undefined;
      });
      const document = outcome?.ok ? outcome.document : undefined;
      // A text's key names its content: what it gave stays true for as long as it is kept.
      const ttl = !document ? FAILURE_TTL_MS : source.kind === 'url' ? URL_TTL_MS : Number.POSITIVE_INFINITY;
      this.bySource.set(key, { document, until: this.deps.clock.now().getTime() + ttl });
      return document;
    });
  }

  private once(
    key: string,
    load: () => Promise<OpenApiDocumentJson | undefined>,
  ): Promise<OpenApiDocumentJson | undefined> {
    const running = this.loading.get(key);
    if (running) return running;
    const promise = load().finally(() => this.loading.delete(key));
    this.loading.set(key, promise);
    return promise;
  }
}
