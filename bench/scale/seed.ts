import type { ContentChange } from '../../src/areas/change-requests/content-schemas.js';
import type { PageSpec } from './content.js';
import { progress, secs } from './report.js';
import type { InProcess } from './server.js';

/** Inserts per write (one new revision of the change request); the HTTP API takes 50 a call. */
export const SEED_BATCH = Number(process.env.BENCH_SEED_BATCH ?? 1000);
/** Writes per change request, then a merge. */
export const SEED_WRITES_PER_MERGE = Number(process.env.BENCH_SEED_WRITES ?? 5);

export interface Seeded {
  spaceId: string;
  /** Page ids by spec index. */
  ids: string[];
  /** Milliseconds spent writing and merging. */
  ms: number;
  writes: number;
  merges: number;
}

/**
 * Writes `specs` into a space through the services (no HTTP): change requests of
 * SEED_WRITES_PER_MERGE writes of SEED_BATCH inserts each, merged one after the other.
 */
export async function seedSpace(
  server: InProcess,
  spaceId: string,
  specs: PageSpec[],
  label: string,
): Promise<Seeded> {
  const { services, actor } = server;
  const ids: string[] = [];
  const started = performance.now();
  let writes = 0;
  let merges = 0;
  const perMerge = SEED_BATCH * SEED_WRITES_PER_MERGE;
  for (let start = 0; start < specs.length; start += perMerge) {
    const cr = await services.changeRequests.create(actor, spaceId, { subject: `Seed ${start + 1}` });
    for (let from = start; from < Math.min(specs.length, start + perMerge); from += SEED_BATCH) {
      const changes = specs.slice(from, Math.min(from + SEED_BATCH, start + perMerge)).map(
        (s): ContentChange => ({
          operation: 'insert_page',
          title: s.title,
          slug: s.slug,
          ref: String(s.index),
          // A parent written earlier in this change request's batch is named by its ref.
          ...(s.parent === null ? {} : { into: ids[s.parent] ?? String(s.parent) }),
          document: { markdown: s.markdown },
        }),
      );
      const outcome = await services.contentWrites.apply(actor, spaceId, cr.row.id, changes);
      writes++;
      for (const change of outcome.changes)
        if (change.object === 'created_page' && change.ref) ids[Number(change.ref)] = change.page;
    }
    const merged = await services.merges.merge(actor, spaceId, cr.row.id);
    if (merged.result !== 'merge') throw new Error(`seed merge answered ${merged.result}`);
    merges++;
    const done = Math.min(specs.length, start + perMerge);
    const elapsed = performance.now() - started;
    progress(
      `  ${label}: ${done}/${specs.length} pages in ${secs(elapsed)} (${Math.round((done / elapsed) * 1000)} pages/s)`,
      done === specs.length,
    );
  }
  if (ids.length !== specs.length || ids.some((id) => !id))
    throw new Error(`seeding ${label} created ${ids.filter(Boolean).length} of ${specs.length} pages`);
  return { spaceId, ids, ms: performance.now() - started, writes, merges };
}
