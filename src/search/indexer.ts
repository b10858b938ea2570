import { type Insertable, sql } from 'kysely';
import type { OpenApiService } from '../areas/openapi/service.js';
import { findTreeHash, revisionTreeHash } from '../content/revisions.js';
import type { ContentStore, Snapshot } from '../content/store.js';
import type { Tx } from '../db/database.js';
import type { SearchSpacesTable } from '../db/tables.js';
import type { Deps } from '../deps.js';
import { ANALYZER_VERSION } from './analyzer.js';
import type { IndexedPage, PagePlace, SearchIndex } from './search-index.js';
import { preparePages, type SyncReads } from './sync-pages.js';

/**
 * Keeps the index on every space's current revision. A sync diffs the revision the index
 * holds against the space's current one (ContentStore.diff walks only the buckets that
 * differ) and re-indexes the pages whose nodes changed; pages below a page that moved, was
 * renamed or hidden get their new path and ancestors without being re-read. On PostgreSQL
 * everything for a space is written in one transaction together with the revision it now holds,
 * so a crash leaves the index on the old revision, never between two. On SQLite a large sync is
 * written in steps (see STEP_PAGES), and a crash between two leaves a mark from which the next
 * sync (a job, the reconciliation, or a search) writes the same revision again, then the current.
 */

/** `deferred`: a bounded sync (`SyncBound`) left the space to a sync in the background. */
export type SyncOutcome = 'fresh' | 'updated' | 'removed' | 'deferred';

/**
 * How large a sync may be for a search to run it before it answers (engine.ts `catchUp`): more
 * changed pages, or more pages below moved ones, and the search answers from the index as it is
 * while the background job the change queued writes it.
 */
export interface SyncBound {
  pages: number;
  places: number;
}

/**
 * Whether the index is behind a space: missing, another revision, language or analyzer, or a sync
 * in steps stopped part way (see `writeInSteps`).
 */
export const STALE = sql<boolean>`(x.space_id IS NULL OR x.revision_id <> s.revision_id
  OR x.pending_revision_id IS NOT NULL
  OR x.version <> ${sql.lit(ANALYZER_VERSION)}
  OR COALESCE(x.language, '') <> COALESCE(s.language, ''))`;

/**
 * Syncs optimize the index (SearchIndex.optimize) once they wrote this many pages together, or as
 * many as the index asks for (`SearchIndex.optimizeAfter`: on SQLite, half the pages indexed);
 * the sync that gets there optimizes before it answers when it wrote this many itself, else in
 * the background. 10,000 spaces of two pages each, indexed one after the other, left PostgreSQL
 * planning an organization's search without statistics and reading 4 MB pending in each GIN
 * index (p99 126 ms).
 */
const OPTIMIZE_AFTER_PAGES = 1000;

/**
 * On SQLite a sync of more pages than this writes them in steps of this many, a transaction each,
 * with a turn of the event loop between two: the transaction holds SQLite's only connection, and
 * statements are about a millisecond a page, so a sync of 1,000 pages in one transaction kept
 * every other request waiting a second (bench/site). PostgreSQL writes a sync in one transaction:
 * other requests go on over other connections meanwhile.
 */
const STEP_PAGES = 64;
/** Pages below moved ones given their new place per step (a few milliseconds on SQLite). */
const STEP_PLACES = 2_000;

/** A part of a sync in steps (see `writeInSteps`). */
interface Step {
  remove: string[];
  pages: IndexedPage[];
  places: PagePlace[];
}

/** What the row of a space's index holds, as a write expects to find it. */
interface IndexState {
  revision: string | null;
  pending: string | null;
}

export class SearchIndexer {
  constructor(
    private readonly deps: Deps,
    private readonly services: {
      store: Pick<ContentStore, 'snapshot' | 'diff' | 'readBodies'>;
      /** The words of API reference blocks come from the organization's specifications. */
      openapi: Pick<OpenApiService, 'latestDocument'>;
    },
    private readonly index: SearchIndex,
    /** Sizes of a sync's steps on SQLite (see STEP_PAGES). */
    private readonly steps = { pages: STEP_PAGES, places: STEP_PLACES },
  ) {
    this.reads = { db: deps.db, store: services.store, openapi: services.openapi };
  }

  private readonly reads: SyncReads;

