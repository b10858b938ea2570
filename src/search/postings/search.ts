import type { Db } from '../../db/database.js';
import type { ReadCache } from '../../db/read-cache.js';
import type { Match, QueryPlan } from '../query.js';
import { PostingsCache, type SpaceFacts } from './cache.js';
import type { TermRows } from './codec.js';
import type { PostingsRanking, ResolvedMatch } from './rank.js';
import { rankAside } from './rank-threads.js';
import type { PostingsStore, SpaceStats } from './store.js';

/** A prefix beginning more terms than this is left to the engine (it has prefix indexes). */
const MAX_PREFIX_TERMS = 50;
/**
 * Bytes of postings a process keeps between searches (cache.ts): the rows of about a hundred
 * common words of a 100,000-page space.
 */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * From how many pages a space's search is ranked from its postings, by the setting;
 * undefined: postings are neither kept nor used. Every space by default, on both databases.
 *
 * - PostgreSQL's engine visits a row per match: a 100,000-page space's search through the API
 *   took a third of the time ranked from its postings (bench/scale on one day: median 49.8 ->
 *   16.7 ms, p99 128 -> 49.1 ms). And a small space's search asks the same GIN index as its
 *   large neighbours': a 100-page space beside the 100,000-page one took 8.5 ms a search (median
 *   through the API) ranked by the engine, 2.7 ms from its postings.
 * - On SQLite, FTS5 ranked on the reader threads answered about as fast as the first postings
 *   (median 17.7 against 18.8 ms). Since the postings are kept by each process (cache.ts) and
 *   ranked with fewer cache misses (rank.ts), they answer faster: the 100,000-page space 11.5
 *   against 17.7 ms median, p99 22.5 against 26.3 ms; a write costs a few ms more there.
 */
export function postingsPagesFor(setting: number | 'off' | undefined): number | undefined {
  if (setting === 'off') return undefined;
  return setting ?? 0;
}

export interface PostingsQuery {
  spaceId: string;
  plan: QueryPlan;
  includeHidden: boolean;
  /** Where the previous page of results ended. */
  after?: { score: number; pageId: string } | undefined;
  count: number;
}

/** The postings of a key (a space's, or an organization's: org-postings.ts) and what to leave out of them. */
export interface KeyedQuery {
  /** The postings' key in the postings tables. */
  key: string;
  plan: QueryPlan;
  /** Their statistics and generation; undefined without postings. */
  stats: () => Promise<(SpaceStats & { generation: number; deleted: boolean }) | undefined>;
  /** Numbers of the pages neither ranked nor counted (hidden, out of the caller's scope). */
  leftOut: (facts: SpaceFacts | undefined) => Promise<number[]>;
  /** Where the previous page of results ended: its score, and its page's number (undefined: no longer indexed). */
  after?: { score: number; page: () => Promise<number | undefined> } | undefined;
  count: number;
}

/**
 * A search of one space, or of one organization's spaces (`rankKey` with an organization's key:
 * org-postings.ts), ranked from its postings (rank.ts) rather than by the engine: bm25 over
 * a common word's every match costs FTS5 about a microsecond a match and PostgreSQL a heap visit
 * a match ("configuration" in a 100,000-page space, in-process: 84 ms ranked by PostgreSQL, 27 ms
 * from the postings). A space below `minPages` pages, or without postings yet, is left to the
 * engine. Once its postings are kept (cache.ts), a search is two round trips: the statistics
 * with the generation, and the ranked pages.
 */
export class PostingsSearch {
  private readonly cache = new PostingsCache(CACHE_BYTES);

  constructor(
    private readonly db: Db,
    private readonly store: PostingsStore,
    private readonly minPages: number | undefined,
  ) {}

  private reads: ReadCache | undefined;

  /** The space's statistics are kept in `cache` while the database is unchanged. */
  keepReads(cache: ReadCache): void {
    this.reads = cache;
  }

  /** The space's ranked page numbers, or undefined when the engine should rank this search. */
  rank(query: PostingsQuery): Promise<PostingsRanking | undefined> {
    const { spaceId, after } = query;
    return this.rankKey({
      key: spaceId,
      plan: query.plan,
      count: query.count,
      stats: () => this.store.searchable(spaceId),
      leftOut: (facts) => (query.includeHidden ? Promise.resolve([]) : this.hiddenPages(spaceId, facts)),
      after: after && { score: after.score, page: () => this.pageNumber(spaceId, after.pageId) },
    });
  }

  /** Whether postings are kept and used at all. */
  get used(): boolean {
    return this.minPages !== undefined;
  }

