import { sql } from 'kysely';
import type { Tx } from '../db/database.js';
import { documentTokens } from './analyzer.js';
import { type QueryPlan, toFts5 } from './query.js';
import {
  chunks,
  type IndexedPage,
  type RankCursor,
  type Ranking,
  type SearchScope,
  SqlSearchIndex,
} from './search-index.js';

/**
 * SQLite: the analysed terms of each section in the contentless FTS5 table `search_fts`
 * (columns title, heading, body; rowid = search_sections.id), ranked with bm25.
 */

const terms = (text: string) =>
  documentTokens(text)
    .map((t) => t.term)
    .join(' ');

/** bm25 weights of the title, heading and body columns. */
const WEIGHTS = sql.raw('10.0, 4.0, 1.0');

export class SqliteSearchIndex extends SqlSearchIndex {
  protected async deleteTerms(tx: Tx, spaceId: string, pageIds: string[]): Promise<void> {
    await sql`DELETE FROM search_fts WHERE rowid IN (
      SELECT id FROM search_sections WHERE space_id = ${spaceId} AND page_id IN (${sql.join(pageIds)}))`.execute(
      tx,
    );
  }

  protected async deleteAllTerms(tx: Tx, spaceId: string): Promise<void> {
    await sql`DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_sections WHERE space_id = ${spaceId})`.execute(
      tx,
    );
  }

  protected async insertSections(tx: Tx, spaceId: string, pages: IndexedPage[]): Promise<void> {
    const rows = pages.flatMap((page) => page.sections.map((section) => ({ page, section })));
    for (const batch of chunks(rows, 200)) {
      const inserted = await tx
        .insertInto('search_sections')
        .values(
          batch.map(({ page, section }) => ({
            space_id: spaceId,
            page_id: page.pageId,
            position: section.position,
            anchor: section.anchor,
            heading: section.heading,
            body: section.text,
          })),
        )
        .returning(['id', 'page_id', 'position'])
        .execute();
      const ids = new Map(inserted.map((r) => [`${r.page_id}\0${r.position}`, Number(r.id)]));
      for (const { page, section } of batch) {
        const id = ids.get(`${page.pageId}\0${section.position}`)!;
        await sql`INSERT INTO search_fts (rowid, title, heading, body) VALUES (${id}, ${terms(page.title)}, ${terms(section.heading)}, ${terms(section.text)})`.execute(
          tx,
        );
      }
    }
  }

  async rank(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    limit: number,
  ): Promise<Ranking> {
    if (plan.must.length === 0) return { pages: [], total: 0 };
    const query = toFts5(plan.must);
    const flag = (match: string, weight: number) =>
      sql`(CASE WHEN x.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${match}) THEN ${sql.lit(weight)} ELSE 0 END)`;
    const together = plan.together ? flag(toFts5([plan.together]), 1) : sql`0`;
    const excluded =
      plan.not.length > 0
        ? sql`AND (x.space_id, x.page_id) NOT IN (
            SELECT y.space_id, y.page_id FROM search_fts e CROSS JOIN search_sections y INDEXED BY search_sections_owner ON y.id = e.rowid
            WHERE e.search_fts MATCH ${toFts5(plan.not, { any: true })})`
        : sql``;
    // Every matching section in the scope with its tier: the bonuses for the page title, a
    // heading and the words together. The score is tier + bm25 / (1 + bm25) (below 1), so a
    // page's rank is decided by its best tier first, and bm25 matters within a tier only.
    // A section's page row is written and removed with it: it is read only for `hidden`.
    const pages = scope.includeHidden
      ? sql``
      : sql`CROSS JOIN search_pages p ON p.space_id = x.space_id AND p.page_id = x.page_id`;
    const hits = sql`
      m AS MATERIALIZED (SELECT f.rowid AS sid FROM search_fts f WHERE f.search_fts MATCH ${query}),
      hit AS MATERIALIZED (
        SELECT x.id AS sid, x.space_id, x.page_id,
          ${flag(toFts5(plan.must, { column: 'title' }), 4)} + ${flag(toFts5(plan.must, { column: 'heading' }), 2)}
          + ${together} AS tier
        FROM m
        CROSS JOIN search_sections x INDEXED BY search_sections_owner ON x.id = m.sid
        ${pages}
        CROSS JOIN spaces s ON s.id = x.space_id
        WHERE ${this.scopeSql(scope)} ${excluded}
      ),
      tiers AS MATERIALIZED (SELECT space_id, page_id, MAX(tier) AS tier FROM hit GROUP BY space_id, page_id)`;
    // bm25 costs a lookup per row: on the first page of results it is computed only for the
    // sections that can reach it - the best-tier sections of pages whose best tier is at least
    // the tier of the limit-th page. Later pages (a cursor) rank every match.
    const candidates = cursor
      ? sql`SELECT sid, space_id, page_id, tier FROM hit`
      : sql`SELECT h.sid, h.space_id, h.page_id, h.tier FROM hit h
          JOIN tiers t ON t.space_id = h.space_id AND t.page_id = h.page_id AND t.tier = h.tier
          WHERE t.tier >= COALESCE((SELECT tier FROM tiers ORDER BY tier DESC LIMIT 1 OFFSET ${limit - 1}), -1)`;
    const { rows } = await sql<{ space_id: string; page_id: string; score: number; total: number }>`
      WITH ${hits},
      c AS MATERIALIZED (${candidates}),
      f AS MATERIALIZED (
        SELECT f.rowid AS sid, bm25(search_fts, ${WEIGHTS}) AS bm FROM search_fts f
        WHERE f.search_fts MATCH ${query} AND +f.rowid IN (SELECT sid FROM c)
      ),
      scored AS (
        SELECT c.space_id, c.page_id, c.tier + (0.0 - f.bm) / (1.0 - f.bm) AS score
        FROM f JOIN c ON c.sid = f.sid
      ),
      ranked AS MATERIALIZED (SELECT space_id, page_id, MAX(score) AS score FROM scored GROUP BY space_id, page_id)
      SELECT space_id, page_id, score, (SELECT COUNT(*) FROM tiers) AS total FROM ranked
      WHERE ${this.cursorSql(cursor)}
      ORDER BY score DESC, space_id, page_id
      LIMIT ${limit}`.execute(this.db);
    let total = rows[0]?.total;
    if (total === undefined) {
      const counted = await sql<{ n: number }>`WITH ${hits} SELECT COUNT(*) AS n FROM tiers`.execute(this.db);
      total = Number(counted.rows[0]?.n ?? 0);
    }
    return {
      pages: rows.map((r) => ({ spaceId: r.space_id, pageId: r.page_id, score: Number(r.score) })),
      total: Number(total),
    };
  }
}
