import { type CompiledQuery, expressionBuilder, type RawBuilder, sql } from 'kysely';
import { visibleSpaces } from '../areas/spaces/visibility.js';
import type { SpaceVisibility } from '../auth/access-scope.js';
import type { Db, Tx } from '../db/database.js';
import type { ReadCache } from '../db/read-cache.js';
import type { SpacesTable, Tables } from '../db/tables.js';
import type { TimeSlices } from '../time-slices.js';
import { fold, type SectionTerms, stemmerOf, stemTerm, words } from './analyzer.js';
import { digest } from './digest.js';
import { type HitPage, type HitRow, hitsBy, type RankCursor, type Ranking, SECTION_SPAN } from './hits.js';
import { OrgPostings } from './postings/org-postings.js';
import { PostingsSearch } from './postings/search.js';
import { PostingsStore, type ReadAside } from './postings/store.js';
import type { QueryPlan, StemRequest } from './query.js';
import { RankedFromPostings } from './ranked-from-postings.js';

/**
 * The search index behind one interface (DESIGN §2): SQLite FTS5 (`sqlite-index.ts`) and
 * PostgreSQL tsvector + GIN (`postgres-index.ts`). Both hold the same rows - a page's place in
 * the tree (`search_pages`), its sections (`search_sections`), the stems of indexed terms
 * (`search_vocab`) - and differ only in where the terms go and how a query ranks them.
 * An external engine could be a third implementation.
 */

export interface IndexedSection {
  position: number;
  anchor: string | null;
  heading: string;
  text: string;
  /** Its heading's and text's terms (analyzer.ts), when worked out before the write. */
  terms?: SectionTerms;
}

/** Where a page sits in the tree (what changes when an ancestor moves or is renamed). */
export interface PagePlace {
  pageId: string;
  path: string;
  /** Titles of its ancestors, top-level first. */
  ancestors: string[];
  hidden: boolean;
}

export interface IndexedPage extends PagePlace {
  title: string;
  /** The title's terms, when worked out before the write. */
  titleTerms?: readonly string[];
  description: string;
  sections: IndexedSection[];
  /** Lower-case slugs of the OpenAPI specs whose operations the page draws. */
  specs: string[];
}

/** Which pages a search may return. */
/** Beyond this many spaces closed to a caller, an organization's search applies the rules themselves. */
const CLOSED_MAX = 1000;

export interface SearchScope {
  /** Only these spaces. */
  spaceIds?: string[];
  /** Spaces of this organization that the caller may see (not deleted). */
  org?: {
    orgId: string;
    visibility: SpaceVisibility;
    /** The organization's live spaces the rules close to the caller, when few (set by `orgScope`). */
    closed?: string[];
  };
  /** Hidden pages (and pages under them) too. */
  includeHidden: boolean;
}

export interface SearchIndex {
  /**
   * Removes the pages in `remove` (all their sections), then writes `pages`. `empty`: nothing of
   * the space is indexed (never written, or dropped in this transaction), so nothing is read
   * back or removed.
   */
  writePages(
    tx: Tx,
    spaceId: string,
    language: string | null,
    remove: string[],
    pages: IndexedPage[],
    empty?: boolean,
  ): Promise<void>;
  /** New places of pages whose text did not change (an ancestor moved, was renamed or hidden). */
  movePages(tx: Tx, spaceId: string, places: PagePlace[]): Promise<void>;
  /** Everything indexed for a space. */
  dropSpace(tx: Tx, spaceId: string): Promise<void>;
  /** Spaces about to move to the organization `orgId`, in the transaction that moves them. */
  spacesMoving(tx: Tx, spaceIds: string[], orgId: string): Promise<void>;
  /**
   * Spaces indexed without postings while postings are kept (indexed before 0030, or while
   * postings were off), at most `limit`.
   */
  postingsBehind(limit: number): Promise<string[]>;
  /** A space's postings, from what is indexed of it. */
  buildPostings(tx: Tx, spaceId: string): Promise<void>;
  /** Organizations whose spaces are indexed but which have no postings yet, at most `limit`. */
  orgPostingsBehind(limit: number): Promise<string[]>;
  /** An organization's postings, from what is indexed of its spaces. */
  buildOrgPostings(tx: Tx, orgId: string): Promise<void>;
  /**
   * After a large write, outside any transaction: brings the engine's structures and its query
   * planner's statistics up to date for the new size of the index.
   */
  optimize(): Promise<void>;
  /**
   * How many pages syncs should write between two runs of `optimize` for it to be worth its
   * cost, as the index now stands (the indexer never runs it more often than every 1,000).
   */
  optimizeAfter(): Promise<number>;
  /**
   * The first `limit` matching pages after `cursor`, best first (ties in an order of the
   * engine's own, the same for every page of results), with the sections of theirs that
   * matched. The page title is indexed with every section, so a page whose title has the words
   * has all its sections matched, the first (shown when no section has them in its own heading
   * or text) included. With `turns`, the event loop gets a turn between its long steps when
   * the search's slice is over.
   */
  rank(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    limit: number,
    turns?: TimeSlices,
  ): Promise<Ranking>;
  /** Indexed terms sharing the stem of each requested word, under the given languages' stemmers. */
  expansions(languages: Array<string | null>, requests: StemRequest[]): Promise<Map<string, string[]>>;
}

