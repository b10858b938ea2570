import { type Kysely, sql } from 'kysely';

/**
 * The revision a search index sync in steps is bringing a space to (SQLite: a large sync writes
 * its pages in several transactions, src/search/indexer.ts). Set by its first step, cleared by
 * its last with the revision the index then holds; found set by a sync that did not start it,
 * the steps stopped part way (the process stopped), and that revision is finished first.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE search_spaces ADD COLUMN pending_revision_id text`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE search_spaces DROP COLUMN pending_revision_id`.execute(db);
}
