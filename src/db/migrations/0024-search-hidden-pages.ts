import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the hidden pages of a space, by index. A search leaves them out of its matches as a
 * set; without this index, reading that set meant reading every page row of the space (measured
 * on 10,000 pages: 2 ms, most of a rare word's query). SQLite has its own since 0011.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE INDEX IF NOT EXISTS search_pages_hidden ON search_pages (space_id, page_id) WHERE hidden = 1`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP INDEX IF EXISTS search_pages_hidden`.execute(db);
}
