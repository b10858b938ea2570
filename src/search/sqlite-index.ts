import { type RawBuilder, sql } from 'kysely';
import type { Db, Tx } from '../db/database.js';
import type { SqliteReaders } from '../db/sqlite-readers.js';
import { termsOf } from './analyzer.js';
import { digest } from './digest.js';
import {
  type HitPage,
  type PageRow,
  type RankCursor,
  type Ranking,
  type SectionRow,
  type StoredSection,
  storedPage,
  storedSection,
} from './hits.js';
import { POSITION_SPAN } from './postings/codec.js';
import { type Match, type QueryPlan, toFts5 } from './query.js';
import { chunks, type IndexedPage, type SearchScope, SqlSearchIndex, visibleSql } from './search-index.js';

/**
 * SQLite: the analysed terms of each section in the contentless FTS5 table `search_fts`
 * (columns title, heading, body; rowid = search_sections.id), ranked with bm25.
 *
 * A section's id is its key: space number (search_space_keys) << 42 | page number
 * (search_pages.num) << 20 | position. A query groups its matches by page (`rowid >> 20`) and
 * scopes them by space (`rowid >> 42`) without reading a row per match, and reads the space and
 * page ids of the pages it returns only.
 */

const FTS_TABLES = ['search_fts', 'search_titles', 'search_headings', 'search_page_terms'];
/** Prefixes up to this many characters are in FTS5's prefix indexes (`prefix='2 3'`). */
const INDEXED_PREFIX = 3;
/** A longer prefix is replaced by the terms it begins when there are at most this many. */
const MAX_PREFIX_TERMS = 50;
/** A search of this many pages and more reads on the reader threads (see `onReaders`). */
const READER_PAGES = 20_000;
/** An organization's search over this many space numbers and more is read in parts (see `partsOf`). */
const SPLIT_SPACES = 1_000;
/** Pages written per merge step: a few tens of milliseconds each. */
const MERGE_STEP_PAGES = 250;

/** bm25 weights of the title, heading and body columns. */
const WEIGHTS = sql.raw('10.0, 4.0, 1.0');
/** A bm25 (negative, lower is better) as a relevance in [0, 1), higher is better. */
const REL = (bm: RawBuilder<unknown>) => sql`((0.0 - ${bm}) / (1.0 - ${bm}))`;

/** A section's id ends with its key in a list of hits (search-index.ts): page * POSITION_SPAN + position. */
const POSITION_BITS = BigInt(Math.log2(POSITION_SPAN));
const PAGE_BITS = 22n;
const SPACE_BITS = 21n;
/** `sid >> PAGE_SHIFT` is a section's page key, `sid >> SPACE_SHIFT` its space number. */
const PAGE_SHIFT = sql.lit(Number(POSITION_BITS));
const SPACE_SHIFT = sql.lit(Number(POSITION_BITS + PAGE_BITS));
/** `key >> PAGE_BITS` is a page key's space number, `key & PAGE_MASK` its page number. */
const KEY_SHIFT = sql.lit(Number(PAGE_BITS));
const PAGE_MASK = sql.lit(Number((1n << PAGE_BITS) - 1n));

function sectionKey(space: number, page: number, position: number): bigint {
  if (
    space >= 2 ** Number(SPACE_BITS) ||
    page >= 2 ** Number(PAGE_BITS) ||
    position >= 2 ** Number(POSITION_BITS)
  )
    throw new Error(`search key out of range: space ${space}, page ${page}, section ${position}`);
  return (BigInt(space) << (POSITION_BITS + PAGE_BITS)) | (BigInt(page) << POSITION_BITS) | BigInt(position);
}

/**
 * Whether a query's pages are counted from the pages' own terms (0027): a query of one word (its
 * forms and prefix) matches a page exactly when one of its sections has the word. A term the
 * tokenizer would cut in two is a phrase, which a table without positions cannot match; the
 * analyser's terms are single tokens, but nothing is assumed.
 */
function countsByPage(plan: QueryPlan): boolean {
  const word = plan.must.length === 1 && plan.must[0]!.kind === 'any' ? plan.must[0]! : undefined;
  const single = (term: string) => /^[\p{L}\p{N}\p{Co}\p{M}]+$/u.test(term);
  return (
    word !== undefined &&
    [...word.terms, ...(word.kind === 'any' && word.prefix ? [word.prefix] : [])].every(single)
  );
}

/** The numbers of an organization's live indexed spaces (see `orgBounds`), or a part of them. */
interface OrgBounds {
  low: number;
  high: number;
  whole: boolean;
  /** The lowest and highest numbers of every indexed space, the organization's or not. */
  first: number;
  last: number;
  /** The numbers in the range a caller's search leaves out (see `leftOut`); undefined: `sp` decides. */
  leftOut?: number[];
}

