import { type Kysely, sql } from 'kysely';

/**
 * Postings by organization, written in batches (search/postings/org-postings.ts): the pages of an
 * organization whose postings are not written yet, each with what its postings hold of it (`was`,
 * the page as JSON; NULL when they hold nothing of it). A space's index write rewrote the
 * organization's last chunk of postings at once: 7.0 of its 12.3 ms for a space of two pages in
 * an organization of 10,000 (SQLite).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE search_org_pending (
      org_id text NOT NULL, onum integer NOT NULL, was text,
      PRIMARY KEY (org_id, onum))`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS search_org_pending`.execute(db);
}
