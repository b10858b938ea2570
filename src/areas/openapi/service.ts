import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { orgAllows } from '../../auth/org-policy.js';
import type { BlobStore } from '../../content/blob-store.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { OpenApiSpecsTable, OpenApiSpecVersionsTable, OpenApiVisibility } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import type { OutboundClient } from '../../http/outbound.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { OpenApiDocumentJson, SpecFormat } from '../../openapi/document.js';
import { SpecDocuments, type SpecSourceInput } from './documents.js';
import type { SpecView } from './present.js';
import { type OpenApiTies, SpecProcessor } from './processing.js';
import { type CreateSpecBody, type OpenApiSpecSource, SLUG, SLUG_MAX, SLUG_PATTERN } from './schemas.js';

/** The services the OpenAPI area calls. */
export interface OpenApiNeeds {
  authz: Pick<Authorizer, 'org'>;
  jobs: Pick<JobQueue, 'enqueue' | 'register' | 'schedule'>;
  blobs: Pick<BlobStore, 'get' | 'put'>;
  outbound: Pick<OutboundClient, 'fetch'>;
  ties: OpenApiTies;
}

type Source = { url: string; blob: null } | { url: null; blob: string };
type CheckedSource = { url: string; text?: undefined } | { url?: undefined; text: string };

/** Exactly one of url and text, and an http(s) URL (the official schema's oneOf, worded). */
function checkSource(source: OpenApiSpecSource): CheckedSource {
  const { url, text } = source;
  if (url !== undefined && text !== undefined) {
    throw invalidField('body.source', 'must have either url or text, not both');
  }
  if (url !== undefined) {
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') {
      throw invalidField(
        'body.source.url',
        'must be an absolute http:// or https:// URL (the specification is fetched from it)',
      );
    }
    return { url };
  }
  if (text === undefined) {
    throw invalidField(
      'body.source',
      'must have url (where to fetch the specification) or text (the specification itself)',
    );
  }
  return { text };
}

export interface VersionOf {
  spec: OpenApiSpecsTable;
  version: OpenApiSpecVersionsTable;
}

/** `latest`, or a version id. */
export type VersionRef = string;

/**
 * OpenAPI specifications of an organization (API.md 4.3): commands and queries, and what the
 * published site reads (the processed document of a spec, or of a legacy block's own source).
 * Members read specs; the createOpenAPISpec role (create and up) creates, changes and deletes
 * them. Processing runs in the background (processing.ts).
 */
export class OpenApiService {
  private readonly processor: SpecProcessor;
  private readonly documents: SpecDocuments;

  constructor(
    private readonly deps: Deps,
    private readonly services: OpenApiNeeds,
  ) {
    this.processor = new SpecProcessor(deps, services);
    this.documents = new SpecDocuments(deps, services, (orgId, slug) => this.find(deps.db, orgId, slug));
  }

  registerJobs(): void {
    this.processor.registerJobs();
  }

  /** Enqueues a run for every URL source now (what the schedule does); answers how many. */
  refreshAll(): Promise<number> {
    return this.processor.refreshAll();
  }

  // What the published site calls (no caller: visibility is the site's business).

  /** The processed document of the spec's latest version; undefined when none (or no such spec). */
  latestDocument(orgId: string, slug: string): Promise<OpenApiDocumentJson | undefined> {
    return this.documents.latest(orgId, slug);
  }

  /** The processed document of a version (the site reads a spec's `last_version_id` with its own data). */
  versionDocument(versionId: string): Promise<OpenApiDocumentJson | undefined> {
    return this.documents.ofVersion(versionId);
  }

  /** A legacy `swagger` block's own source (a file's text or a URL), processed; undefined when it fails. */
  processedSource(source: SpecSourceInput): Promise<OpenApiDocumentJson | undefined> {
    return this.documents.fromSource(source);
  }

  /** The public raw URL of a public spec; undefined while it is private (or missing). */
  async publicUrl(orgId: string, slug: string): Promise<string | undefined> {
    const spec = await this.find(this.deps.db, orgId, slug);
    return spec?.visibility === 'public' ? this.documents.publicUrl(spec) : undefined;
  }

  // Lookups.

