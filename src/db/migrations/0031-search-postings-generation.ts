import { type Kysely, sql } from 'kysely';

/**
 * A generation per space's postings, new at every write (a random number, so a space whose
 * postings are dropped and built again never repeats one): a process keeps the postings it read
 * (search/postings/cache.ts) and knows them current when the space's generation is unchanged,
 * which a search reads with the space's statistics anyway. Spaces indexed before this have 0
 * until their next write; nothing is kept under 0.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE search_space_stats ADD COLUMN generation bigint NOT NULL DEFAULT 0`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE search_space_stats DROP COLUMN generation`.execute(db);
}
