import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../db/database.js';
import { keepPrepared } from '../db/pg-dialect.js';
import { documentTokens } from './analyzer.js';
import { type TermsPart, termsMatch } from './pg-terms.js';
import { type QueryPlan, toTsQuery } from './query.js';
import {
  chunks,
  type IndexedPage,
  type PageRow,
  type RankCursor,
  type Ranking,
  type SearchScope,
  SqlSearchIndex,
  storedPage,
} from './search-index.js';

/**
 * PostgreSQL: each section's analysed terms as a tsvector (`search_sections.vector`, GIN
 * indexed) built here rather than by a text-search configuration, so both engines see the
 * same terms: the page title with weight A, the heading B, the text D; positions keep the
 * columns apart so a phrase never spans two of them. Ranked with ts_rank.
 */

/** A matched section as the ranking reads it: position, anchor, heading, body. */
type SectionJson = [number, string | null, string, string];

/** tsvector positions stop at 16383; a lexeme keeps at most 256 of them. */
const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_LEXEME = 255;

const lexeme = (term: string) => `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The tsvector literal of a section. */
export function vectorOf(title: string, heading: string, body: string): string {
  const positions = new Map<string, string[]>();
  let position = 1;
  for (const [text, weight] of [
    [title, 'A'],
    [heading, 'B'],
    [body, 'D'],
  ] as const) {
    for (const token of documentTokens(text)) {
      if (position > MAX_POSITION) break;
      const list = positions.get(token.term) ?? [];
      if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(`${position}${weight === 'D' ? '' : weight}`);
      positions.set(token.term, list);
      position++;
    }
    position++;
  }
  return [...positions].map(([term, list]) => `${lexeme(term)}:${list.join(',')}`).join(' ');
}

export class PostgresSearchIndex extends SqlSearchIndex {
  protected async deleteTerms(): Promise<void> {
    // The terms are a column of search_sections: they go with its rows.
  }

  protected async deleteAllTerms(): Promise<void> {}

  protected async insertSections(tx: Tx, spaceId: string, pages: IndexedPage[]): Promise<void> {
    const rows = pages.flatMap((page) => page.sections.map((section) => ({ page, section })));
    for (const batch of chunks(rows, 200)) {
      await tx
        .insertInto('search_sections')
        .values(
          batch.map(({ page, section }) => ({
            space_id: spaceId,
            page_id: page.pageId,
            position: section.position,
            anchor: section.anchor,
            heading: section.heading,
            body: section.text,
            vector: sql`${vectorOf(page.title, section.heading, section.text)}::tsvector`,
          })) as never,
        )
        .execute();
    }
  }

  /**
   * Statistics for the planner. Until autovacuum analyses the tables (up to a minute or more
   * after a bulk load), the planner assumes a space has a few dozen pages and checks the
   * vector of every section of the space one by one instead of using the GIN index (measured
   * after indexing 10,000 pages: 74 ms for a rare word instead of 9). GIN merges its own
   * pending entries.
   */
  async optimize(): Promise<void> {
    for (const table of ['search_pages', 'search_sections', 'search_vocab'])
      await sql`ANALYZE ${sql.id(table)}`.execute(this.db);
  }

  /**
   * One ranking statement (see `SqlSearchIndex.rank`). Computing each match's flags and ts_rank
   * was most of a common word's cost (65,000 sections of a 100,000-page space: 370 ms); the
   * title and heading matches now come from their own small indexes (0025), and with the tiers
   * only, ts_rank runs on the sections of pages with a tier. What is left for the other matches
   * is reading their rows to count their pages.
   */
  protected async rankPass(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
  ): Promise<Ranking | undefined> {
    const query = sql`${toTsQuery(plan.must)}::tsquery`;
    const fixed = scope.org === undefined && scope.spaceIds !== undefined;
    // One space: matched inside the indexes, by its term (see pg-terms.ts).
    const alone = fixed && scope.spaceIds!.length === 1 ? scope.spaceIds![0] : undefined;
    const matching = (part: TermsPart, alias: string, tsquery: string) =>
      termsMatch(part, alias, tsquery, alone);
    const filter = toTsQuery(plan.must, { lean: true });
    // A few spaces are one array to compare with; an organization's thousands are a hashed set
    // (an array parameter is compared element by element: 10,000 spaces, 171 ms a search).
    // OFFSET 0 keeps it a set to look matches up in, never a join that reads every section of
    // every space by space.
    const spaceIn = (column: RawBuilder<unknown>) =>
      fixed ? sql`${column} = ANY(ARRAY(SELECT id FROM sp))` : sql`${column} IN (SELECT id FROM sp OFFSET 0)`;
    const inScope = spaceIn(sql`x.space_id`);
    // Sections whose title (weight A) or heading (weight B) has the words, by the indexes on
    // those weights alone: the same sections as `vector @@ 'word':A`, without reading every vector.
    const weighted = (part: 'titles' | 'headings') =>
      sql`SELECT x.space_id, x.page_id, x.position FROM search_sections x
        WHERE ${matching(part, 'x', filter)} AND ${inScope}`;
    // The words' sections by the index (without positions, so no row is checked again by
    // concatenating its terms), then those with the words together, on the vector itself.
    const together = plan.together
      ? sql`SELECT x.space_id, x.page_id, x.position FROM search_sections x
          WHERE ${matching('all', 'x', filter)} AND x.vector @@ ${toTsQuery([plan.together])}::tsquery AND ${inScope}`
      : sql`SELECT NULL::text AS space_id, NULL::text AS page_id, NULL::integer AS position WHERE false`;
    const excluded = (alias: string) =>
      plan.not.length > 0
        ? sql`AND (${sql.ref(`${alias}.space_id`)}, ${sql.ref(`${alias}.page_id`)}) NOT IN (
            SELECT e.space_id, e.page_id FROM search_sections e
            WHERE ${matching('all', 'e', toTsQuery(plan.not, { any: true, lean: true }))})`
        : sql``;
    // Hidden pages of the scope (few) are taken out of the matches as a set: joining every
    // match to its page row cost more than the match itself (a rare word: 4 of 5 ms).
    const hidden = scope.includeHidden
      ? sql``
      : sql`AND (m.space_id, m.page_id) NOT IN (
          SELECT p.space_id, p.page_id FROM search_pages p WHERE ${spaceIn(sql`p.space_id`)} AND p.hidden = 1)`;
    // A list of spaces is one parameter, so the statement's text depends only on the query's
    // shape; an organization's visibility rules are lists of any length.
    const spaces = fixed
      ? sql`s.deleted_at IS NULL AND s.id = ANY(${scope.spaceIds}::text[])`
      : this.scopeSql({ ...scope, includeHidden: true }, sql`s.id`);
    // Whether only the tiers are scored: more pages have one than the answer holds (computed once).
    const restricting = tiered ? sql`((SELECT COUNT(*) FROM cp) > ${sql.lit(count)})` : sql`false`;
    // The matches are read either to be counted (narrow rows, when only the pages with a tier
    // are scored) or to be ranked; the pages with a tier are read by page (OFFSET 0 keeps
    // the planner from joining them to every match instead). ts_rank is taken
    // where the vector is read, so no vector travels through a join or sort. The tier flags
    // are joined, never looked up per match: sets of any size stay cheap.
    const ranked = sql`
      sp AS MATERIALIZED (SELECT s.id FROM spaces s WHERE ${spaces}),
      tm AS MATERIALIZED (${weighted('titles')}),
      hm AS MATERIALIZED (${weighted('headings')}),
      gm AS MATERIALIZED (${together}),
      cp AS MATERIALIZED (
        SELECT space_id, page_id FROM tm UNION SELECT space_id, page_id FROM hm UNION SELECT space_id, page_id FROM gm
      ),
      m AS MATERIALIZED (
        SELECT x.space_id, x.page_id FROM search_sections x
        WHERE ${matching('all', 'x', filter)} AND ${inScope} ${excluded('x')}
      ),
      r AS MATERIALIZED (
        SELECT y.space_id, y.page_id, y.position, y.r FROM cp CROSS JOIN LATERAL (
          SELECT x.space_id, x.page_id, x.position, ts_rank(x.vector, ${query})::float8 AS r FROM search_sections x
          WHERE x.space_id = cp.space_id AND x.page_id = cp.page_id AND x.vector @@ ${filter}::tsquery ${excluded('x')}
          OFFSET 0
        ) y WHERE ${restricting}
        UNION ALL
        SELECT x.space_id, x.page_id, x.position, ts_rank(x.vector, ${query})::float8 AS r FROM search_sections x
        WHERE NOT ${restricting} AND ${matching('all', 'x', filter)} AND ${inScope} ${excluded('x')}
      ),
      ranked AS MATERIALIZED (
        SELECT m.space_id, m.page_id, array_agg(m.position) AS positions,
          MAX((CASE WHEN tm.position IS NULL THEN 0 ELSE 4 END) + (CASE WHEN hm.position IS NULL THEN 0 ELSE 2 END)
            + (CASE WHEN gm.position IS NULL THEN 0 ELSE 1 END) + m.r / (1.0 + m.r))::float8 AS score
        FROM r m
        LEFT JOIN tm ON tm.space_id = m.space_id AND tm.page_id = m.page_id AND tm.position = m.position
        LEFT JOIN hm ON hm.space_id = m.space_id AND hm.page_id = m.page_id AND hm.position = m.position
        LEFT JOIN gm ON gm.space_id = m.space_id AND gm.page_id = m.page_id AND gm.position = m.position
        WHERE true ${hidden} GROUP BY m.space_id, m.page_id
      ),
      top AS MATERIALIZED (
        SELECT space_id, page_id, score, positions FROM ranked WHERE ${this.cursorSql(cursor)}
        ORDER BY score DESC, space_id, page_id
        LIMIT ${count + 1}
      )`;
    // Every matched page is counted, scored or not: when every match was scored, they are the
    // ranked pages, and the matches are not read a second time (a CTE is read when first used).
    const total = sql`(CASE WHEN ${restricting}
      THEN (SELECT COUNT(*) FROM (SELECT DISTINCT m.space_id, m.page_id FROM m WHERE true ${hidden}) d)
      ELSE (SELECT COUNT(*) FROM ranked) END)`;
    // One statement: the count, the returned pages and their matched sections, both read by index
    // for those pages only (OFFSET 0 keeps the planner from joining every page row instead); one
    // page more than asked tells whether more follow. The count's row comes back even when no
    // page does. It starts with SELECT: the driver takes any other statement for a write.
    const statement = sql<
      Partial<PageRow> & { score: number; total: number; restricted: boolean; sections: SectionJson[] | null }
    >`
      SELECT * FROM (WITH ${ranked}
        SELECT c.total, c.restricted, t.* FROM (SELECT ${total} AS total, ${restricting} AS restricted) c
        LEFT JOIN LATERAL (
          SELECT top.space_id, top.page_id, top.score, p.title, p.description, p.path, p.ancestors,
            (SELECT json_agg(json_build_array(y.position, y.anchor, y.heading, y.body) ORDER BY y.position)
              FROM search_sections y WHERE y.space_id = top.space_id AND y.page_id = top.page_id AND y.position = ANY(top.positions)) AS sections
          FROM top CROSS JOIN LATERAL (
            SELECT p.title, p.description, p.path, p.ancestors FROM search_pages p
            WHERE p.space_id = top.space_id AND p.page_id = top.page_id OFFSET 0) p
        ) t ON true
      ) answer
      ORDER BY score DESC, space_id, page_id`.compile(this.db);
    // Planning this statement takes 1.5 ms, as long as running it for a rare word. Its generic
    // plan, which a prepared statement settles on, is the one wanted for every query: matches by
    // the GIN index, however many.
    if (fixed) keepPrepared(statement.sql);
    const { rows } = await this.db.executeQuery(statement);
    const found = rows.filter((r): r is PageRow & typeof r => r.page_id != null);
    // Fewer pages than asked from the tiers only: they ran out, so every match is ranked.
    if (tiered && found.length <= count && rows[0]?.restricted === true) return undefined;
    return {
      pages: found.slice(0, count).map((row) => ({
        spaceId: row.space_id,
        pageId: row.page_id,
        score: Number(row.score),
        page: storedPage(row),
        sections: (row.sections ?? []).map(([position, anchor, heading, body]) => ({
          spaceId: row.space_id,
          pageId: row.page_id,
          position,
          anchor,
          heading,
          body,
        })),
      })),
      more: found.length > count,
      total: Number(rows[0]?.total ?? 0),
    };
  }

  private cursorSql(cursor: RankCursor | undefined): RawBuilder<unknown> {
    if (!cursor) return sql`1 = 1`;
    const { score, spaceId, pageId } = cursor;
    return sql`(score < ${score} OR (score = ${score} AND (space_id > ${spaceId} OR (space_id = ${spaceId} AND page_id > ${pageId}))))`;
  }
}
