import type { OpenApiService } from '../areas/openapi/service.js';
import type { ContentStore } from '../content/store.js';
import type { Tx } from '../db/database.js';
import { decodeCursor, encodeCursor } from '../db/keyset.js';
import type { Deps } from '../deps.js';
import { DEFAULT_PAGE_SIZE } from '../http/schemas.js';
import type { JobQueue } from '../jobs/queue.js';
import { TimeSlices } from '../time-slices.js';
import { digest } from './digest.js';
import { Highlighter } from './highlight.js';
import type { RankCursor, StoredPage, StoredSection } from './hits.js';
import { SearchIndexer, STALE, type SyncBound, type SyncOutcome } from './indexer.js';
import { PostgresSearchIndex } from './postgres-index.js';
import { postingsPagesFor } from './postings/search.js';
import { parseQuery, planQuery, stemRequests } from './query.js';
import type { SearchIndex, SearchScope } from './search-index.js';
import { SqliteSearchIndex } from './sqlite-index.js';

/**
 * Full-text search of the spaces' current content: the index (SQLite FTS5 or PostgreSQL
 * tsvector, by the configured database), the indexer that follows revisions, and the query
 * path shared by the API (organization and space search) and published sites.
 *
 * Freshness: a merge enqueues `search.index` for its space in the merge's own transaction (the
 * job exists if and only if the merge committed); the worker syncs the space incrementally.
 * `search.reconcile` runs at start-up and every RECONCILE_MS and syncs every space whose index
 * is behind (missing, another revision, language or analyzer version), so a lost job, a
 * revision moved by another path or a change of language is repaired; it also drops what is
 * indexed for spaces that no longer exist. A search first syncs, inline, up to INLINE_SYNCS of
 * the spaces it covers that are behind, so what a reader finds follows what they just merged,
 * when the change is small enough (INLINE_BOUND).
 */

const RECONCILE_MS = 10 * 60_000;
const RECONCILE_BUDGET_MS = 60_000;
const INLINE_SYNCS = 4;
/**
 * The largest change a search indexes before it answers. A larger one (an import, a moved
 * chapter, a new analyzer) is the background job's: the search answers from the index as it is,
 * the previous revision's, rather than wait for the sync. Unbounded, the first search after
 * importing 3,033 pages took 3.9 s on SQLite, and one after a 100,000-page import would have
 * waited for the whole index, minutes (bench/scale: 268 s). A changed page costs about 1.3-2.6 ms
 * to index (SQLite, 3,000 to 100,000 pages), a page below a moved one a few microseconds.
 */
const INLINE_BOUND: SyncBound = { pages: 50, places: 2_000 };
const MAX_SECTIONS = 5;
/**
 * How long a search holds the server's thread before the requests that arrived meanwhile go on
 * (see `search`).
 */
const SEARCH_SLICE_MS = 1;

export interface SearchRequest {
  query: string;
  scope: SearchScope;
  /** Languages of the spaces searched (their stemmers expand the query's words). */
  languages: Array<string | null>;
  page?: string | undefined;
  limit?: number | undefined;
  /** Distinguishes cursors of different scopes (a cursor works only where it was given). */
  scopeKey: string;
}

export interface SectionHit {
  id: string;
  /** The heading's id on the page; null for the text before the first heading. */
  anchor: string | null;
  title: string;
  /** HTML-escaped text around the match, the matched words in `<mark>`. */
  body: string;
  score: number;
  resultType: 'page' | 'section';
}

export interface PageHit extends StoredPage {
  score: number;
  /** One-based position in the whole ranked result. */
  rank: number;
  resultType: 'page' | 'section';
  sections: SectionHit[];
}

export interface SearchResults {
  hits: PageHit[];
  count: number;
  next?: { page: string };
}

export class SearchEngine {
  readonly index: SearchIndex;
  readonly indexer: SearchIndexer;
  private lastReconcileRequest = 0;

