import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../db/database.js';
import { documentTokens } from './analyzer.js';
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
  protected jsonRows(json: string, columns: Array<[string, 'text' | 'integer']>): RawBuilder<unknown> {
    const fields = columns.map(([name, type]) => sql`${sql.id(name)} ${sql.raw(type)}`);
    return sql`jsonb_to_recordset(${json}::jsonb) AS w(${sql.join(fields)})`;
  }

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

  async rank(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    limit: number,
  ): Promise<Ranking> {
    if (plan.must.length === 0) return { pages: [], total: 0 };
    const query = sql`${toTsQuery(plan.must)}::tsquery`;
    const flag = (match: string, weight: number) =>
      sql`(CASE WHEN x.vector @@ ${match}::tsquery THEN ${sql.lit(weight)} ELSE 0 END)`;
    const together = plan.together ? flag(toTsQuery([plan.together]), 1) : sql`0`;
    const excluded =
      plan.not.length > 0
        ? sql`AND (x.space_id, x.page_id) NOT IN (
            SELECT y.space_id, y.page_id FROM search_sections y
            WHERE y.vector @@ ${toTsQuery(plan.not, { any: true })}::tsquery)`
        : sql``;
    const ranked = sql`
      WITH hit AS (
        SELECT x.space_id, x.page_id, x.position,
          ${flag(toTsQuery(plan.must, { weight: 'A' }), 4)} + ${flag(toTsQuery(plan.must, { weight: 'B' }), 2)}
          + ${together} + x.r / (1.0 + x.r) AS score
        FROM (
          SELECT x.*, ts_rank(x.vector, ${query})::float8 AS r FROM search_sections x WHERE x.vector @@ ${query}
        ) x
        JOIN search_pages p ON p.space_id = x.space_id AND p.page_id = x.page_id
        JOIN spaces s ON s.id = x.space_id
        WHERE ${this.scopeSql(scope)} ${excluded}
      ),
      ranked AS MATERIALIZED (
        SELECT space_id, page_id, MAX(score)::float8 AS score, array_agg(position) AS positions
        FROM hit GROUP BY space_id, page_id
      )`;
    // The page rows are read for the returned pages only, once the planner knows how few they
    // are (joined to a list it cannot count, it read every page of the space).
    const { rows } = await sql<PageRow & { score: number; positions: number[]; total: number }>`
      ${ranked}
      SELECT r.space_id, r.page_id, r.score, r.positions, r.total, p.title, p.description, p.path, p.ancestors
      FROM (
        SELECT space_id, page_id, score, positions, (SELECT COUNT(*) FROM ranked) AS total FROM ranked
        WHERE ${this.cursorSql(cursor)}
        ORDER BY score DESC, space_id, page_id
        LIMIT ${limit}
      ) r
      JOIN search_pages p ON p.space_id = r.space_id AND p.page_id = r.page_id
      ORDER BY r.score DESC, r.space_id, r.page_id`.execute(this.db);
    let total = rows[0]?.total;
    if (total === undefined) {
      const counted = await sql<{ n: number }>`${ranked} SELECT COUNT(*) AS n FROM ranked`.execute(this.db);
      total = Number(counted.rows[0]?.n ?? 0);
    }
    return {
      pages: rows.map((r) => ({
        spaceId: r.space_id,
        pageId: r.page_id,
        score: Number(r.score),
        sections: r.positions.map(Number),
        stored: storedPage(r),
      })),
      total: Number(total),
    };
  }

  private cursorSql(cursor: RankCursor | undefined): RawBuilder<unknown> {
    if (!cursor) return sql`1 = 1`;
    const { score, spaceId, pageId } = cursor;
    return sql`(score < ${score} OR (score = ${score} AND (space_id > ${spaceId} OR (space_id = ${spaceId} AND page_id > ${pageId}))))`;
  }
}