  /** A key's ranked page numbers, or undefined when the engine should rank this search. */
  async rankKey(query: KeyedQuery): Promise<PostingsRanking | undefined> {
    const { key: spaceId, plan } = query;
    if (this.minPages === undefined) return undefined;
    const stats = await (this.reads
      ? this.reads.read(`postings-stats:${spaceId}`, query.stats)
      : query.stats());
    if (!stats || stats.pages < this.minPages || stats.pages === 0) return undefined;
    if (stats.deleted) return { pages: [], more: false, total: 0 };
    const facts = this.cache.facts(spaceId, stats.generation);
    const resolve = async (match: Match): Promise<ResolvedMatch | undefined> => {
      const prefix = match.kind === 'any' ? match.prefix : match.prefixLast ? match.terms.at(-1) : undefined;
      let begun: string[] = [];
      if (prefix !== undefined) {
        const known = facts?.completions.get(prefix);
        begun = known ?? (await this.store.completions(spaceId, prefix, MAX_PREFIX_TERMS));
        if (!known) facts?.completions.set(prefix, begun);
        if (begun.length > MAX_PREFIX_TERMS) return undefined;
      }
      if (match.kind === 'any') return { kind: 'any', terms: [...match.terms, ...begun] };
      const steps = match.terms.map((term) => [term]);
      // A phrase ending in a prefix: its last word is any term the prefix begins (none: no match).
      if (prefix !== undefined) steps[steps.length - 1] = begun;
      return { kind: 'phrase', steps };
    };
    const must: ResolvedMatch[] = [];
    const not: ResolvedMatch[] = [];
    for (const [from, into] of [
      [plan.must, must],
      [plan.not, not],
    ] as const) {
      for (const match of from) {
        const resolved = await resolve(match);
        if (!resolved) return undefined;
        into.push(resolved);
      }
    }
    const together = plan.together ? await resolve(plan.together) : undefined;
    if (plan.together && !together) return undefined;
    const terms = new Set<string>();
    // Positions are read for the words of phrases only: they are most of the bytes.
    const positional = new Set<string>();
    for (const match of [...must, ...not, ...(together ? [together] : [])]) {
      const words = match.kind === 'any' ? match.terms : match.steps.flat();
      for (const term of words) terms.add(term);
      if (match.kind === 'phrase' && match.steps.length > 1) for (const term of words) positional.add(term);
    }
    const [rows, hidden, after] = await Promise.all([
      this.termRows(spaceId, stats, [...terms], positional),
      query.leftOut(facts),
      query.after ? query.after.page() : Promise.resolve(undefined),
    ]);
    return rankAside({
      must,
      not,
      together,
      rows,
      sections: stats.sections,
      averageLength: stats.sections > 0 ? stats.tokens / stats.sections : 1,
      hidden: new Set(hidden),
      // A cursor's page no longer indexed: the pages tied with it are behind it.
      after: query.after && { score: query.after.score, page: after ?? Number.POSITIVE_INFINITY },
      count: query.count,
    });
  }

  /** The terms' rows, from the cache when kept for the generation read with the statistics. */
  private async termRows(
    spaceId: string,
    stats: { pages: number; generation: number },
    terms: string[],
    positional: ReadonlySet<string>,
  ): Promise<Map<string, TermRows[]>> {
    const out = new Map<string, TermRows[]>();
    const missing: string[] = [];
    for (const term of terms) {
      const kept = this.cache.get(spaceId, stats.generation, term, positional.has(term));
      if (!kept) missing.push(term);
      // A term without rows is not in the answer, as the store answers.
      else if (kept.length > 0) out.set(term, kept);
    }
    if (missing.length === 0) return out;
    const read = await this.store.termRows(spaceId, stats.pages, missing, positional);
    for (const term of missing) {
      // A term with no rows is kept too: a word the space lacks is asked again as often.
      const rows = this.cache.put(
        spaceId,
        stats.generation,
        term,
        positional.has(term),
        read.get(term) ?? [],
      );
      if (rows.length > 0) out.set(term, rows);
    }
    return out;
  }

  private async hiddenPages(spaceId: string, facts: SpaceFacts | undefined): Promise<number[]> {
    if (facts?.hidden) return facts.hidden;
    const rows = await this.db
      .selectFrom('search_pages')
      .select('num')
      .where('space_id', '=', spaceId)
      .where('hidden', '=', 1)
      .execute();
    const hidden = rows.flatMap((row) => (row.num === null ? [] : [Number(row.num)]));
    if (facts) facts.hidden = hidden;
    return hidden;
  }

  private async pageNumber(spaceId: string, pageId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('search_pages')
      .select('num')
      .where('space_id', '=', spaceId)
      .where('page_id', '=', pageId)
      .executeTakeFirst();
    return row?.num === null || row?.num === undefined ? undefined : Number(row.num);
  }
}