  /** Pages written by syncs since the index was last optimized. */
  private written = 0;
  /** How many written pages the next optimize waits for, once asked (`SearchIndex.optimizeAfter`). */
  private optimizeAt: number | undefined;
  private optimizing: Promise<void> | undefined;
  /** The last sync or refresh of each space started in this process (see `exclusive`). */
  private readonly busy = new Map<string, Promise<unknown>>();
  /**
   * Spaces a bounded sync found too far behind, with the states it compared: the searches that
   * follow, until the index or the space moves, defer without diffing the trees again (a
   * never-indexed space of 100,000 pages lists all its pages to count them).
   */
  private readonly deferred = new Map<string, string>();

  /**
   * Brings one space's index to its current revision; answers what it did. With a bound, a sync
   * larger than it is not run ('deferred'), nor is one waited for while this process runs
   * another of the space: that one brings the index up to date.
   */
  sync(spaceId: string, bound?: SyncBound): Promise<SyncOutcome> {
    if (bound && this.busy.has(spaceId)) return Promise.resolve('deferred');
    return this.exclusive(spaceId, () => this.syncNow(spaceId, bound));
  }

  /**
   * Runs the syncs and refreshes of a space in this process one after the other: between the
   * steps of a sync the index holds part of its pages (see `writeInSteps`), and another sync or a
   * refresh would take that for the leftover of a stopped one, or write pages it then overwrites.
   */
  private exclusive<T>(spaceId: string, work: () => Promise<T>): Promise<T> {
    const before = this.busy.get(spaceId);
    const run = before ? before.then(work, work) : work();
    this.busy.set(spaceId, run);
    const done = () => {
      if (this.busy.get(spaceId) === run) this.busy.delete(spaceId);
    };
    run.then(done, done);
    return run;
  }

  private async syncNow(spaceId: string, bound?: SyncBound): Promise<SyncOutcome> {
    for (let raced = 0; ; ) {
      const outcome = await this.trySync(spaceId, bound);
      if (outcome === 'resumed') continue;
      if (outcome !== 'raced') return outcome;
      // Another indexer moved the space's index meanwhile: start again from where it is now.
      if (++raced > 3) throw new Error(`search index of space ${spaceId} kept changing during a sync`);
    }
  }

