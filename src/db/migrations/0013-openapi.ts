import type { Kysely } from 'kysely';

/**
 * OpenAPI specifications (src/areas/openapi). A spec is named by its slug within its
 * organization, case-insensitively (`slug_key`, lower case), so that `Petstore` in a document
 * block finds the spec created as `petstore`. Its source is a URL or a text kept in the blob
 * store; `source_rev` counts source changes, so a processing run that read an older source
 * knows its result is stale.
 *
 * Each processed content that differed from the one before is a version, numbered per spec
 * (`seq`, newest highest). A version's bytes (the entry file as submitted, and the bundled
 * document as JSON) are in the blob store, by hash, rather than in these rows: a spec can be
 * tens of megabytes, and blobs keep the rows (and SQLite's write-ahead log) small, store equal
 * content once, and can be written before the transaction that records them (an unrecorded
 * blob is harmless, as for uploads).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('slug_key', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('source_blob', 'text')
    .addColumn('source_rev', 'integer', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('processing_state', 'text', (c) => c.notNull())
    .addColumn('last_version_id', 'text')
    .addColumn('last_processed_at', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('last_errors', 'text')
    .addColumn('last_error_count', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('openapi_specs_slug')
    .on('openapi_specs')
    .columns(['org_id', 'slug_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spec_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('document_blob', 'text', (c) => c.notNull())
    .addColumn('raw_blob', 'text', (c) => c.notNull())
    .addColumn('raw_format', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('external_documents', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('openapi_spec_versions_seq')
    .on('openapi_spec_versions')
    .columns(['spec_id', 'seq'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('openapi_spec_versions').execute();
  await db.schema.dropTable('openapi_specs').execute();
}