/** Beyond this many numbers to leave out of an organization's range, its spaces are listed (`sp`). */
const LEFT_OUT_MAX = 1000;

export class SqliteSearchIndex extends SqlSearchIndex {
  constructor(
    db: Db,
    /** Where searches of many pages read, when the database is a file (see SqliteReaders). */
    private readonly readers?: SqliteReaders,
    /** From how many pages a search reads on them (see `onReaders`). */
    private readonly readerPages = READER_PAGES,
    postingsPages?: number,
    /** From how many space numbers an organization's search is read in parts (see `partsOf`). */
    private readonly splitSpaces = SPLIT_SPACES,
    /** How many numbers of an organization's range its search may leave out by number (see `leftOut`). */
    private readonly leftOutMax = LEFT_OUT_MAX,
  ) {
    // A large space's postings (a megabyte for two common words) are read on a reader too.
    super(
      db,
      postingsPages,
      readers ? (query, pages) => (pages >= readerPages ? readers.all(query) : undefined) : undefined,
    );
  }

  /** A search's read: on a reader thread when asked (see `onReaders`), else on the server's connection. */
  private async read<R>(query: RawBuilder<R>, onReaders: boolean): Promise<R[]> {
    const compiled = query.compile(this.db);
    if (onReaders && this.readers) return this.readers.all<R>(compiled);
    return (await this.db.executeQuery<R>(compiled)).rows;
  }

  /**
   * Whether a search reads on the reader threads: when its scope is large, an organization's or
   * spaces of READER_PAGES pages and more. A reader costs each search about a millisecond more
   * (threads woken on this 2-core virtual machine: 3.9 -> 4.8 ms, the median of bench/search's
   * 10,000 pages), and spares the server the wait (a 100,000-page space: 15-30 ms a search,
   * during which the server answered nothing else).
   */
  private async onReaders(scope: SearchScope): Promise<boolean> {
    if (!this.readers) return false;
    if (scope.org) return true;
    // A space's highest page number: its pages, and the numbers of pages since deleted.
    const { rows } = await sql<{ pages: number }>`
      SELECT COALESCE(SUM((SELECT MAX(p.num) FROM search_pages p WHERE p.space_id = s.value)), 0) AS pages
      FROM json_each(${JSON.stringify(scope.spaceIds ?? [])}) s`.execute(this.db);
    return Number(rows[0]?.pages ?? 0) >= this.readerPages;
  }

  /**
   * The lowest and highest numbers of an organization's live indexed spaces (null: none), and
   * whether every number between them is one of those (`whole`: the organization's spaces were
   * indexed one after the other, as in a deployment of one organization), kept while the
   * database is unchanged. They bound the FTS5 rowids a search reads. Unless the range is the
   * scope, which spaces are in it is decided per matched page from `sp`, worked out only when a
   * page matched. Working out the bounds from `sp` made every search of a 10,000-space
   * organization list its spaces first (8 ms for a word no page holds, against 0.02 ms), and
   * scoping 10,000 matched pages by `sp` took a third of the search ("configuration": 28 ms
   * scoped, 19 ms within a whole range).
   */
  private async orgBounds(orgId: string): Promise<OrgBounds | null> {
    return this.kept(`search-org-bounds:${orgId}`, async () => {
      const { rows } = await sql<{
        low: number | null;
        high: number | null;
        live: number;
        keys: number;
        first: number;
        last: number;
      }>`
        WITH b AS (
          SELECT MIN(x.num) AS low, MAX(x.num) AS high, COUNT(*) AS live
          FROM spaces s CROSS JOIN search_space_keys x ON x.space_id = s.id
          WHERE s.org_id = ${orgId} AND s.deleted_at IS NULL
        )
        SELECT low, high, live, (SELECT COUNT(*) FROM search_space_keys k WHERE k.num BETWEEN b.low AND b.high) AS keys,
          (SELECT MIN(num) FROM search_space_keys) AS first, (SELECT MAX(num) FROM search_space_keys) AS last
        FROM b`.execute(this.db);
      const row = rows[0];
      if (row?.low == null || row.high == null) return null;
      return {
        low: Number(row.low),
        high: Number(row.high),
        whole: Number(row.keys) === Number(row.live),
        first: Number(row.first),
        last: Number(row.last),
      };
    });
  }

