import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../db/database.js';
import { documentTokens } from './analyzer.js';
import { type QueryPlan, toFts5 } from './query.js';
import {
  chunks,
  type IndexedPage,
  type PageRow,
  type RankCursor,
  type Ranking,
  type SearchScope,
  type SectionRow,
  SqlSearchIndex,
  type StoredSection,
  storedPage,
  storedSection,
} from './search-index.js';

/**
 * SQLite: the analysed terms of each section in the contentless FTS5 table `search_fts`
 * (columns title, heading, body; rowid = search_sections.id), ranked with bm25.
 *
 * A section's id is its key: space number (search_space_keys) << 42 | page number
 * (search_pages.num) << 20 | position. A query groups its matches by page (`rowid >> 20`) and
 * scopes them by space (`rowid >> 42`) without reading a row per match, and reads the space and
 * page ids of the pages it returns only.
 */

const terms = (text: string) =>
  documentTokens(text)
    .map((t) => t.term)
    .join(' ');

const FTS_TABLES = ['search_fts', 'search_titles', 'search_headings'];
/** Pages written per merge step: a few tens of milliseconds each. */
const MERGE_STEP_PAGES = 250;

/** bm25 weights of the title, heading and body columns. */
const WEIGHTS = sql.raw('10.0, 4.0, 1.0');

const POSITION_BITS = 20n;
const PAGE_BITS = 22n;
const SPACE_BITS = 21n;
/** `sid >> PAGE_SHIFT` is a section's page key, `sid >> SPACE_SHIFT` its space number. */
const PAGE_SHIFT = sql.lit(Number(POSITION_BITS));
const SPACE_SHIFT = sql.lit(Number(POSITION_BITS + PAGE_BITS));
/** `key >> PAGE_BITS` is a page key's space number, `key & PAGE_MASK` its page number. */
const KEY_SHIFT = sql.lit(Number(PAGE_BITS));
const PAGE_MASK = sql.lit(Number((1n << PAGE_BITS) - 1n));
/** `sid & POSITION_MASK` is a section's position in its page. */
const POSITION_MASK = sql.lit(Number((1n << POSITION_BITS) - 1n));

function sectionKey(space: number, page: number, position: number): bigint {
  if (
    space >= 2 ** Number(SPACE_BITS) ||
    page >= 2 ** Number(PAGE_BITS) ||
    position >= 2 ** Number(POSITION_BITS)
  )
    throw new Error(`search key out of range: space ${space}, page ${page}, section ${position}`);
  return (BigInt(space) << (POSITION_BITS + PAGE_BITS)) | (BigInt(page) << POSITION_BITS) | BigInt(position);
}

