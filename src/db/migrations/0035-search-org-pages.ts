import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Postings by organization (search/postings/org-postings.ts): an organization's search is ranked
 * from postings of all its spaces' pages, kept in the postings tables under a key naming the
 * organization, as a space's are under its id. Its pages are numbered across the organization:
 * this table gives each indexed page (a space's id and its number there) its number in its
 * organization. An organization's search of 10,000 spaces of two pages read and scored each
 * match in the engine: "search index" 17.6 ms on SQLite (bm25 of 5,000 sections a part), 28 ms
 * on PostgreSQL, against 4 and 7 ms for an organization of 100 spaces.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const withoutRowid = sql.raw(postgres ? '' : ' WITHOUT ROWID');
  await sql`CREATE TABLE search_org_pages (
      org_id text NOT NULL, onum integer NOT NULL, space_id text NOT NULL, num integer NOT NULL,
      PRIMARY KEY (org_id, onum))${withoutRowid}`.execute(db);
  await sql`CREATE UNIQUE INDEX search_org_pages_space ON search_org_pages (space_id, num)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS search_org_pages`.execute(db);
}