const CHUNK = 300;

const MAX_EXPANSIONS = 50;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The parts both engines share: the plain tables, scopes, and the vocabulary. */
export abstract class SqlSearchIndex implements SearchIndex {
  private readonly postings: PostingsStore;
  private readonly postingsSearch: PostingsSearch;
  private readonly orgPostings: OrgPostings;
  private readonly fromPostings: RankedFromPostings;

  constructor(
    protected readonly db: Db,
    /**
     * From how many pages a space's search is ranked from its postings (postings/search.ts);
     * undefined: postings are neither kept nor used.
     */
    postingsPages?: number,
    /** Reads a space's postings elsewhere than on `db` (SQLite's reader threads), given its pages. */
    readAside?: ReadAside,
    /** Whether a write's transaction may let the event loop turn (see PostingsStore). */
    turnsInWrites = false,
  ) {
    this.postings = new PostingsStore(db, postingsPages !== undefined, readAside, turnsInWrites);
    this.postingsSearch = new PostingsSearch(db, this.postings, postingsPages);
    this.orgPostings = new OrgPostings(db, this.postings);
    this.fromPostings = new RankedFromPostings(
      db,
      this.postingsSearch,
      this.orgPostings,
      {
        spaceHits: (spaceId, keys) => this.spaceHits(spaceId, keys),
        orgHits: (orgId, keys) => this.orgHits(orgId, keys),
      },
      (key, load) => this.kept(key, load),
    );
  }

  private reads: ReadCache | undefined;

  /**
   * Reads that change only with a commit (the vocabulary's stems, a space's postings
   * statistics) are kept in `cache` while the database is unchanged (see ReadCache).
   */
  keepReads(cache: ReadCache): void {
    this.reads = cache;
    this.postingsSearch.keepReads(cache);
  }