  private async trySync(spaceId: string, bound?: SyncBound): Promise<SyncOutcome | 'raced' | 'resumed'> {
    const { db } = this.deps;
    const space = await db
      .selectFrom('spaces')
      .select(['id', 'org_id', 'revision_id', 'language'])
      .where('id', '=', spaceId)
      .executeTakeFirst();
    const state = await db
      .selectFrom('search_spaces')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    const found: IndexState = {
      revision: state?.revision_id ?? null,
      pending: state?.pending_revision_id ?? null,
    };
    if (!space) {
      if (!state) return 'fresh';
      await this.write(spaceId, found, (tx) => this.index.dropSpace(tx, spaceId));
      return 'removed';
    }
    const language = space.language ?? null;
    const compared = `${space.revision_id}|${language}|${state?.revision_id}|${state?.version}|${state?.language}`;
    if (bound && this.deferred.get(spaceId) === compared) return 'deferred';
    const sameAnalysis = state && state.version === ANALYZER_VERSION && (state.language ?? null) === language;
    if (sameAnalysis && state.revision_id === space.revision_id && !found.pending) return 'fresh';
    // A sync in steps is under way (another process) or stopped part way: large either way.
    if (bound && found.pending) return 'deferred';

    // A sync in steps that stopped part way (its process stopped) left some of its pages written:
    // its revision is finished first, from the same revision and so over the same pages, then
    // the space's current one. Without its revision, the space is indexed whole.
    const { store } = this.services;
    let revisionId = space.revision_id;
    let lost = false;
    if (found.pending && found.pending !== space.revision_id) {
      if (await findTreeHash(db, found.pending)) revisionId = found.pending;
      else lost = true;
    }
    const resuming = revisionId !== space.revision_id;
    const treeHash = await revisionTreeHash(db, revisionId);
    const next = await store.snapshot(db, treeHash);
    let previous: Snapshot | undefined;
    if (sameAnalysis && !lost) {
      try {
        previous = await store.snapshot(db, state.tree_hash);
      } catch {
        previous = undefined; // the old tree is gone: index everything again
      }
    }
    const changed = previous
      ? (await store.diff(db, previous, next)).pages
      : new Set(next.content.pages.keys());
    if (bound && changed.size > bound.pages) return this.deferral(spaceId, compared);
    const preparing = performance.now();
    const { pages, places } = await preparePages(this.reads, space.org_id, next, previous?.content, changed);
    if (bound && places.length > bound.places) return this.deferral(spaceId, compared);
    this.deferred.delete(spaceId);
    this.deps.log.debug(
      {
        spaceId,
        changed: changed.size,
        pages: pages.length,
        moved: places.length,
        ms: Math.round(performance.now() - preparing),
        whole: !previous,
        resuming,
      },
      'search index sync prepared',
    );
    const target = {
      space_id: spaceId,
      revision_id: revisionId,
      tree_hash: treeHash,
      language,
      version: ANALYZER_VERSION,
      indexed_at: this.deps.clock.now().toISOString(),
      pending_revision_id: null,
    };
    const writing = performance.now();
    const writeIn: Step = { remove: [...changed], pages, places };
    const stepped =
      this.deps.dialect === 'sqlite' &&
      (changed.size > this.steps.pages || places.length > this.steps.places);
    const outcome = stepped
      ? await this.writeInSteps(spaceId, found, target, Boolean(previous), writeIn)
      : await this.write(spaceId, found, async (tx) => {
          // Indexed whole, the space is dropped first (without a row, it has nothing indexed:
          // `write` found none under the space's lock), and written as a space with nothing.
          if (!previous && state) await this.index.dropSpace(tx, spaceId);
          await this.writeStep(tx, spaceId, language, writeIn, !previous);
          await this.writeRow(tx, target);
        });
    this.deps.log.debug(
      { spaceId, pages: pages.length, outcome, ms: Math.round(performance.now() - writing), stepped },
      'search index sync written',
    );
    if (outcome === 'raced') return 'raced';
    this.written += pages.length;
    if (this.written >= OPTIMIZE_AFTER_PAGES && !this.optimizing) {
      this.optimizeAt ??= Math.max(OPTIMIZE_AFTER_PAGES, await this.index.optimizeAfter());
      if (this.written >= this.optimizeAt) {
        this.written = 0;
        this.optimizeAt = undefined;
        // A large sync optimizes before it answers; smaller ones leave it to the background.
        if (pages.length >= OPTIMIZE_AFTER_PAGES) await this.index.optimize();
        else
          this.optimizing = this.index
            .optimize()
            .catch((error: unknown) =>
              this.deps.log.warn({ err: error }, 'optimizing the search index failed'),
            )
            .finally(() => {
              this.optimizing = undefined;
            });
      }
    }
    return resuming ? 'resumed' : 'updated';
  }

  private deferral(spaceId: string, compared: string): 'deferred' {
    this.deferred.delete(spaceId);
    // The oldest go first: a process meets few spaces that far behind at once.
    if (this.deferred.size >= 1000) this.deferred.delete(this.deferred.keys().next().value!);
    this.deferred.set(spaceId, compared);
    return 'deferred';
  }

  /**
   * Writes a sync in steps (SQLite, see STEP_PAGES). The first step names the revision being
   * written in the space's row (`pending_revision_id`), the last writes that revision as the one
   * the index holds. Between them searches find some pages as of the new revision and some as of
   * the old; a write of a page replaces whatever is indexed of it, so a sync that finds a stopped
   * one's mark writes the same pages again (see `trySync`). A space indexed whole is dropped by
   * the first step, and its row says so (analyzer version 0) until the last.
   */
  private async writeInSteps(
    spaceId: string,
    found: IndexState,
    target: Insertable<SearchSpacesTable>,
    incremental: boolean,
    all: Step,
  ): Promise<'done' | 'raced'> {
    const keep = new Set(all.pages.map((page) => page.pageId));
    // Indexed whole, the space is dropped first: nothing of it to remove.
    const remove = incremental ? all.remove.filter((id) => !keep.has(id)) : [];
    const steps: Step[] = [];
    for (let i = 0; i < remove.length; i += this.steps.pages)
      steps.push({ remove: remove.slice(i, i + this.steps.pages), pages: [], places: [] });
    for (let i = 0; i < all.pages.length; i += this.steps.pages) {
      const pages = all.pages.slice(i, i + this.steps.pages);
      steps.push({ remove: pages.map((page) => page.pageId), pages, places: [] });
    }
    for (let i = 0; i < all.places.length; i += this.steps.places)
      steps.push({ remove: [], pages: [], places: all.places.slice(i, i + this.steps.places) });
    const marked: IndexState = {
      revision: incremental ? found.revision : (found.revision ?? ''),
      pending: target.revision_id,
    };
    for (const [i, step] of steps.entries()) {
      if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const outcome = await this.write(spaceId, i === 0 ? found : marked, async (tx) => {
        if (i === 0) {
          if (!incremental && found.revision !== null) await this.index.dropSpace(tx, spaceId);
          await this.mark(tx, spaceId, marked, incremental ? undefined : target);
        }
        await this.writeStep(tx, spaceId, target.language ?? null, step, !incremental && i === 0);
        if (i === steps.length - 1) await this.writeRow(tx, target);
      });
      if (outcome === 'raced') return 'raced';
    }
    return 'done';
  }

