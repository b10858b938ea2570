import type { Kysely } from 'kysely';

/**
 * Content imports (src/areas/imports): one row per import run, its source and target as asked,
 * its status and timestamps, why it failed, the pages it made, and the change request it wrote
 * into (the one asked for, or the one it opened and merged).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('change_request_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('written_change_request_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('pages', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema
    .createIndex('import_runs_org')
    .on('import_runs')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('import_runs_space')
    .on('import_runs')
    .columns(['space_id', 'status'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_runs').execute();
}