  protected kept<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.reads ? this.reads.read(key, load) : load();
  }

  /**
   * Ranking a common word's every match is most of its cost, and a page's rank is decided by its
   * best tier first (a title match 4, a heading 2, the words together 1) and by the engine's
   * relevance within a tier (below 1). So a page with a tier outscores every page without one:
   * when more pages than asked have a tier, only they are scored and the others only counted
   * (`tiered`). When that ranks fewer pages than asked (after a cursor, or when hidden or
   * excluded pages thin the tiers), every match is ranked.
   */
  async rank(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    limit: number,
    turns?: TimeSlices,
  ): Promise<Ranking> {
    if (plan.must.length === 0) return { pages: [], more: false, total: 0 };
    const count = Math.max(1, Math.trunc(limit));
    const spaceId = !scope.org && scope.spaceIds?.length === 1 ? scope.spaceIds[0]! : undefined;
    const fromSpace =
      spaceId !== undefined &&
      (await this.fromPostings.space(spaceId, plan, scope.includeHidden, cursor, count, turns));
    if (fromSpace) return fromSpace;
    const scoped = scope.org ? { ...scope, org: await this.orgScope(scope.org) } : scope;
    const closed = scoped.org && (scoped.org.visibility.all ? [] : scoped.org.closed);
    // Beyond CLOSED_MAX closed spaces, the engine's statements apply the visibility rules.
    const fromOrg =
      scoped.org &&
      closed &&
      (await this.fromPostings.organization(
        scoped.org.orgId,
        closed,
        plan,
        scoped.includeHidden,
        cursor,
        count,
        turns,
      ));
    if (fromOrg) return fromOrg;
    const tiered = await this.rankPass(plan, scoped, cursor, count, true);
    return tiered ?? (await this.rankPass(plan, scoped, cursor, count, false))!;
  }

  /**
   * An organization's scope as its visibility rules leave it, worked out once per set of rules
   * while the database is unchanged, so that no search looks each of the organization's spaces
   * up in them (for 10,000 spaces, most of a member's search). A caller the rules leave no live
   * space closed to (a member of an organization whose spaces inherit its default role) is
   * ranked as an admin is; one with a few closed (`CLOSED_MAX`), by the organization's spaces
   * but those. A 'read' member, 10,000 spaces on SQLite: "search index" 99.3 -> 50.3 ms, as the
   * owner's; 3,000 spaces on PostgreSQL, one of them closed: 16-25 -> 11-15 ms a query, as the owner's.
   */
  private async orgScope(org: NonNullable<SearchScope['org']>): Promise<NonNullable<SearchScope['org']>> {
    if (org.visibility.all) return org;
    const closed = await this.kept(
      `search-closed:${org.orgId}:${digest(JSON.stringify(org.visibility))}`,
      async () => {
        // NOT would let a rule that is NULL for a space (no default level) open it here.
        const { rows } = await sql<{ id: string }>`SELECT s.id FROM spaces s
          WHERE s.org_id = ${org.orgId} AND s.deleted_at IS NULL
            AND ${visibleSql(org.visibility)} IS NOT TRUE
          LIMIT ${sql.lit(CLOSED_MAX + 1)}`.execute(this.db);
        return rows.map((row) => row.id);
      },
    );
    if (closed.length === 0) return { ...org, visibility: { ...org.visibility, all: true } };
    return closed.length <= CLOSED_MAX ? { ...org, closed } : org;
  }

  /**
   * The rows of the hits ranked from a space's postings with the sections where the query matched
   * (HitReader), in one statement: a round trip less on PostgreSQL.
   */
  protected async spaceHits(spaceId: string, keys: number[]): Promise<Map<number, HitPage>> {
    const statement = sql<HitRow>`SELECT p.space_id, p.page_id, p.title, p.description, p.path,
        p.ancestors, p.num, s.position, s.anchor, s.heading, s.body
      FROM ${this.keyList(keys)}
      CROSS JOIN search_pages p
      LEFT JOIN search_sections s ON s.space_id = p.space_id AND s.page_id = p.page_id
        AND s.position = CAST(w.key % ${sql.lit(SECTION_SPAN)} AS INTEGER)
      WHERE p.space_id = ${spaceId} AND p.num = CAST(w.key / ${sql.lit(SECTION_SPAN)} AS INTEGER)
      ORDER BY p.num, s.position`.compile(this.db);
    const { rows } = await this.db.executeQuery(this.keepPrepared(statement));
    return hitsBy(rows, (row) => Number(row.num));
  }

  /** The rows of the hits ranked from an organization's postings, through its numbers of its pages. */
  private async orgHits(orgId: string, keys: number[]): Promise<Map<number, HitPage>> {
    const statement = sql<HitRow & { onum: number }>`SELECT o.onum, p.space_id, p.page_id, p.title,
        p.description, p.path, p.ancestors, p.num, s.position, s.anchor, s.heading, s.body
      FROM ${this.keyList(keys)}
      CROSS JOIN search_org_pages o
      CROSS JOIN search_pages p
      LEFT JOIN search_sections s ON s.space_id = p.space_id AND s.page_id = p.page_id
        AND s.position = CAST(w.key % ${sql.lit(SECTION_SPAN)} AS INTEGER)
      WHERE o.org_id = ${orgId} AND o.onum = CAST(w.key / ${sql.lit(SECTION_SPAN)} AS INTEGER)
        AND p.space_id = o.space_id AND p.num = o.num
      ORDER BY o.onum, s.position`.compile(this.db);
    const { rows } = await this.db.executeQuery(this.keepPrepared(statement));
    return hitsBy(rows, (row) => Number(row.onum));
  }

  /**
   * A FROM item `w` with one column `key` holding each of `keys` (a page number times
   * SECTION_SPAN plus a section position): one parameter, so the statement's text is the same
   * for every search. It is the outer loop: SQLite keeps a CROSS JOIN's order, and otherwise
   * read the space's every page in number order for the ORDER BY (750 ms in a 100,000-page
   * space, against a few ms).
   */
  protected abstract keyList(keys: number[]): RawBuilder<unknown>;
  /** The statement, kept prepared where the database has prepared statements worth keeping. */
  protected keepPrepared<T>(statement: CompiledQuery<T>): CompiledQuery<T> {
    return statement;
  }

  /**
   * One ranking statement (see `rank`). Answers undefined when `tiered` ranked fewer pages than
   * asked: the caller ranks them all.
   */
  protected abstract rankPass(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
  ): Promise<Ranking | undefined>;
  abstract optimize(): Promise<void>;
  async optimizeAfter(): Promise<number> {
    return 0;
  }
  /** Deletes the terms of these sections (before their rows go). */
  protected abstract deleteTerms(tx: Tx, spaceId: string, pageIds: string[]): Promise<void>;
  /** Inserts the sections of these pages with their terms; `nums` holds each page's number. */
  protected abstract insertSections(
    tx: Tx,
    spaceId: string,
    pages: IndexedPage[],
    nums: ReadonlyMap<string, number>,
  ): Promise<void>;
  protected abstract deleteAllTerms(tx: Tx, spaceId: string): Promise<void>;
  /** Columns of a page's row that only this engine has (written with the row, never after). */
  protected pageColumns(_page: IndexedPage, _spaceId: string): Record<string, unknown> {
    return {};
  }

  /** The spaces' pages leave their organization's postings for the new one's. */
  async spacesMoving(tx: Tx, spaceIds: string[], orgId: string): Promise<void> {
    await this.orgPostings.spacesMoving(tx, spaceIds, orgId);
  }

  async writePages(
    tx: Tx,
    spaceId: string,
    language: string | null,
    remove: string[],
    pages: IndexedPage[],
    empty = false,
  ): Promise<void> {
    // A space's first write looked for rows that could not be there: on PostgreSQL half of its
    // 42 statements were such reads and deletes.
    const gone = empty ? [] : [...new Set([...remove, ...pages.map((p) => p.pageId)])];
    // A page keeps its number when it is written again; new pages take the next free ones.
    const nums = new Map<string, number>();
    let next = 0;
    if (!empty) {
      for (const ids of chunks(pages.map((p) => p.pageId))) {
        const rows = await tx
          .selectFrom('search_pages')
          .select(['page_id', 'num'])
          .where('space_id', '=', spaceId)
          .where('page_id', 'in', ids)
          .execute();
        for (const row of rows) if (row.num !== null) nums.set(row.page_id, Number(row.num));
      }
      const top = await tx
        .selectFrom('search_pages')
        .select((eb) => eb.fn.max('num').as('top'))
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      next = Number(top?.top ?? 0);
    }
    for (const page of pages) if (!nums.has(page.pageId)) nums.set(page.pageId, ++next);
    const before = empty ? [] : await this.postings.indexed(tx, spaceId, gone);
    const after = pages.map((page) => ({
      num: nums.get(page.pageId)!,
      title: page.title,
      titleTerms: page.titleTerms,
      sections: page.sections,
    }));
    await this.postings.write(tx, spaceId, before, after, empty);
    for (const ids of chunks(gone)) {
      await this.deleteTerms(tx, spaceId, ids);
      await tx
        .deleteFrom('search_sections')
        .where('space_id', '=', spaceId)
        .where('page_id', 'in', ids)
        .execute();
      await tx
        .deleteFrom('search_pages')
        .where('space_id', '=', spaceId)
        .where('page_id', 'in', ids)
        .execute();
    }
    for (const batch of chunks(pages, 100)) {
      await tx
        .insertInto('search_pages')
        .values(
          batch.map((page) => ({
            space_id: spaceId,
            page_id: page.pageId,
            title: page.title,
            description: page.description,
            path: page.path,
            ancestors: JSON.stringify(page.ancestors),
            hidden: page.hidden ? 1 : 0,
            num: nums.get(page.pageId)!,
            specs: page.specs.length > 0 ? `|${page.specs.join('|')}|` : null,
            ...this.pageColumns(page, spaceId),
          })),
        )
        .execute();
      await this.insertSections(tx, spaceId, batch, nums);
    }
    // After the space's rows: an organization's postings built here read them.
    await this.orgPostings.pagesWritten(tx, spaceId, before, after, empty);
    await this.recordStems(tx, language, pages);
  }

  async movePages(tx: Tx, spaceId: string, places: PagePlace[]): Promise<void> {
    // Pages hidden or shown: processes read the hidden pages again.
    if (places.length > 0) await this.postings.touch(tx, spaceId);
    // Many rows an update (a page with a thousand below it renamed was a thousand round trips
    // on PostgreSQL). VALUES names its columns column1.. on both databases; their parameters are
    // text to PostgreSQL, hence the cast.
    for (const batch of chunks(places, 200))
      await sql`UPDATE search_pages SET path = v.column2, ancestors = v.column3,
          hidden = CAST(v.column4 AS INTEGER)
        FROM (VALUES ${sql.join(
          batch.map(
            (place) =>
              sql`(${place.pageId}, ${place.path}, ${JSON.stringify(place.ancestors)}, ${place.hidden ? 1 : 0})`,
          ),
        )}) AS v
        WHERE search_pages.space_id = ${spaceId} AND search_pages.page_id = v.column1`.execute(tx);
  }

  async postingsBehind(limit: number): Promise<string[]> {
    if (!this.postings.kept) return [];
    const rows = await this.db
      .selectFrom('search_spaces as x')
      .select('x.space_id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('search_space_stats as t')
              .select('t.space_id')
              .whereRef('t.space_id', '=', 'x.space_id'),
          ),
        ),
      )
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('search_pages as p').select('p.page_id').whereRef('p.space_id', '=', 'x.space_id')),
      )
      .orderBy('x.space_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.space_id);
  }

  orgPostingsBehind(limit: number): Promise<string[]> {
    return this.orgPostings.behind(limit);
  }

  buildOrgPostings(tx: Tx, orgId: string): Promise<void> {
    return this.orgPostings.build(tx, orgId);
  }

  async buildPostings(tx: Tx, spaceId: string): Promise<void> {
    // A write of nothing: a space without postings gets them for all its pages (store.ts).
    await this.postings.write(tx, spaceId, [], []);
  }

  async dropSpace(tx: Tx, spaceId: string): Promise<void> {
    // First: its pages leave its organization's postings as they are indexed.
    await this.orgPostings.spaceDropped(tx, spaceId);
    await this.postings.drop(tx, spaceId);
    await this.deleteAllTerms(tx, spaceId);
    await tx.deleteFrom('search_sections').where('space_id', '=', spaceId).execute();
    await tx.deleteFrom('search_pages').where('space_id', '=', spaceId).execute();
    await tx.deleteFrom('search_spaces').where('space_id', '=', spaceId).execute();
    await tx.deleteFrom('search_space_keys').where('space_id', '=', spaceId).execute();
  }

  async expansions(languages: Array<string | null>, requests: StemRequest[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const stemmers = new Map<string, { name: string; stem: (w: string) => string }>();
    for (const language of languages) {
      const stemmer = stemmerOf(language);
      if (stemmer) stemmers.set(stemmer.name, stemmer);
    }
    if (stemmers.size === 0 || requests.length === 0) return out;
    const wanted = new Map<string, Set<string>>();
    const pairs: Array<[string, string]> = [];
    for (const request of requests) {
      for (const stemmer of stemmers.values()) {
        const stem = stemTerm(stemmer, request.word);
        const key = `${stemmer.name}\0${stem}`;
        if (!wanted.has(key)) {
          wanted.set(key, new Set());
          pairs.push([stemmer.name, stem]);
        }
        wanted.get(key)!.add(request.term);
      }
    }
    // Kept while the database is unchanged: a round trip a search on PostgreSQL.
    const rows = await this.kept(`search-vocab:${JSON.stringify(pairs)}`, () =>
      this.db
        .selectFrom('search_vocab')
        .select(['stemmer', 'stem', 'term'])
        .where((eb) =>
          eb.or(pairs.map(([stemmer, stem]) => eb.and([eb('stemmer', '=', stemmer), eb('stem', '=', stem)]))),
        )
        // In a fixed order: when a query has a term and its own prefix, PostgreSQL's ts_rank counts
        // one of the two, which one by the order of the other terms.
        .orderBy('stemmer')
        .orderBy('stem')
        .orderBy('term')
        .execute(),
    );
    for (const row of rows) {
      for (const term of wanted.get(`${row.stemmer}\0${row.stem}`) ?? []) {
        const list = out.get(term) ?? [];
        if (list.length < MAX_EXPANSIONS && row.term !== term && !list.includes(row.term))
          list.push(row.term);
        out.set(term, list);
      }
    }
    return out;
  }

  /** Records the stem of every word of the pages under the space language's stemmer. */
  private async recordStems(tx: Tx, language: string | null, pages: IndexedPage[]): Promise<void> {
    const stemmer = stemmerOf(language);
    if (!stemmer) return;
    const seen = new Map<string, string>();
    const visit = (text: string) => {
      for (const word of words(text)) {
        if (word.bigram) continue;
        const term = fold(word.text);
        if (term && !seen.has(term)) seen.set(term, stemTerm(stemmer, word.text));
      }
    };
    for (const page of pages) {
      visit(page.title);
      visit(page.description);
      for (const section of page.sections) {
        visit(section.heading);
        visit(section.text);
      }
    }
    const rows = [...seen].map(([term, stem]) => ({ stemmer: stemmer.name, stem, term }));
    for (const batch of chunks(rows)) {
      await tx
        .insertInto('search_vocab')
        .values(batch)
        .onConflict((oc) => oc.columns(['stemmer', 'stem', 'term']).doNothing())
        .execute();
    }
  }

  /**
   * The scope as a condition over `s` (spaces), `p` (search_pages) and `spaceId`, the column
   * holding the space's id (`x.space_id` of search_sections unless told).
   */
  protected scopeSql(
    scope: SearchScope,
    spaceId: RawBuilder<unknown> = sql`x.space_id`,
  ): RawBuilder<unknown> {
    const parts: Array<RawBuilder<unknown>> = [sql`s.deleted_at IS NULL`];
    if (scope.spaceIds) {
      parts.push(scope.spaceIds.length > 0 ? sql`${spaceId} IN (${sql.join(scope.spaceIds)})` : sql`1 = 0`);
    }
    if (scope.org) {
      parts.push(sql`s.org_id = ${scope.org.orgId}`);
      parts.push(
        scope.org.closed
          ? sql`s.id NOT IN (${sql.join(scope.org.closed)})`
          : visibleSql(scope.org.visibility),
      );
    }
    if (!scope.includeHidden) parts.push(sql`p.hidden = 0`);
    return sql`${sql.join(parts, sql` AND `)}`;
  }
}

/** Whether the space `s` (a row of spaces) is one the visibility rules let the caller see. */
export function visibleSql(visibility: SpaceVisibility): RawBuilder<unknown> {
  const eb = expressionBuilder<Tables & { s: SpacesTable }, 's'>();
  return sql`(${visibleSpaces(visibility)(eb)})`;
}