  constructor(
    private readonly deps: Deps,
    private readonly services: {
      jobs: JobQueue;
      store: Pick<ContentStore, 'snapshot' | 'diff' | 'readBodies'>;
      openapi: Pick<OpenApiService, 'latestDocument'>;
    },
  ) {
    const postingsPages = postingsPagesFor(deps.config.searchPostingsPages);
    const index =
      deps.dialect === 'postgres'
        ? new PostgresSearchIndex(deps.db, postingsPages)
        : new SqliteSearchIndex(deps.db, deps.database.readers, undefined, postingsPages);
    index.keepReads(deps.database.cache);
    this.index = index;
    this.indexer = new SearchIndexer(deps, services, this.index);
  }

  registerJobs(jobs: JobQueue): void {
    jobs.register('search.index', async (payload) => {
      const { spaceId } = payload as { spaceId?: unknown };
      if (typeof spaceId === 'string') await this.indexer.sync(spaceId);
    });
    jobs.register('search.spec', async (payload) => {
      const { orgId, slug } = payload as { orgId?: unknown; slug?: unknown };
      if (typeof orgId === 'string' && typeof slug === 'string') await this.refreshSpec(orgId, slug);
    });
    jobs.register('search.reconcile', async () => {
      const { remaining } = await this.reconcile(RECONCILE_BUDGET_MS);
      if (remaining) await jobs.enqueue('search.reconcile', {});
    });
    jobs.schedule('search.reconcile', RECONCILE_MS, 'search.reconcile');
  }

  /** The space's current revision moved: index it in the background once `tx` commits. */
  async spaceChanged(tx: Tx, spaceId: string): Promise<void> {
    await this.jobs.enqueue('search.index', { spaceId }, { tx });
  }

  /**
   * A specification of the organization changed (new version, or deleted): the pages that draw
   * its operations hold other words now. They are indexed again once `tx` commits.
   */
  async specChanged(tx: Tx, orgId: string, slug: string): Promise<void> {
    await this.jobs.enqueue('search.spec', { orgId, slug: slug.toLowerCase() }, { tx });
  }

  /** Indexes again the pages of the organization's spaces that draw the spec `slug`. */
  private async refreshSpec(orgId: string, slug: string): Promise<void> {
    const rows = await this.deps.db
      .selectFrom('search_pages as p')
      .innerJoin('spaces as s', 's.id', 'p.space_id')
      .select(['p.space_id', 'p.page_id', 'p.specs'])
      .where('s.org_id', '=', orgId)
      .where('p.specs', 'is not', null)
      .execute();
    const bySpace = new Map<string, string[]>();
    for (const row of rows) {
      if (!row.specs?.includes(`|${slug}|`)) continue;
      const pages = bySpace.get(row.space_id) ?? [];
      pages.push(row.page_id);
      bySpace.set(row.space_id, pages);
    }
    for (const [spaceId, pageIds] of bySpace) {
      try {
        await this.indexer.refreshPages(spaceId, pageIds);
      } catch (error) {
        this.deps.log.error({ err: error, spaceId }, 'search index refresh for a spec failed');
      }
    }
  }

  /** At start-up: catch up with whatever changed while no worker ran. */
  async started(): Promise<void> {
    await this.jobs.enqueue('search.reconcile', {});
  }

  private get jobs(): JobQueue {
    return this.services.jobs;
  }

