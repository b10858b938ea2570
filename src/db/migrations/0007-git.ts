import type { Kysely } from 'kysely';

/**
 * Git sync (src/areas/git): per space, the repository it syncs with (URL without credentials),
 * the last commit and revision synced, the timestamp of the last event applied (imports and
 * exports older than it are ignored), the latest operation and its outcome, and a lease so
 * that one sync job runs per space at a time.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('git_syncs')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('installation_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text', (c) => c.notNull())
    .addColumn('tree_url', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('redirects', 'text')
    .addColumn('last_commit', 'text')
    .addColumn('last_revision', 'text')
    .addColumn('last_timestamp', 'text')
    .addColumn('op_state', 'text')
    .addColumn('op_direction', 'text')
    .addColumn('op_started_at', 'text')
    .addColumn('op_ended_at', 'text')
    .addColumn('op_error', 'text')
    .addColumn('op_warnings', 'text')
    .addColumn('lease_job', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('git_syncs').execute();
}
