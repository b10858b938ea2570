import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the terms of a page's title (`search_page_titles`, a row a page) and of a
 * section's heading (`search_section_headings`, a row a heading) in narrow tables of their own,
 * GIN indexed with the term naming their space as 0025's are. The tiers of a search were found
 * by 0025's indexes on the weights of each section's whole vector, and ranked by reading those
 * vectors: a common word of a 100,000-page space read 5,467 title sections (the title is in every
 * section of its page) and 3,332 heading sections, 5,900 heap blocks of 875-byte rows that
 * 128 MB of shared buffers do not keep, 45 of a search's 77 ms. The narrow rows (about 100
 * bytes) stay cached, and a tier is ranked from its own title's or heading's terms, as SQLite
 * ranks them from its own title and heading indexes (0012). They replace 0025's two weight
 * indexes. search/pg-terms.ts names the indexed expression.
 */
const SPACE_TERM = `array_to_tsvector(ARRAY['§' || space_id])`;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE TABLE search_page_titles (
      space_id text NOT NULL, page_id text NOT NULL, vector tsvector NOT NULL,
      PRIMARY KEY (space_id, page_id))`.execute(db);
  await sql`CREATE TABLE search_section_headings (
      space_id text NOT NULL, page_id text NOT NULL, position integer NOT NULL, vector tsvector NOT NULL,
      PRIMARY KEY (space_id, page_id, position))`.execute(db);
  // Every section holds its page's title with weight A, and its heading with weight B.
  await sql`INSERT INTO search_page_titles (space_id, page_id, vector)
    SELECT DISTINCT ON (space_id, page_id) space_id, page_id, ts_filter(vector, '{a}') FROM search_sections
    ORDER BY space_id, page_id, position`.execute(db);
  await sql`INSERT INTO search_section_headings (space_id, page_id, position, vector)
    SELECT space_id, page_id, position, h FROM (
      SELECT space_id, page_id, position, ts_filter(vector, '{b}') AS h FROM search_sections) x
    WHERE length(h) > 0`.execute(db);
  for (const table of ['search_page_titles', 'search_section_headings'])
    await sql`CREATE INDEX ${sql.id(`${table}_terms`)} ON ${sql.id(table)} USING gin ((vector || ${sql.raw(SPACE_TERM)}))`.execute(
      db,
    );
  await sql`DROP INDEX IF EXISTS search_sections_titles`.execute(db);
  await sql`DROP INDEX IF EXISTS search_sections_headings`.execute(db);
  await sql`ANALYZE search_page_titles`.execute(db);
  await sql`ANALYZE search_section_headings`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE INDEX IF NOT EXISTS search_sections_titles ON search_sections USING gin ((ts_filter(vector, '{a}') || ${sql.raw(SPACE_TERM)}))`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS search_sections_headings ON search_sections USING gin ((ts_filter(vector, '{b}') || ${sql.raw(SPACE_TERM)}))`.execute(
    db,
  );
  await sql`DROP TABLE IF EXISTS search_section_headings`.execute(db);
  await sql`DROP TABLE IF EXISTS search_page_titles`.execute(db);
}