  /** Slugs name specs case-insensitively; a slug that breaks the rule names none. */
  private async find(db: Db | Tx, orgId: string, slug: string, lock = false) {
    if (slug.length > SLUG_MAX || !SLUG.test(slug)) return undefined;
    let query = db
      .selectFrom('openapi_specs')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('slug_key', '=', slug.toLowerCase());
    if (lock && this.deps.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  private async readable(actor: Actor, orgId: string, slug: string): Promise<SpecView> {
    const membership = await this.services.authz.org(actor, orgId, 'view');
    const row = await this.find(this.deps.db, orgId, slug);
    if (!row) throw notFound(`OpenAPI specification "${slug}" not found`);
    return { row, edit: orgAllows(membership.role, 'createOpenAPISpec') };
  }

  private async editable(actor: Actor, orgId: string, slug: string): Promise<SpecView> {
    await this.services.authz.org(actor, orgId, 'createOpenAPISpec');
    const row = await this.find(this.deps.db, orgId, slug);
    if (!row) throw notFound(`OpenAPI specification "${slug}" not found`);
    return { row, edit: true };
  }

  // Queries.

  async list(actor: Actor, orgId: string, request: PageRequest): Promise<Page<SpecView>> {
    const membership = await this.services.authz.org(actor, orgId, 'view');
    const edit = orgAllows(membership.role, 'createOpenAPISpec');
    const page = await paginate(
      this.deps.db,
      this.deps.db.selectFrom('openapi_specs').selectAll().where('org_id', '=', orgId),
      [{ ref: 'slug_key', dir: 'asc', value: (r) => r.slug_key }],
      request,
      'openapi-specs',
    );
    return { ...page, items: page.items.map((row) => ({ row, edit })) };
  }

  get(actor: Actor, orgId: string, slug: string): Promise<SpecView> {
    return this.readable(actor, orgId, slug);
  }

  async listVersions(
    actor: Actor,
    orgId: string,
    slug: string,
    request: PageRequest,
  ): Promise<{ spec: OpenApiSpecsTable; page: Page<OpenApiSpecVersionsTable> }> {
    const { row: spec } = await this.readable(actor, orgId, slug);
    const page = await paginate(
      this.deps.db,
      this.deps.db.selectFrom('openapi_spec_versions').selectAll().where('spec_id', '=', spec.id),
      [{ ref: 'seq', dir: 'desc', value: (r) => r.seq }],
      request,
      'openapi-versions',
    );
    return { spec, page };
  }

  async version(actor: Actor, orgId: string, slug: string, ref: VersionRef): Promise<VersionOf> {
    const { row: spec } = await this.readable(actor, orgId, slug);
    const id = ref === 'latest' ? spec.last_version_id : ref;
    const version =
      id === null
        ? undefined
        : await this.deps.db
            .selectFrom('openapi_spec_versions')
            .selectAll()
            .where('spec_id', '=', spec.id)
            .where('id', '=', id)
            .executeTakeFirst();
    if (!version) {
      throw notFound(
        ref === 'latest'
          ? `OpenAPI specification "${slug}" has no processed version yet (processingState: ${spec.processing_state})`
          : `Version "${ref}" of OpenAPI specification "${slug}" not found`,
      );
    }
    return { spec, version };
  }

  /** The version's processed document, as the JSON text stored. */
  async content(
    actor: Actor,
    orgId: string,
    slug: string,
    ref: VersionRef,
  ): Promise<VersionOf & { documentJson: string }> {
    const found = await this.version(actor, orgId, slug, ref);
    return { ...found, documentJson: await this.blobText(found.version.document_blob) };
  }

  /** The version's entry file, exactly as submitted or fetched. */
  async rawContent(
    actor: Actor,
    orgId: string,
    slug: string,
    ref: VersionRef,
  ): Promise<{ text: string; format: SpecFormat }> {
    const { version } = await this.version(actor, orgId, slug, ref);
    return { text: await this.blobText(version.raw_blob), format: version.raw_format };
  }

  /**
   * What the public URL serves, without a token: undefined unless the spec is public and has a
   * version. The entry file as written, or, when it pulled in other files (whose relative refs
   * would not resolve next to the public URL), the bundled document.
   */
  async publicContent(
    orgId: string,
    slug: string,
  ): Promise<{ versionId: string; body: Buffer; format: SpecFormat } | undefined> {
    const spec = await this.find(this.deps.db, orgId, slug);
    if (spec?.visibility !== 'public' || spec.last_version_id === null) return undefined;
    const version = await this.deps.db
      .selectFrom('openapi_spec_versions')
      .selectAll()
      .where('id', '=', spec.last_version_id)
      .executeTakeFirst();
    if (!version) return undefined;
    const bundled = version.external_documents > 0;
    const body = await this.services.blobs.get(bundled ? version.document_blob : version.raw_blob);
    if (!body) return undefined;
    return { versionId: version.id, body, format: bundled ? 'json' : version.raw_format };
  }

  private async blobText(hash: string): Promise<string> {
    const data = await this.services.blobs.get(hash);
    if (!data) throw notFound('The content of this version is missing from storage');
    return data.toString('utf8');
  }

  // Commands.

  async create(actor: Actor, orgId: string, body: CreateSpecBody): Promise<SpecView> {
    await this.services.authz.org(actor, orgId, 'createOpenAPISpec');
    const checked = checkSource(body.source);
    const taken = () =>
      conflict(`An OpenAPI specification with the slug "${body.slug}" already exists in this organization`);
    if (await this.find(this.deps.db, orgId, body.slug)) throw taken();
    const source = await this.storeSource(checked);
    try {
      const row = await this.deps.db
        .transaction()
        .execute((tx) => this.insert(tx, actor, orgId, body.slug, source));
      return { row, edit: true };
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** Creates the spec or replaces its source; `created` tells which (201 or 200). */
  async put(
    actor: Actor,
    orgId: string,
    slug: string,
    input: OpenApiSpecSource,
  ): Promise<{ view: SpecView; created: boolean }> {
    await this.services.authz.org(actor, orgId, 'createOpenAPISpec');
    if (slug.length > SLUG_MAX || !SLUG.test(slug)) {
      throw invalidField(
        'params.specSlug',
        `must be 1 to ${SLUG_MAX} letters, digits and single hyphens between them (pattern ${SLUG_PATTERN})`,
      );
    }
    const source = await this.storeSource(checkSource(input));
    const attempt = () =>
      this.deps.db.transaction().execute(async (tx) => {
        const existing = await this.find(tx, orgId, slug, true);
        if (!existing) return { row: await this.insert(tx, actor, orgId, slug, source), created: true };
        return { row: await this.replaceSource(tx, existing, source), created: false };
      });
    let result: { row: OpenApiSpecsTable; created: boolean };
    try {
      result = await attempt();
    } catch (error) {
      // Another request created the slug at the same moment: this one then updates it.
      if (!isUniqueViolation(error)) throw error;
      result = await attempt();
    }
    return { view: { row: result.row, edit: true }, created: result.created };
  }

  async setVisibility(
    actor: Actor,
    orgId: string,
    slug: string,
    visibility: OpenApiVisibility,
  ): Promise<SpecView> {
    const { row } = await this.editable(actor, orgId, slug);
    const updated_at = this.deps.clock.now().toISOString();
    await this.deps.db
      .updateTable('openapi_specs')
      .set({ visibility, updated_at })
      .where('id', '=', row.id)
      .execute();
    return { row: { ...row, visibility, updated_at }, edit: true };
  }

  /** Deletes the spec and its versions; a spec already gone is not an error (204 either way). */
  async delete(actor: Actor, orgId: string, slug: string): Promise<void> {
    await this.services.authz.org(actor, orgId, 'view');
    const row = await this.find(this.deps.db, orgId, slug);
    if (!row) return;
    await this.services.authz.org(actor, orgId, 'createOpenAPISpec');
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('openapi_spec_versions').where('spec_id', '=', row.id).execute();
      await tx.deleteFrom('openapi_specs').where('id', '=', row.id).execute();
      if (row.last_version_id) await this.services.ties.specChanged(tx, orgId, row.slug_key);
    });
  }

  /** Puts a text source in the blob store (before the transaction: an unrecorded blob is harmless). */
  private async storeSource(source: CheckedSource): Promise<Source> {
    if (source.url !== undefined) return { url: source.url, blob: null };
    const { hash } = await this.services.blobs.put(Buffer.from(source.text, 'utf8'));
    return { url: null, blob: hash };
  }

  private async insert(
    tx: Tx,
    actor: Actor,
    orgId: string,
    slug: string,
    source: Source,
  ): Promise<OpenApiSpecsTable> {
    const now = this.deps.clock.now().toISOString();
    const row: OpenApiSpecsTable = {
      id: newId(),
      org_id: orgId,
      slug,
      slug_key: slug.toLowerCase(),
      source_url: source.url,
      source_blob: source.blob,
      source_rev: 1,
      visibility: 'private',
      processing_state: 'pending',
      last_version_id: null,
      last_processed_at: null,
      last_error_code: null,
      last_errors: null,
      last_error_count: 0,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('openapi_specs').values(row).execute();
    await this.processor.enqueue(tx, row.id, row.source_rev);
    return row;
  }

  private async replaceSource(tx: Tx, row: OpenApiSpecsTable, source: Source): Promise<OpenApiSpecsTable> {
    const changes = {
      source_url: source.url,
      source_blob: source.blob,
      source_rev: row.source_rev + 1,
      processing_state: 'pending' as const,
      updated_at: this.deps.clock.now().toISOString(),
    };
    await tx.updateTable('openapi_specs').set(changes).where('id', '=', row.id).execute();
    await this.processor.enqueue(tx, row.id, changes.source_rev);
    return { ...row, ...changes };
  }
}
