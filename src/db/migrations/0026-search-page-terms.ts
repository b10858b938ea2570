import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: every term of a page's sections on its search_pages row (`terms`, without
 * positions), GIN indexed with the term naming its space (as 0025's), so the pages matching a
 * query of one word are counted from page rows: counted from the sections, a common word of a
 * 100,000-page space (65,000 sections of 54,908 pages) read 24,000 heap blocks and hashed every
 * match (about 110 of a search's 180 ms); counted from the pages, 30 ms. Existing rows get the
 * union of their sections' terms here; the indexer writes them from then on. search/pg-terms.ts
 * names this very expression (a test checks the index is used).
 *
 * And the pages' numbers by space, as SQLite has had them since 0011: the indexer's next free
 * number, `max(num)` of a space, read every search_pages row of the space without it (a merge
 * into a 100,000-page space: 5 ms, and 33-45 ms once the rows hold their terms).
 */
const PAGE_TERMS_INDEX = `(terms || array_to_tsvector(ARRAY['§' || space_id]))`;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE search_pages ADD COLUMN IF NOT EXISTS terms tsvector`.execute(db);
  await sql`UPDATE search_pages p SET terms = COALESCE((
      SELECT array_to_tsvector(array_agg(DISTINCT u.lexeme)) FROM search_sections x
      CROSS JOIN LATERAL unnest(x.vector) u WHERE x.space_id = p.space_id AND x.page_id = p.page_id
    ), ''::tsvector)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS search_pages_terms ON search_pages USING gin (${sql.raw(PAGE_TERMS_INDEX)})`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS search_pages_num ON search_pages (space_id, num)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP INDEX IF EXISTS search_pages_num`.execute(db);
  await sql`DROP INDEX IF EXISTS search_pages_terms`.execute(db);
  await sql`ALTER TABLE search_pages DROP COLUMN IF EXISTS terms`.execute(db);
}
