import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: a section's vector stays in its row, and a long section's text goes out of line
 * instead. A row over 2 KB has its widest column moved to the TOAST table, and that was the
 * vector of 5,586 of the 13,541 sections matching "install package" in a 100,000-page space:
 * ranking them fetched each vector from TOAST twice (ts_rank, then the words-together check),
 * 47 of a search's 95 ms. With the vector kept inline (storage MAIN) the same two took 25 ms.
 * The text is read only for the pages an answer shows.
 *
 * CLUSTER rewrites the existing rows so (in a transaction, unlike VACUUM FULL), and puts each
 * page's sections next to each other, where an answer reads them. It locks the table while it
 * runs: about 10 s for 250,000 sections here.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE search_sections ALTER COLUMN vector SET STORAGE MAIN`.execute(db);
  await sql`CLUSTER search_sections USING search_sections_page`.execute(db);
  await sql`ANALYZE search_sections`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE search_sections ALTER COLUMN vector SET STORAGE EXTENDED`.execute(db);
  await sql`ALTER TABLE search_sections SET WITHOUT CLUSTER`.execute(db);
}