  /**
   * The numbers within an organization's range that a caller's search must leave out: other
   * organizations' spaces indexed between its own, spaces deleted or gone, and those the caller
   * may not read; none for an admin of an organization indexed in one run. Kept per set of
   * visibility rules while the database is unchanged; undefined when there are more than
   * LEFT_OUT_MAX. Left out by number, a member's search no longer lists the organization's
   * spaces through the rules in each part of its ranking (`sp`: 20 ms a part for 10,000 spaces;
   * a 'read' member of 10,000 spaces with one closed to them: "search index" 103 -> 53 ms).
   */
  private async leftOut(
    bounds: OrgBounds,
    org: NonNullable<SearchScope['org']>,
  ): Promise<number[] | undefined> {
    if (bounds.whole && org.visibility.all) return [];
    const rules = org.visibility.all ? 'all' : digest(JSON.stringify(org.visibility));
    const nums = await this.kept(`search-org-left-out:${org.orgId}:${rules}`, async () => {
      const { rows } = await sql<{ num: number }>`SELECT x.num FROM search_space_keys x
        LEFT JOIN spaces s ON s.id = x.space_id
        WHERE x.num BETWEEN ${bounds.low} AND ${bounds.high}
          AND (s.id IS NULL OR s.org_id <> ${org.orgId} OR s.deleted_at IS NOT NULL
            OR ${visibleSql(org.visibility)} IS NOT TRUE)
        LIMIT ${sql.lit(this.leftOutMax + 1)}`.execute(this.db);
      return rows.map((r) => Number(r.num));
    });
    return nums.length > this.leftOutMax ? undefined : nums;
  }

  /**
   * The hits' pages in two statements: their rows, once each, then their sections by id (a
   * section's id is its space's number above its key). One statement joining the two read a
   * page's row again for each of its sections: 2.4 ms for 100 pages and 300 keys against 1.0 ms
   * (0.4 + 0.6). A commit between the two is as a section gone since the postings were read.
   */
  protected override async spaceHits(spaceId: string, keys: number[]): Promise<Map<number, HitPage>> {
    const nums = [...new Set(keys.map((key) => Math.floor(key / POSITION_SPAN)))];
    const { rows: pages } = await sql<PageRow & { num: number }>`
      SELECT p.space_id, p.page_id, p.title, p.description, p.path, p.ancestors, p.num
      FROM json_each(${JSON.stringify(nums)}) w
      CROSS JOIN search_pages p
      WHERE p.space_id = ${spaceId} AND p.num = w.value`.execute(this.db);
    const { rows: sections } = await sql<SectionRow & { num: number }>`
      SELECT (x.id >> ${PAGE_SHIFT}) & ${PAGE_MASK} AS num, x.space_id, x.page_id, x.position, x.anchor,
        x.heading, x.body
      FROM json_each(${JSON.stringify(keys)}) w
      CROSS JOIN search_sections x
        ON x.id = ((SELECT k.num FROM search_space_keys k WHERE k.space_id = ${spaceId}) << ${SPACE_SHIFT}) | w.value
      ORDER BY x.id`.execute(this.db);
    const byNum = new Map<number, HitPage>();
    for (const page of pages) byNum.set(Number(page.num), { row: page, sections: [] });
    for (const section of sections) {
      // A number given to another page since: not this page's section.
      const page = byNum.get(Number(section.num));
      if (page?.row.page_id === section.page_id) page.sections.push(storedSection(section));
    }
    return byNum;
  }

  protected keyList(keys: number[]): RawBuilder<unknown> {
    return sql`(SELECT value AS key FROM json_each(${JSON.stringify(keys)})) AS w`;
  }

  protected deleteTerms(tx: Tx, spaceId: string, pageIds: string[]): Promise<void> {
    return this.dropTerms(tx, spaceId, pageIds);
  }

  protected deleteAllTerms(tx: Tx, spaceId: string): Promise<void> {
    return this.dropTerms(tx, spaceId);
  }

  /** The terms of a space's pages (all of them without `pageIds`), before their rows go. */
  private async dropTerms(tx: Tx, spaceId: string, pageIds?: string[]): Promise<void> {
    const only = (column: RawBuilder<unknown>) =>
      pageIds ? sql`AND ${column} IN (${sql.join(pageIds)})` : sql``;
    for (const table of [sql`search_fts`, sql`search_headings`])
      await sql`DELETE FROM ${table} WHERE rowid IN (
        SELECT id FROM search_sections WHERE space_id = ${spaceId} ${only(sql`page_id`)})`.execute(tx);
    for (const table of [sql`search_titles`, sql`search_page_terms`])
      await sql`DELETE FROM ${table} WHERE rowid IN (
        SELECT (k.num << ${KEY_SHIFT}) | p.num FROM search_pages p CROSS JOIN search_space_keys k ON k.space_id = p.space_id
        WHERE p.space_id = ${spaceId} ${only(sql`p.page_id`)})`.execute(tx);
  }

