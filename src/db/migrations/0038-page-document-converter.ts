import { type Kysely, sql } from 'kysely';

/**
 * The converter a kept document was made by, and a space's rows were last filled by
 * (areas/content/converter-stamp.ts): a row of other code is converted again. Rows from before
 * hold '', which no converter's stamp is.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['page_documents', 'page_document_fills'])
    await sql`ALTER TABLE ${sql.id(table)} ADD COLUMN converter text NOT NULL DEFAULT ''`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['page_documents', 'page_document_fills'])
    await sql`ALTER TABLE ${sql.id(table)} DROP COLUMN converter`.execute(db);
}
