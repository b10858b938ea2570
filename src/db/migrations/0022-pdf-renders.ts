import type { Kysely } from 'kysely';

/**
 * Printed PDFs (src/areas/pdf), cached: one row per rendering of a revision's pages with a
 * given selection and title page (`key`, a digest of all of them and the renderer's version),
 * pointing at the PDF in the blob store. A second request for the same print is served from here.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pdf_renders')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('blob_hash', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull())
    .addColumn('render_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pdf_renders_space').on('pdf_renders').columns(['space_id']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pdf_renders').execute();
}
