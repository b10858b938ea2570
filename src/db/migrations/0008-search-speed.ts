import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Search query speed (SQLite): a narrow covering index over the sections' page, so the query
 * path maps each FTS5 match (rowid = search_sections.id) to its space and page without reading
 * the section rows and their text. Built from the rows already there: nothing to re-index.
 * PostgreSQL reads the page from the rows its GIN index finds and does not need it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`CREATE INDEX search_sections_owner ON search_sections (id, space_id, page_id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`DROP INDEX IF EXISTS search_sections_owner`.execute(db);
}
