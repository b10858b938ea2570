import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Search page keys: each indexed space gets a number (`search_space_keys`) and each indexed page
 * a number unique in its space (`search_pages.num`). On SQLite a section's id - the FTS5 rowid -
 * encodes both with the section's position (see sqlite-index.ts), so a query groups its matches
 * by page and scopes them by space without reading a row per match. The section-owner index of
 * 0008 is no longer read. Existing spaces are indexed again by the reconciliation
 * (ANALYZER_VERSION 2); until then their old rows match no space number and are not returned.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('search_space_keys')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('num', 'integer', (c) => c.notNull().unique())
    .execute();
  await db.schema.alterTable('search_pages').addColumn('num', 'integer').execute();
  if (postgres) return;
  await sql`CREATE INDEX search_pages_num ON search_pages (space_id, num, page_id)`.execute(db);
  await sql`CREATE INDEX search_pages_hidden ON search_pages (space_id, num) WHERE hidden = 1`.execute(db);
  await sql`DROP INDEX IF EXISTS search_sections_owner`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!postgres) {
    await sql`DROP INDEX IF EXISTS search_pages_hidden`.execute(db);
    await sql`DROP INDEX IF EXISTS search_pages_num`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS search_sections_owner ON search_sections (id, space_id, page_id)`.execute(
      db,
    );
  }
  await db.schema.alterTable('search_pages').dropColumn('num').execute();
  await db.schema.dropTable('search_space_keys').ifExists().execute();
}
