import type { BlobStore } from '../../content/blob-store.js';
import type { Tx } from '../../db/database.js';
import type { OpenApiSpecsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { OutboundClient } from '../../http/outbound.js';
import { newId } from '../../ids.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import type { ProcessedSpec, ProcessingIssue, ProcessOutcome } from '../../openapi/document.js';
import { processSpec, type SpecSource } from '../../openapi/process.js';

/**
 * Processing specs in the background. A command that sets a source bumps the spec's
 * `source_rev` and enqueues a run for that revision, in its own transaction; a run whose
 * revision is no longer the spec's does nothing, so a burst of updates costs one run, and a slow
 * run of an old source never overwrites what a newer one recorded. A run ends the spec
 * `complete`: with a new version when the document's content changed, and with a failure code
 * (the last good version kept) when the source could not be fetched or read.
 *
 * URL sources are refreshed on a schedule (QUIRE_OPENAPI_REFRESH_MINUTES).
 */

export const PROCESS_JOB = 'openapi.process';
export const REFRESH_JOB = 'openapi.refresh';
const MAX_ATTEMPTS = 3;

interface ProcessPayload {
  specId: string;
  rev: number;
}

export interface ProcessingNeeds {
  jobs: Pick<JobQueue, 'enqueue' | 'register' | 'schedule'>;
  blobs: Pick<BlobStore, 'get' | 'put'>;
  outbound: Pick<OutboundClient, 'fetch'>;
  ties: OpenApiTies;
}

/** What other areas keep of specs' content and are told when it changes. */
export interface OpenApiTies {
  /** A spec of the organization got a new version or went: what was read from it is stale. */
  specChanged(tx: Tx, orgId: string, slug: string): Promise<void>;
}

export class SpecProcessor {
  constructor(
    private readonly deps: Deps,
    private readonly services: ProcessingNeeds,
  ) {}

  registerJobs(): void {
    const { jobs } = this.services;
    jobs.register(PROCESS_JOB, (payload, context) => this.run(payload as ProcessPayload, context), {
      maxAttempts: MAX_ATTEMPTS,
      onLost: (payload) =>
        this.recordStopped(
          payload as ProcessPayload,
          'Processing stopped because the server running it stopped; update the specification to process it again',
        ),
    });
    jobs.register(REFRESH_JOB, async () => {
      await this.refreshAll();
    });
    const minutes = this.deps.config.openapiRefreshMinutes;
    if (minutes > 0) jobs.schedule(REFRESH_JOB, minutes * 60_000, REFRESH_JOB);
  }

  /** Inside the command's transaction: the run exists only if the command commits. */
  async enqueue(tx: Tx, specId: string, rev: number): Promise<void> {
    await this.services.jobs.enqueue(PROCESS_JOB, { specId, rev } satisfies ProcessPayload, { tx });
  }

  /** A run for every spec with a source URL that is not waiting for one already. */
  async refreshAll(): Promise<number> {
    const rows = await this.deps.db
      .selectFrom('openapi_specs')
      .select(['id', 'source_rev'])
      .where('source_url', 'is not', null)
      .where('processing_state', '=', 'complete')
      .execute();
    for (const row of rows) {
      await this.services.jobs.enqueue(PROCESS_JOB, { specId: row.id, rev: row.source_rev });
    }
    return rows.length;
  }

  private async current(specId: string, rev: number): Promise<OpenApiSpecsTable | undefined> {
    const row = await this.deps.db
      .selectFrom('openapi_specs')
      .selectAll()
      .where('id', '=', specId)
      .executeTakeFirst();
    return row?.source_rev === rev ? row : undefined;
  }

  private async run({ specId, rev }: ProcessPayload, context: JobContext): Promise<void> {
    const spec = await this.current(specId, rev);
    if (!spec) return;
    await this.deps.db
      .updateTable('openapi_specs')
      .set({ processing_state: 'progress' })
      .where('id', '=', specId)
      .where('source_rev', '=', rev)
      .execute();
    try {
      const source = await this.sourceOf(spec);
      const outcome: ProcessOutcome =
        'ok' in source
          ? source
          : await processSpec(source, {
              fetcher: this.services.outbound,
              limits: { fetchTimeoutMs: this.deps.config.openapiFetchTimeoutMs },
              signal: context.signal,
            });
      if (context.signal.aborted) return;
      await this.record(specId, rev, outcome);
    } catch (error) {
      if (context.attempt >= MAX_ATTEMPTS && !context.signal.aborted) {
        await this.recordStopped({ specId, rev }, 'Processing failed on the server; try again later');
      }
      throw error;
    }
  }

  private async sourceOf(spec: OpenApiSpecsTable): Promise<SpecSource | ProcessOutcome> {
    if (spec.source_url !== null) return { kind: 'url', url: spec.source_url };
    const text = spec.source_blob === null ? undefined : await this.services.blobs.get(spec.source_blob);
    if (text === undefined) {
      return {
        ok: false,
        code: 'PARSE_ERROR',
        message: 'The text of this specification is missing from storage; send it again',
      };
    }
    return { kind: 'text', text: text.toString('utf8') };
  }

  /** The run's outcome, unless the spec changed source (or went) while it ran. */
  private async record(specId: string, rev: number, outcome: ProcessOutcome): Promise<void> {
    const blobs = outcome.ok ? await this.store(outcome) : undefined;
    const now = this.deps.clock.now().toISOString();
    await this.deps.db.transaction().execute(async (tx) => {
      let locked = tx.selectFrom('openapi_specs').selectAll().where('id', '=', specId);
      if (this.deps.dialect === 'postgres') locked = locked.forUpdate();
      const spec = await locked.executeTakeFirst();
      if (spec?.source_rev !== rev) return;
      if (!outcome.ok) {
        await tx
          .updateTable('openapi_specs')
          .set(this.finished(now, [{ message: outcome.message, code: outcome.code }], 1, outcome.code))
          .where('id', '=', specId)
          .execute();
        return;
      }
      const last = await tx
        .selectFrom('openapi_spec_versions')
        .select(['id', 'seq', 'hash'])
        .where('spec_id', '=', specId)
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      let versionId = last?.id ?? null;
      if (!last || last.hash !== outcome.hash) {
        versionId = newId();
        await tx
          .insertInto('openapi_spec_versions')
          .values({
            id: versionId,
            spec_id: specId,
            seq: (last?.seq ?? 0) + 1,
            hash: outcome.hash,
            document_blob: blobs!.document,
            raw_blob: blobs!.raw,
            raw_format: outcome.raw.format,
            source_url: outcome.url ?? null,
            external_documents: outcome.externalDocuments,
            created_at: now,
          })
          .execute();
        await this.services.ties.specChanged(tx, spec.org_id, spec.slug_key);
      }
      await tx
        .updateTable('openapi_specs')
        .set({
          ...this.finished(now, outcome.issues, outcome.issueCount, null),
          last_version_id: versionId,
          ...(versionId !== last?.id ? { updated_at: now } : {}),
        })
        .where('id', '=', specId)
        .execute();
    });
  }

  /** The bytes of a version, before the transaction that records it (see 0013-openapi.ts). */
  private async store(outcome: ProcessedSpec): Promise<{ document: string; raw: string }> {
    const document = await this.services.blobs.put(Buffer.from(outcome.json));
    const raw = await this.services.blobs.put(Buffer.from(outcome.raw.text));
    return { document: document.hash, raw: raw.hash };
  }

  private finished(
    now: string,
    issues: ProcessingIssue[],
    count: number,
    code: OpenApiSpecsTable['last_error_code'],
  ) {
    return {
      processing_state: 'complete' as const,
      last_processed_at: now,
      last_error_code: code,
      last_errors: JSON.stringify(issues),
      last_error_count: count,
    };
  }

  /** A run that ended without an outcome: the spec is no longer shown as in progress. */
  private async recordStopped({ specId, rev }: ProcessPayload, message: string): Promise<void> {
    await this.deps.db
      .updateTable('openapi_specs')
      .set(this.finished(this.deps.clock.now().toISOString(), [{ message }], 1, null))
      .where('id', '=', specId)
      .where('source_rev', '=', rev)
      .execute();
  }
}