  protected async insertSections(
    tx: Tx,
    spaceId: string,
    pages: IndexedPage[],
    nums: ReadonlyMap<string, number>,
  ): Promise<void> {
    const space = await this.spaceNum(tx, spaceId);
    const titles = new Map(pages.map((page) => [page, page.titleTerms ?? termsOf(page.title)]));
    // Every term of each page (its title's, each section's heading and text), for the page count.
    const pageTerms = new Map(pages.map((page) => [page, new Set(titles.get(page)!)]));
    const rows = pages.flatMap((page) => page.sections.map((section) => ({ page, section })));
    for (const batch of chunks(rows, 200)) {
      const keyed = batch.map(({ page, section }) => ({
        page,
        section,
        id: sectionKey(space, nums.get(page.pageId)!, section.position),
      }));
      await tx
        .insertInto('search_sections')
        .values(
          keyed.map(({ page, section, id }) => ({
            id: sql<number>`${id}`,
            space_id: spaceId,
            page_id: page.pageId,
            position: section.position,
            anchor: section.anchor,
            heading: section.heading,
            body: section.text,
          })),
        )
        .execute();
      for (const { page, section, id } of keyed) {
        const heading = section.terms?.heading ?? termsOf(section.heading);
        const body = section.terms?.text ?? termsOf(section.text);
        const all = pageTerms.get(page)!;
        for (const term of heading) all.add(term);
        for (const term of body) all.add(term);
        await sql`INSERT INTO search_fts (rowid, title, heading, body) VALUES (${id}, ${titles.get(page)!.join(' ')}, ${heading.join(' ')}, ${body.join(' ')})`.execute(
          tx,
        );
        if (heading.length > 0)
          await sql`INSERT INTO search_headings (rowid, heading) VALUES (${id}, ${heading.join(' ')})`.execute(
            tx,
          );
      }
    }
    for (const page of pages) {
      const key = (BigInt(space) << PAGE_BITS) | BigInt(nums.get(page.pageId)!);
      const title = titles.get(page)!;
      if (title.length > 0)
        await sql`INSERT INTO search_titles (rowid, title) VALUES (${key}, ${title.join(' ')})`.execute(tx);
      const all = pageTerms.get(page)!;
      if (all.size > 0)
        await sql`INSERT INTO search_page_terms (rowid, terms) VALUES (${key}, ${[...all].join(' ')})`.execute(
          tx,
        );
    }
  }

  /** The space's number, given the next free one on its first write. */
  private async spaceNum(tx: Tx, spaceId: string): Promise<number> {
    const found = await tx
      .selectFrom('search_space_keys')
      .select('num')
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (found) return Number(found.num);
    const top = await tx
      .selectFrom('search_space_keys')
      .select((eb) => eb.fn.max('num').as('top'))
      .executeTakeFirst();
    const num = Number(top?.top ?? 0) + 1;
    await tx.insertInto('search_space_keys').values({ space_id: spaceId, num }).execute();
    return num;
  }