  /** The mark of a sync in steps; for a space indexed whole, a row that no search takes as current. */
  private async mark(
    tx: Tx,
    spaceId: string,
    marked: IndexState,
    whole: Insertable<SearchSpacesTable> | undefined,
  ): Promise<void> {
    if (!whole) {
      await tx
        .updateTable('search_spaces')
        .set({ pending_revision_id: marked.pending })
        .where('space_id', '=', spaceId)
        .execute();
      return;
    }
    await this.writeRow(tx, {
      ...whole,
      revision_id: marked.revision ?? '',
      tree_hash: '',
      version: 0,
      pending_revision_id: marked.pending,
    });
  }

  /** `empty`: the space has nothing indexed (see SearchIndex.writePages). */
  private async writeStep(
    tx: Tx,
    spaceId: string,
    language: string | null,
    step: Step,
    empty = false,
  ): Promise<void> {
    if (step.remove.length > 0 || step.pages.length > 0)
      await this.index.writePages(tx, spaceId, language, step.remove, step.pages, empty);
    if (step.places.length > 0) await this.index.movePages(tx, spaceId, step.places);
  }

  private async writeRow(tx: Tx, row: Insertable<SearchSpacesTable>): Promise<void> {
    await tx
      .insertInto('search_spaces')
      .values(row)
      .onConflict((oc) => oc.column('space_id').doUpdateSet(row))
      .execute();
  }

  /**
   * Runs `work` in a transaction, provided the row of the space's index still holds `expected`
   * (its revision, null: no row, and the mark of a sync in steps) once the transaction holds the
   * space's lock; answers 'raced' when it does not.
   */
  private async write(spaceId: string, expected: IndexState, work: (tx: Tx) => Promise<void>) {
    return this.deps.db.transaction().execute(async (tx): Promise<'done' | 'raced'> => {
      if (this.deps.dialect === 'postgres')
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`quire.search:${spaceId}`}))`.execute(tx);
      const now = await tx
        .selectFrom('search_spaces')
        .select(['revision_id', 'pending_revision_id'])
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      if ((now?.revision_id ?? null) !== expected.revision) return 'raced';
      if ((now?.pending_revision_id ?? null) !== expected.pending) return 'raced';
      await work(tx);
      return 'done';
    });
  }

  /**
   * Indexes `pageIds` of a space again, as of the revision its index holds: a spec they draw
   * changed, not the pages. The space is brought up to date first, so pages that changed
   * meanwhile are not left with the older words.
   */
  refreshPages(spaceId: string, pageIds: string[]): Promise<void> {
    return this.exclusive(spaceId, async () => {
      await this.syncNow(spaceId);
      for (let attempt = 0; ; attempt++) {
        const { db } = this.deps;
        const state = await db
          .selectFrom('search_spaces as x')
          .innerJoin('spaces as s', 's.id', 'x.space_id')
          .select(['s.org_id', 'x.revision_id', 'x.tree_hash', 'x.language'])
          .where('x.space_id', '=', spaceId)
          .executeTakeFirst();
        if (!state) return;
        const snapshot = await this.services.store.snapshot(db, state.tree_hash);
        const { pages } = await preparePages(this.reads, state.org_id, snapshot, undefined, new Set(pageIds));
        const expected = { revision: state.revision_id, pending: null };
        const outcome = await this.write(spaceId, expected, (tx) =>
          this.index.writePages(tx, spaceId, state.language ?? null, pageIds, pages),
        );
        if (outcome === 'done') return;
        // The space's index moved on meanwhile: catch up, then read the pages again.
        if (attempt >= 3) throw new Error(`search index of space ${spaceId} kept changing during a refresh`);
        await this.syncNow(spaceId);
      }
    });
  }
}
