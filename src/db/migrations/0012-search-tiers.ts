import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite: the terms of page titles (rowid = page key) and of section headings (rowid = section
 * key) in FTS5 tables of their own. A query's title and heading tiers are then read from these
 * small indexes instead of two more passes over the doclists of every section. They are filled
 * when a space is indexed again: the reconciliation re-indexes every space (ANALYZER_VERSION 3).
 * PostgreSQL reads its tiers from the weights of the section vectors and needs nothing here.
 */
const FTS = `content='', contentless_delete=1, prefix='2 3', tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'"`;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql.raw(`CREATE VIRTUAL TABLE search_titles USING fts5(title, ${FTS})`).execute(db);
  await sql.raw(`CREATE VIRTUAL TABLE search_headings USING fts5(heading, ${FTS})`).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`DROP TABLE IF EXISTS search_headings`.execute(db);
  await sql`DROP TABLE IF EXISTS search_titles`.execute(db);
}