  /**
   * FTS5 writes each batch as a segment and merges them only as they pile up: after a large
   * sync a term's entries are spread over several segments, and every query reads them all
   * (measured after indexing 10,000 pages: 7 segments, queries 9% slower than on one). FTS5's
   * incremental optimize ('merge' with a negative page count) merges them into one, a few
   * hundred pages per step, each step its own short write, until a step finds nothing to do.
   */
  async optimize(): Promise<void> {
    for (const table of FTS_TABLES) {
      for (;;) {
        const before = await this.totalChanges();
        await sql`INSERT INTO ${sql.id(table)} (${sql.id(table)}, rank) VALUES ('merge', ${sql.lit(-MERGE_STEP_PAGES)})`.execute(
          this.db,
        );
        // FTS5's documented signal: fewer than two changes means the step merged nothing.
        if ((await this.totalChanges()) - before < 2) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * Half the pages indexed. The merge into one segment rewrites the whole index, every space's:
   * run after every 1,000 pages written, a database holding a 100,000-page space rewrote it in
   * the background after every 1,000 one-page edits, its steps holding the connection
   * throughout (bench/scale's write rounds, each a one-page change merged and searched: 1.1 ms a
   * merge for 800 rounds, then 21 ms, and a search after a merge 1.1 s, once the 1,000th page
   * was written). After half the pages indexed, the rewrite is at most twice what was written,
   * and FTS5's own merging (automerge) keeps the segments few in between.
   */
  override async optimizeAfter(): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM search_pages`.execute(this.db);
    return Math.ceil(Number(rows[0]?.n ?? 0) / 2);
  }

  private async totalChanges(): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * One ranking pass (see `SqlSearchIndex.rank`). A page's score is its best tier (title 4,
   * heading 2, words together 1, added up within a section) plus a relevance below 1 (`REL`).
   * The relevance of a tier comes from the small index that found it: a title match's from the
   * title's bm25 (every section of the page holds the title), a heading's from the heading's, the
   * words together from their phrase's. Only pages without a tier take theirs from the sections'
   * bm25. So the tiers are ranked without reading the other matches: with the tiers only, a
   * common word of a 100,000-page space no longer reads and joins its 65,000 matches to rank
   * them (68 -> 10 ms), and both passes give a page the same score, so a cursor from one is
   * understood by the other.
   */
  protected async rankPass(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
  ): Promise<Ranking | undefined> {
    const query = (await Promise.all(plan.must.map((m) => this.fts5Of(m)))).join(' AND ');
    const found = scope.org ? await this.orgBounds(scope.org.orgId) : undefined;
    if (found === null) return { pages: [], more: false, total: 0 };
    const leftOut = found && scope.org ? await this.leftOut(found, scope.org) : undefined;
    const bounds = found && leftOut ? { ...found, leftOut } : found;
    const readers = await this.onReaders(scope);
    const parts = await Promise.all(
      this.partsOf(bounds, readers).map((part) =>
        this.rankRange(plan, query, scope, part, cursor, count, tiered, readers),
      ),
    );
    // The parts' keys are apart: their best pages, in the statement's order, are the answer's, and
    // their counts add up.
    const rows =
      parts.length === 1
        ? parts[0]!.rows
        : parts
            .flatMap((part) => part.rows)
            .sort((a, b) => Number(b.score) - Number(a.score) || Number(a.pk) - Number(b.pk))
            .slice(0, count + 1);
    const shown = rows.slice(0, count);
    const sections = await this.sectionsOf(shown.map((r) => ({ pk: Number(r.pk), pageId: r.page_id })));
    return {
      pages: shown.map((r) => ({
        spaceId: r.space_id,
        pageId: r.page_id,
        score: Number(r.score),
        page: storedPage(r),
        sections: sections.get(Number(r.pk)) ?? [],
      })),
      more: rows.length > count,
      total: parts.reduce((sum, part) => sum + part.total, 0),
    };
  }

  /**
   * The key ranges an organization's search reads, one statement each, on as many reader threads
   * as are idle: FTS5 reads a range's matches and their bm25 on one thread, so a common word of
   * a 10,000-space organization was one core's work while the other waited ("configuration"
   * 24 -> 14 ms in two parts side by side, "search index" 35 -> 23: each part pays bm25's
   * counts over the whole table). A space's keys are in one part, so a space is read in one
   * snapshot; two parts may read two snapshots a commit apart, as the sections read after the
   * ranking may. Small ranges, and scopes not read on the readers, are one part.
   */
  private partsOf(bounds: OrgBounds | undefined, onReaders: boolean): Array<OrgBounds | undefined> {
    if (!bounds || !onReaders || !this.readers) return [bounds];
    const span = bounds.high - bounds.low + 1;
    const parts = Math.min(this.readers.idle(), Math.floor(span / this.splitSpaces));
    if (parts < 2) return [bounds];
    return Array.from({ length: parts }, (_, i) => ({
      ...bounds,
      low: bounds.low + Math.floor((i * span) / parts),
      high: bounds.low + Math.floor(((i + 1) * span) / parts) - 1,
    }));
  }

  /** The ranking of the pages under one key range (see `rankPass`), with one more page than asked, and their count. */
  private async rankRange(
    plan: QueryPlan,
    query: string,
    scope: SearchScope,
    bounds: OrgBounds | undefined,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
    readers: boolean,
  ): Promise<{ rows: Array<PageRow & { pk: number; score: number }>; total: number }> {
    // The range is the scope, but for the numbers left out (often none: a caller who sees every
    // space of an organization whose keys it alone holds). Then no space is listed (see leftOut).
    const leftOut = bounds?.leftOut;
    // The bounds of the section keys of the spaces in scope, for the FTS5 rowid range: an
    // organization's kept between searches (see orgBounds), listed spaces' from their keys.
    const range = (table: RawBuilder<unknown>, shift: RawBuilder<unknown>) =>
      bounds
        ? sql`${table}.rowid >= ${bounds.low} << ${shift} AND ${table}.rowid < (${bounds.high} + 1) << ${shift}`
        : sql`${table}.rowid >= (SELECT MIN(num) FROM sp) << ${shift} AND ${table}.rowid < ((SELECT MAX(num) FROM sp) + 1) << ${shift}`;
    // FTS5 checks a rowid bound only at a match: sections outside the range that hold a phrase's
    // words, but not together, are read past the bound up to the next match anywhere. The phrase
    // is read towards the end of the table with fewer space numbers beyond the range ("search
    // index" in the lower half of 10,000 spaces: 5.7 ms ascending, 3.3 descending).
    const descending = bounds !== undefined && bounds.last - bounds.high > bounds.low - bounds.first;
    const together = plan.together
      ? sql`SELECT g.rowid AS sid, bm25(search_fts, ${WEIGHTS}) AS bm FROM search_fts g
          WHERE g.search_fts MATCH ${await this.fts5Of(plan.together)} AND ${range(sql`g`, SPACE_SHIFT)}
          ${descending ? sql`ORDER BY g.rowid DESC` : sql``}`
      : sql`SELECT 0 AS sid, 0.0 AS bm WHERE 0`;
    // Whether a page key is an answer: in scope (the rowid range less the numbers left out, or
    // when `sp` is one space), not hidden (few hidden pages, often none: then no key is looked
    // up), and not holding a word left out.
    const keep = (pk: RawBuilder<unknown>) =>
      sql`${
        leftOut
          ? leftOut.length === 0
            ? sql`1 = 1`
            : sql`(${pk} >> ${KEY_SHIFT}) NOT IN (${sql.join(leftOut)})`
          : bounds
            ? sql`(${pk} >> ${KEY_SHIFT}) IN (SELECT num FROM sp)`
            : sql`((SELECT COUNT(*) FROM sp) = 1 OR (${pk} >> ${KEY_SHIFT}) IN (SELECT num FROM sp))`
      }
        ${scope.includeHidden ? sql`` : sql`AND (NOT EXISTS (SELECT 1 FROM hp) OR ${pk} NOT IN hp)`}
        ${
          plan.not.length > 0
            ? sql`AND ${pk} NOT IN (SELECT e.rowid >> ${PAGE_SHIFT} FROM search_fts e
                WHERE e.search_fts MATCH ${toFts5(plan.not, { any: true })})`
            : sql``
        }`;
    // The spaces in scope: listed ones by their keys; an organization's from its own spaces,
    // never by reading every key of the database (a 100-space organization beside one of
    // 10,000: 3.8 -> 0.3 ms a search; the 10,000-space one pays 1 ms more, 8.3 -> 9.3). In
    // scopeSql, `x` stands for search_sections: search_space_keys has its space_id.
    const spaces = scope.org
      ? sql`spaces s CROSS JOIN search_space_keys x ON x.space_id = s.id`
      : sql`search_space_keys x CROSS JOIN spaces s ON s.id = x.space_id`;
    const tiers = sql`
      sp AS MATERIALIZED (
        SELECT x.space_id, x.num FROM ${spaces} WHERE ${this.scopeSql({ ...scope, includeHidden: true })}
      ),
      hp AS MATERIALIZED (${
        leftOut
          ? // The database's hidden pages (few: a partial index of them), rather than a look-up in
            // each of the scope's thousands of spaces.
            sql`SELECT (x.num << ${KEY_SHIFT}) | p.num AS pk FROM search_pages p INDEXED BY search_pages_hidden
              CROSS JOIN search_space_keys x ON x.space_id = p.space_id
              WHERE p.hidden = 1 AND x.num BETWEEN ${bounds!.low} AND ${bounds!.high}`
          : sql`SELECT (x.num << ${KEY_SHIFT}) | p.num AS pk FROM sp x
              CROSS JOIN search_pages p INDEXED BY search_pages_hidden ON p.space_id = x.space_id AND p.hidden = 1`
      }),
      t AS MATERIALIZED (
        SELECT t.rowid AS pk, bm25(search_titles) AS bm FROM search_titles t
        WHERE t.search_titles MATCH ${query} AND ${range(sql`t`, KEY_SHIFT)}
      ),
      h AS MATERIALIZED (
        SELECT h.rowid AS sid, bm25(search_headings) AS bm FROM search_headings h
        WHERE h.search_headings MATCH ${query} AND ${range(sql`h`, SPACE_SHIFT)}
      ),
      g AS MATERIALIZED (${together}),
      ts AS MATERIALIZED (
        SELECT h.sid, CASE WHEN h.sid IN (SELECT sid FROM g) THEN 3 ELSE 2 END AS w, ${REL(sql`h.bm`)} AS rel FROM h
        UNION ALL SELECT g.sid, 1, ${REL(sql`g.bm`)} FROM g WHERE g.sid NOT IN (SELECT sid FROM h)
      )`;
    // Ties are ordered by page key (the engine's own order, stable while a page is indexed); a
    // cursor's page gives its key back. Only the returned pages' rows are read.
    const after = cursor
      ? sql`score < ${cursor.score} OR (score = ${cursor.score} AND pk > (
          SELECT (x.num << ${KEY_SHIFT}) | p.num FROM search_pages p
          CROSS JOIN search_space_keys x ON x.space_id = p.space_id
          WHERE p.space_id = ${cursor.spaceId} AND p.page_id = ${cursor.pageId}))`
      : sql`1 = 1`;
    // A page's best: a title match gives 4, its best heading or words together, and the title's
    // relevance; any other page its best section. Grouped, never joined: a join of these CTEs
    // was a nested scan (2,196 title pages by 3,292 heading sections: 200 ms). Two aggregates
    // a row, not four: only a title row has a `trel`, and a page's best tier weight is the whole
    // part of its best `w + rel` (a weight is whole, a relevance below 1). Aggregating was most
    // of grouping a word in every title of 10,000 spaces (40,000 rows: 67 -> 59 ms a search).
    const best = sql`CASE WHEN MAX(trel) IS NOT NULL THEN 4 + CAST(MAX(w + rel) AS INTEGER) + MAX(trel) ELSE MAX(w + rel) END`;
    const tierRows = sql`SELECT pk, 0 AS w, ${REL(sql`bm`)} AS trel, 0 AS rel FROM t
      UNION ALL SELECT sid >> ${PAGE_SHIFT}, w, NULL, rel FROM ts`;
    // Whether only the tiers are ranked: more of their pages follow the cursor than the answer
    // holds. Decided in the statement, so the other matches are read only when needed: m joins
    // them to a row that is there only then (under a false condition alone, FTS5 still opened
    // its cursor and merged the doclists: 7 ms for a common word).
    const ranked = sql`
      tr AS MATERIALIZED (
        SELECT pk, score FROM (SELECT pk, ${best} AS score FROM (${tierRows}) GROUP BY pk) WHERE ${keep(sql`pk`)}
      ),
      restricting AS MATERIALIZED (
        SELECT ${tiered ? sql`COUNT(*) > ${sql.lit(count)}` : sql`0`} AS yes FROM (
          SELECT 1 FROM tr WHERE ${after} LIMIT ${sql.lit(count + 1)})
      ),
      m AS MATERIALIZED (
        SELECT f.rowid AS sid, bm25(search_fts, ${WEIGHTS}) AS bm FROM (SELECT 1 FROM restricting WHERE NOT yes) CROSS JOIN search_fts f
        WHERE f.search_fts MATCH ${query} AND ${range(sql`f`, SPACE_SHIFT)}
      ),
      full AS MATERIALIZED (
        SELECT pk, score FROM (
          SELECT pk, ${best} AS score FROM (
            ${tierRows} UNION ALL SELECT sid >> ${PAGE_SHIFT}, 0, NULL, ${REL(sql`bm`)} FROM m
          ) GROUP BY pk
        ) WHERE NOT (SELECT yes FROM restricting) AND ${keep(sql`pk`)}
      ),
      ranked AS (
        SELECT pk, score FROM tr WHERE (SELECT yes FROM restricting) UNION ALL SELECT pk, score FROM full
      )`;
    // The count of a one-word query, from the pages' own terms, needs nothing the ranking finds:
    // in a large space it starts on another reader beside it, and is dropped when the ranking
    // counted every match itself ("configuration" in 100,000 pages: 12 + 8 ms one after the
    // other). Not in an organization: there both would work out its thousands of spaces first
    // (measured slower: 7.8 -> 9.5-14 ms for a word of no page in 10,000 spaces).
    const early =
      tiered && readers && !scope.org && countsByPage(plan)
        ? this.countPages(plan, query, tiers, keep, range, readers)
        : undefined;
    early?.catch(() => undefined);
    // Limits as literals: SQLite plans a bound LIMIT less well (measured: 25% slower). One page
    // more than asked tells whether more follow.
    const rows = await this.read(
      sql<PageRow & { pk: number; score: number; total: number | null }>`
      WITH ${tiers}, ${ranked},
      top AS MATERIALIZED (
        SELECT pk, score FROM ranked WHERE ${after} ORDER BY score DESC, pk LIMIT ${sql.lit(count + 1)}
      )
      SELECT x.space_id, p.page_id, top.pk, top.score, p.title, p.description, p.path, p.ancestors,
        CASE WHEN (SELECT yes FROM restricting) THEN NULL ELSE (SELECT COUNT(*) FROM full) END AS total
      FROM top
      CROSS JOIN search_space_keys x ON x.num = top.pk >> ${KEY_SHIFT}
      CROSS JOIN search_pages p INDEXED BY search_pages_num ON p.space_id = x.space_id AND p.num = (top.pk & ${PAGE_MASK})
      ORDER BY top.score DESC, top.pk`,
      readers,
    );
    let found = rows[0]?.total;
    // Without a cursor an empty page means nothing matched.
    if (rows.length === 0 && !cursor) found = 0;
    // Every matched page is counted, ranked or not: read once more, without scores.
    if (found === undefined || found === null)
      found = await (early ?? this.countPages(plan, query, tiers, keep, range, readers));
    return { rows, total: Number(found) };
  }

  /**
   * A match as FTS5 query text, a word's prefix (or a phrase's last word's) replaced by the
   * indexed terms it begins when it is longer than FTS5's prefix indexes and begins few terms. FTS5 reads such a prefix
   * by merging the doclists of all its terms, every space's, before it seeks the rowids asked
   * for; the terms are read from those rowids on. The vocabulary is the pages' terms (0027),
   * the same terms as the sections' (measured: "configuration*" in a 100-page space beside a
   * 100,000-page one, 8 ms; its five terms, 0.05 ms; the lookup, 0.5 ms).
   */
  private async fts5Of(match: Match): Promise<string> {
    const prefix = match.kind === 'any' ? match.prefix : match.prefixLast ? match.terms.at(-1) : undefined;
    if (prefix === undefined || [...prefix].length <= INDEXED_PREFIX) return toFts5([match]);
    const { rows } = await sql<{ term: string }>`SELECT term FROM search_page_vocab
      WHERE term >= ${prefix} AND term < ${`${prefix}\u{10FFFF}`}
      LIMIT ${sql.lit(MAX_PREFIX_TERMS + 1)}`.execute(this.db);
    if (rows.length > MAX_PREFIX_TERMS) return toFts5([match]);
    const begun = rows.map((r) => r.term).filter((term) => term.startsWith(prefix));
    if (match.kind === 'any')
      return toFts5([{ kind: 'any', terms: [...new Set([...match.terms, ...begun])] }]);
    // A phrase ending in a prefix: the phrase ending in any of its terms (none: the phrase
    // itself, which matches nothing, as the prefix would not).
    const head = match.terms.slice(0, -1);
    const phrases = (begun.length > 0 ? begun : [prefix]).map((term) =>
      toFts5([{ kind: 'phrase', terms: [...head, term], prefixLast: false }]),
    );
    return phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`;
  }

  /**
   * The pages a query matches. A query of one word (its forms and prefix) matches a page exactly
   * when one of its sections has the word, so the pages' own terms (0027) count them, one entry
   * a page; otherwise the matching sections are read and their pages counted once each (a
   * common word of 100,000 pages: 15 ms from the sections).
   */
  private async countPages(
    plan: QueryPlan,
    query: string,
    ctes: RawBuilder<unknown>,
    keep: (pk: RawBuilder<unknown>) => RawBuilder<unknown>,
    range: (table: RawBuilder<unknown>, shift: RawBuilder<unknown>) => RawBuilder<unknown>,
    onReaders: boolean,
  ): Promise<number> {
    const rows = countsByPage(plan)
      ? await this.read(
          sql<{ n: number }>`WITH ${ctes}
          SELECT COUNT(*) AS n FROM search_page_terms c
          WHERE c.search_page_terms MATCH ${query} AND ${range(sql`c`, KEY_SHIFT)} AND ${keep(sql`c.rowid`)}`,
          onReaders,
        )
      : await this.read(
          sql<{ n: number }>`WITH ${ctes}
          SELECT COUNT(DISTINCT f.rowid >> ${PAGE_SHIFT}) AS n FROM search_fts f
          WHERE f.search_fts MATCH ${query} AND ${range(sql`f`, SPACE_SHIFT)} AND ${keep(sql`(f.rowid >> ${PAGE_SHIFT})`)}`,
          onReaders,
        );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Every section of the ranked pages, by page key, read by key range: the highlighter shows
   * those that match (a title match matches each section; which others do, only the sections
   * ranked in the full pass would tell).
   *
   * A short read by key, on this connection without a reader's round trip. The ranking may have
   * been read on a reader a moment before, and a page's number is given again when the space's
   * last page goes: a section of another page under the same key is not this hit's.
   */
  private async sectionsOf(
    hits: Array<{ pk: number; pageId: string }>,
  ): Promise<Map<number, StoredSection[]>> {
    const out = new Map<number, StoredSection[]>();
    if (hits.length === 0) return out;
    const pageOf = new Map(hits.map((hit) => [hit.pk, hit.pageId]));
    const { rows: found } = await sql<SectionRow & { pk: number }>`
      SELECT x.id >> ${PAGE_SHIFT} AS pk, x.space_id, x.page_id, x.position, x.anchor, x.heading, x.body
      FROM json_each(${JSON.stringify(hits.map((hit) => hit.pk))}) k
      CROSS JOIN search_sections x ON x.id >= (k.value << ${PAGE_SHIFT}) AND x.id < ((k.value + 1) << ${PAGE_SHIFT})
      ORDER BY x.id`.execute(this.db);
    for (const row of found) {
      if (pageOf.get(Number(row.pk)) !== row.page_id) continue;
      const list = out.get(Number(row.pk));
      if (list) list.push(storedSection(row));
      else out.set(Number(row.pk), [storedSection(row)]);
    }
    return out;
  }
}
