import type { Kysely } from 'kysely';

/**
 * The OpenAPI specs each indexed page draws (`|slug|slug|`, lower case; null when none), so a
 * new version of a spec re-indexes the pages that show its operations, not whole spaces.
 * Pages indexed before this column say nothing: ANALYZER_VERSION 5 has the reconciliation
 * index every space again, which fills it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('search_pages').addColumn('specs', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('search_pages').dropColumn('specs').execute();
}
