import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Search postings (search/postings): each space's postings as blobs, one row per term and
 * chunk of 1,024 page numbers, with a row of statistics per space and the number of sections
 * holding each term (for prefixes). A search of a large space is ranked from these in the
 * server's process instead of by the engine's per-match ranking (issue 21: bm25 over a common
 * word's 65,000 matches in FTS5, a heap visit per match in PostgreSQL). Spaces get them when
 * they are indexed again, which ANALYZER_VERSION 6 asks for; until then they are searched as
 * before.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = sql.raw(postgres ? 'bytea' : 'blob');
  const withoutRowid = sql.raw(postgres ? '' : ' WITHOUT ROWID');
  await sql`CREATE TABLE search_postings (
      space_id text NOT NULL, term text NOT NULL, chunk integer NOT NULL,
      entries ${blob} NOT NULL, positions ${blob} NOT NULL,
      PRIMARY KEY (space_id, term, chunk))${withoutRowid}`.execute(db);
  await sql`CREATE TABLE search_terms (
      space_id text NOT NULL, term text NOT NULL, sections integer NOT NULL,
      PRIMARY KEY (space_id, term))${withoutRowid}`.execute(db);
  await sql`CREATE TABLE search_space_stats (
      space_id text PRIMARY KEY, pages integer NOT NULL, sections integer NOT NULL, tokens bigint NOT NULL)`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['search_postings', 'search_terms', 'search_space_stats'])
    await sql`DROP TABLE IF EXISTS ${sql.id(table)}`.execute(db);
}