  /**
   * Syncs every space whose index is behind, drops the index of spaces that are gone, and builds
   * the postings of spaces and organizations indexed without them, until `budgetMs` has passed;
   * answers whether some are left.
   */
  async reconcile(budgetMs = Number.POSITIVE_INFINITY): Promise<{ synced: number; remaining: boolean }> {
    const started = Date.now();
    const { db } = this.deps;
    const orphans = await db
      .selectFrom('search_spaces as x')
      .select('x.space_id')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('spaces as s').select('s.id').whereRef('s.id', '=', 'x.space_id'))),
      )
      .execute();
    for (const { space_id } of orphans) await this.trySync(space_id);
    let synced = 0;
    let after = '';
    for (;;) {
      // One pass in id order: a space whose sync fails is logged and left for the next run.
      const stale = await db
        .selectFrom('spaces as s')
        .leftJoin('search_spaces as x', 'x.space_id', 's.id')
        .select('s.id')
        .where(STALE)
        .where('s.id', '>', after)
        .orderBy('s.id')
        .limit(100)
        .execute();
      if (stale.length === 0) break;
      for (const { id } of stale) {
        after = id;
        if (await this.trySync(id)) synced++;
        if (Date.now() - started > budgetMs) return { synced, remaining: true };
      }
    }
    // Spaces indexed while postings were off (or before them): their search is ranked by the
    // engine until they have postings, built here rather than at their next write.
    const failed = new Set<string>();
    for (;;) {
      const behind = (await this.index.postingsBehind(failed.size + 10)).filter((id) => !failed.has(id));
      if (behind.length === 0) break;
      for (const spaceId of behind) {
        try {
          await db.transaction().execute((tx) => this.index.buildPostings(tx, spaceId));
        } catch (error) {
          failed.add(spaceId);
          this.deps.log.error({ err: error, spaceId }, 'search postings build failed');
        }
        if (Date.now() - started > budgetMs) return { synced, remaining: true };
      }
    }
    // Organizations without postings: ranked by the engine until they have them.
    for (;;) {
      const behind = (await this.index.orgPostingsBehind(failed.size + 10)).filter((id) => !failed.has(id));
      if (behind.length === 0) return { synced, remaining: false };
      for (const orgId of behind) {
        try {
          await db.transaction().execute((tx) => this.index.buildOrgPostings(tx, orgId));
        } catch (error) {
          failed.add(orgId);
          this.deps.log.error({ err: error, orgId }, 'search postings build of an organization failed');
        }
        if (Date.now() - started > budgetMs) return { synced, remaining: true };
      }
    }
  }

  /** Syncs a space; a failure is logged, not thrown (the index stays on what it had). */
  private async trySync(spaceId: string, bound?: SyncBound): Promise<SyncOutcome | undefined> {
    try {
      return await this.indexer.sync(spaceId, bound);
    } catch (error) {
      this.deps.log.error({ err: error, spaceId }, 'search index sync failed');
      return undefined;
    }
  }

  /** Syncs (inline) the spaces of the scope whose index is behind, a few at most. */
  private async catchUp(scope: SearchScope): Promise<void> {
    if (scope.spaceIds?.length === 0) return;
    const behind = () => {
      let query = this.deps.db
        .selectFrom('spaces as s')
        .leftJoin('search_spaces as x', 'x.space_id', 's.id')
        .select('s.id')
        .where('s.deleted_at', 'is', null)
        .where(STALE);
      if (scope.spaceIds) query = query.where('s.id', 'in', scope.spaceIds);
      if (scope.org) query = query.where('s.org_id', '=', scope.org.orgId);
      return query.limit(INLINE_SYNCS + 1).execute();
    };
    // Kept while the database is unchanged: a search that finds everything current costs no
    // query for it until the next commit (on either database: see ReadCache).
    const stale = await this.deps.database.cache.read(
      `search-stale:${scope.org?.orgId ?? ''}:${scope.spaceIds?.join(',') ?? ''}`,
      behind,
    );
    let left = stale.length > INLINE_SYNCS;
    for (const { id } of stale.slice(0, INLINE_SYNCS))
      if ((await this.trySync(id, INLINE_BOUND)) === 'deferred') left = true;
    // The change's own job is queued already (`spaceChanged`); the reconciliation catches what
    // went stale without one.
    if (left) {
      const now = Date.now();
      if (now - this.lastReconcileRequest > 60_000) {
        this.lastReconcileRequest = now;
        await this.jobs.enqueue('search.reconcile', {});
      }
    }
  }

  /**
   * The steps of a search on the server's thread (the hits' rows read, each hit's sections chosen
   * and marked) hand the thread over, when `turns` says its slice is over, to the requests that
   * arrived meanwhile. Run back to back after the ranking's last slice, they held it for one
   * stretch of about 6 ms per 100-hit search of a 100,000-page space (rows 1.5, highlighting 0.7,
   * the answer made and written 3.9), and a request arriving during it waited for its end. With
   * these turns and the answer's own (compress-answers.ts), a probe of back-to-back searches
   * there on SQLite, beside a GET of the space every 5 ms: event-loop stalls over 4 ms in 20 s,
   * 1,814-2,433 (14.3-15.1 s in all) in seven runs before, 117-274 (0.7-1.5 s) in five after. The
   * GET paused on the client's thread, alternating: p99 19.2 and 15.6 ms before, 8.1 and 9.2 after.
   */
  async search(request: SearchRequest, turns = new TimeSlices(SEARCH_SLICE_MS)): Promise<SearchResults> {
    const limit = request.limit ?? DEFAULT_PAGE_SIZE;
    const signature = `search:${request.scopeKey}:${digest(request.query)}`;
    const cursor = request.page ? rankCursor(request.page, signature) : undefined;
    const clauses = parseQuery(request.query);
    if (planQuery(clauses).must.length === 0) return { hits: [], count: 0 };
    await this.catchUp(request.scope);
    const plan = planQuery(clauses, await this.index.expansions(request.languages, stemRequests(clauses)));
    const ranking = await this.index.rank(plan, request.scope, cursor?.after, limit, turns);
    const highlighter = new Highlighter(plan);
    const offset = cursor?.n ?? 0;
    const hits: PageHit[] = [];
    for (const [i, r] of ranking.pages.entries()) {
      if (turns.due()) await turns.next();
      const found = sectionHits(highlighter, r.page.title, r.pageId, r.sections);
      hits.push({
        spaceId: r.spaceId,
        pageId: r.pageId,
        title: r.page.title,
        description: r.page.description,
        path: r.page.path,
        ancestors: r.page.ancestors,
        score: r.score,
        rank: offset + i + 1,
        resultType: found[0]?.resultType ?? 'page',
        sections: found,
      });
    }
    // What follows (presenting, serializing and encoding the answer) is one more stretch.
    if (turns.due()) await turns.next();
    const result: SearchResults = { hits, count: ranking.total };
    const last = ranking.pages[ranking.pages.length - 1];
    if (ranking.more && last) {
      result.next = {
        page: encodeCursor({
          s: signature,
          v: [last.score, last.spaceId, last.pageId],
          n: offset + ranking.pages.length,
        }),
      };
    }
    return result;
  }
}