export class SqliteSearchIndex extends SqlSearchIndex {
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
    await sql`DELETE FROM search_titles WHERE rowid IN (
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
    const titles = new Map(pages.map((page) => [page, terms(page.title)]));
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
        const heading = terms(section.heading);
        await sql`INSERT INTO search_fts (rowid, title, heading, body) VALUES (${id}, ${titles.get(page)!}, ${heading}, ${terms(section.text)})`.execute(
          tx,
        );
        if (heading)
          await sql`INSERT INTO search_headings (rowid, heading) VALUES (${id}, ${heading})`.execute(tx);
      }
    }
    for (const [page, title] of titles) {
      if (!title) continue;
      const key = (BigInt(space) << PAGE_BITS) | BigInt(nums.get(page.pageId)!);
      await sql`INSERT INTO search_titles (rowid, title) VALUES (${key}, ${title})`.execute(tx);
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

  private async totalChanges(): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT total_changes() AS n`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * One ranking statement (see `SqlSearchIndex.rank`). bm25 is most of the cost of a common
   * word (65,000 sections of a 100,000-page space: 52 of 118 ms); with the tiers only, the
   * sections that give a page its tier are scored (measured: 118 -> 55 ms).
   */
  protected async rankPass(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
  ): Promise<Ranking | undefined> {
    const query = toFts5(plan.must);
    // The bounds of the section keys of the spaces in scope, for the FTS5 rowid range.
    const range = (table: RawBuilder<unknown>, shift: RawBuilder<unknown>) =>
      sql`${table}.rowid >= (SELECT MIN(num) FROM sp) << ${shift} AND ${table}.rowid < ((SELECT MAX(num) FROM sp) + 1) << ${shift}`;
    const together = plan.together
      ? sql`SELECT g.rowid AS sid FROM search_fts g WHERE g.search_fts MATCH ${toFts5([plan.together])} AND ${range(sql`g`, SPACE_SHIFT)}`
      : sql`SELECT 0 AS sid WHERE 0`;
    const excluded =
      plan.not.length > 0
        ? sql`AND (m.sid >> ${PAGE_SHIFT}) NOT IN (
            SELECT e.rowid >> ${PAGE_SHIFT} FROM search_fts e WHERE e.search_fts MATCH ${toFts5(plan.not, { any: true })})`
        : sql``;
    // Hidden pages of the scope (few, often none: then no match is looked up), by page key.
    const hidden = scope.includeHidden
      ? sql``
      : sql`AND (NOT EXISTS (SELECT 1 FROM hp) OR (m.sid >> ${PAGE_SHIFT}) NOT IN hp)`;
    // Whether only the tiers are scored: more pages have one than the answer holds (computed once).
    const restricting = tiered ? sql`((SELECT COUNT(*) FROM cp) > ${sql.lit(count)})` : sql`0`;
    const bm25 = sql`bm25(search_fts, ${WEIGHTS})`;
    // One pass over the sections' doclists gives every match, with its bm25 where it is needed;
    // the tiers come from the small title and heading indexes and, for two words or more, the
    // pass of the words together. A section scores tier + bm25 / (1 + bm25) (below 1): a page's
    // rank is decided by its best tier first (title 4, heading 2, words together 1), and bm25
    // within a tier. In scopeSql, `x` stands for search_sections: search_space_keys has its space_id.
    const scored = sql`
      sp AS MATERIALIZED (
        SELECT x.space_id, x.num FROM search_space_keys x CROSS JOIN spaces s ON s.id = x.space_id
        WHERE ${this.scopeSql({ ...scope, includeHidden: true })}
      ),
      t AS MATERIALIZED (
        SELECT t.rowid AS pk FROM search_titles t WHERE t.search_titles MATCH ${query} AND ${range(sql`t`, KEY_SHIFT)}
      ),
      h AS MATERIALIZED (
        SELECT h.rowid AS sid FROM search_headings h WHERE h.search_headings MATCH ${query} AND ${range(sql`h`, SPACE_SHIFT)}
      ),
      g AS MATERIALIZED (${together}),
      hp AS MATERIALIZED (
        SELECT (x.num << ${KEY_SHIFT}) | p.num AS pk FROM sp x
        CROSS JOIN search_pages p INDEXED BY search_pages_hidden ON p.space_id = x.space_id AND p.hidden = 1
      ),
      cp AS MATERIALIZED (
        SELECT pk FROM t UNION SELECT sid >> ${PAGE_SHIFT} FROM h UNION SELECT sid >> ${PAGE_SHIFT} FROM g
      ),
      m AS MATERIALIZED (
        SELECT f.rowid AS sid,
          CASE WHEN NOT ${restricting} THEN ${bm25}
            WHEN (f.rowid >> ${PAGE_SHIFT}) NOT IN cp THEN NULL
            WHEN (f.rowid >> ${PAGE_SHIFT}) IN t OR f.rowid IN h OR f.rowid IN g THEN ${bm25} END AS bm
        FROM search_fts f
        WHERE f.search_fts MATCH ${query} AND ${range(sql`f`, SPACE_SHIFT)}
      ),
      matched AS (
        -- The rowid range is the scope when it has one space.
        SELECT m.sid, m.bm FROM m
        WHERE ((SELECT COUNT(*) FROM sp) = 1 OR (m.sid >> ${SPACE_SHIFT}) IN (SELECT num FROM sp)) ${hidden} ${excluded}
      ),
      scored AS (
        SELECT m.sid >> ${PAGE_SHIFT} AS pk, m.sid & ${POSITION_MASK} AS position, m.bm,
          (CASE WHEN (m.sid >> ${PAGE_SHIFT}) IN t THEN 4 ELSE 0 END) + (CASE WHEN m.sid IN h THEN 2 ELSE 0 END)
          + (CASE WHEN m.sid IN g THEN 1 ELSE 0 END) + (0.0 - m.bm) / (1.0 - m.bm) AS score
        FROM matched m
        WHERE NOT ${restricting} OR (m.sid >> ${PAGE_SHIFT}) IN cp
      ),
      ranked AS MATERIALIZED (
        -- A section without bm25 has no tier (below 1): it never is its page's best, but it
        -- was matched, so it is among the page's sections shown.
        SELECT pk, MAX(score) AS score, group_concat(position) AS positions FROM scored
        GROUP BY pk HAVING COUNT(bm) > 0
      )`;
    // Ties are ordered by page key (the engine's own order, stable while a page is indexed);
    // a cursor's page gives its key back. Sorting on keys before reading any page row is what
    // makes this cheap: only the returned pages are looked up.
    const after = cursor
      ? sql`score < ${cursor.score} OR (score = ${cursor.score} AND pk > (
          SELECT (x.num << ${KEY_SHIFT}) | p.num FROM search_pages p
          CROSS JOIN search_space_keys x ON x.space_id = p.space_id
          WHERE p.space_id = ${cursor.spaceId} AND p.page_id = ${cursor.pageId}))`
      : sql`1 = 1`;
    // Every matched page is counted, scored or not.
    const total = sql`(SELECT COUNT(DISTINCT sid >> ${PAGE_SHIFT}) FROM matched)`;
    // Limits as literals: SQLite plans a bound LIMIT less well (measured: 25% slower). One page
    // more than asked tells whether more follow.
    const { rows } = await sql<
      PageRow & { pk: number; score: number; positions: string; total: number; restricted: number }
    >`
      WITH ${scored},
      top AS MATERIALIZED (
        SELECT pk, score, positions FROM ranked WHERE ${after} ORDER BY score DESC, pk LIMIT ${sql.lit(count + 1)}
      )
      SELECT x.space_id, p.page_id, top.pk, top.score, top.positions, p.title, p.description, p.path, p.ancestors,
        ${total} AS total, ${restricting} AS restricted
      FROM top
      CROSS JOIN search_space_keys x ON x.num = top.pk >> ${KEY_SHIFT}
      CROSS JOIN search_pages p INDEXED BY search_pages_num ON p.space_id = x.space_id AND p.num = (top.pk & ${PAGE_MASK})
      ORDER BY top.score DESC, top.pk`.execute(this.db);
    // Fewer pages than asked: either all there are, or (tiers only) the tiers ran out.
    if (tiered && rows.length <= count && (rows.length === 0 || Number(rows[0]!.restricted) === 1))
      return undefined;
    let found = rows[0]?.total;
    // Without a cursor an empty page means nothing matched; after one, count what matched.
    if (found === undefined && !cursor) found = 0;
    if (found === undefined) {
      const counted = await sql<{ n: number }>`WITH ${scored} SELECT ${total} AS n`.execute(this.db);
      found = Number(counted.rows[0]?.n ?? 0);
    }
    const shown = rows.slice(0, count);
    const sections = await this.matchedSections(shown);
    return {
      pages: shown.map((r) => ({
        spaceId: r.space_id,
        pageId: r.page_id,
        score: Number(r.score),
        page: storedPage(r),
        sections: sections.get(Number(r.pk)) ?? [],
      })),
      more: rows.length > count,
      total: Number(found),
    };
  }

  /** The matched sections of ranked pages, by page key, read by id (page key and position). */
  private async matchedSections(
    rows: Array<{ pk: number; positions: string }>,
  ): Promise<Map<number, StoredSection[]>> {
    const out = new Map<number, StoredSection[]>();
    if (rows.length === 0) return out;
    const wanted = JSON.stringify(rows.flatMap((r) => r.positions.split(',').map((n) => [r.pk, Number(n)])));
    const found = await sql<SectionRow & { pk: number }>`
      SELECT x.id >> ${PAGE_SHIFT} AS pk, x.space_id, x.page_id, x.position, x.anchor, x.heading, x.body
      FROM search_sections x
      WHERE x.id IN (SELECT (json_extract(value, '$[0]') << ${PAGE_SHIFT}) | json_extract(value, '$[1]') FROM json_each(${wanted}))`.execute(
      this.db,
    );
    for (const row of found.rows) {
      const list = out.get(Number(row.pk));
      if (list) list.push(storedSection(row));
      else out.set(Number(row.pk), [storedSection(row)]);
    }
    for (const list of out.values()) list.sort((a, b) => a.position - b.position);
    return out;
  }
}
