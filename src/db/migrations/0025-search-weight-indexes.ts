import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the terms of sections' titles (weight A) and headings (weight B), each indexed
 * alone. A search's tiers come from them instead of checking the weights in every matching
 * vector (a common word in a 100,000-page space: 65,000 vectors). SQLite has its own title
 * and heading indexes since 0012.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [name, weight] of [
    ['search_sections_titles', 'a'],
    ['search_sections_headings', 'b'],
  ] as const)
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(name)} ON search_sections USING gin (ts_filter(vector, ${sql.lit(`{${weight}}`)}))`.execute(
      db,
    );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP INDEX IF EXISTS search_sections_titles`.execute(db);
  await sql`DROP INDEX IF EXISTS search_sections_headings`.execute(db);
}