/** The sections of a hit: those whose heading or text matched, best first; else the first one. */
export function sectionHits(
  highlighter: Highlighter,
  title: string,
  pageId: string,
  sections: StoredSection[],
): SectionHit[] {
  const scored = sections.map((section) => ({
    section,
    match: highlighter.match({ title, heading: section.heading, text: section.body }),
  }));
  const matching = scored
    .filter((s) => s.match.all && s.match.content)
    .sort((a, b) => b.match.hits - a.match.hits || a.section.position - b.section.position)
    .slice(0, MAX_SECTIONS);
  const chosen = matching.length > 0 ? matching : scored.slice(0, 1);
  const resultType = matching.length > 0 ? 'section' : 'page';
  return chosen.map(({ section, match }) => ({
    id: section.anchor ? `${pageId}#${section.anchor}` : pageId,
    anchor: section.anchor,
    title: section.anchor ? section.heading : title,
    body: highlighter.snippet(section.body, match.spans),
    score: match.hits,
    resultType,
  }));
}

/** Where the previous page of a search ended: its last hit's score and ids, and its rank. */
function rankCursor(page: string, signature: string): { after: RankCursor; n: number } {
  const { v, n } = decodeCursor(
    page,
    signature,
    3,
    'search',
    ({ v, n }) =>
      typeof v[0] === 'number' && typeof v[1] === 'string' && typeof v[2] === 'string' && n !== undefined,
  );
  return { after: { score: v[0] as number, spaceId: v[1] as string, pageId: v[2] as string }, n: n! };
}
