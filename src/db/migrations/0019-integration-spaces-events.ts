import type { Kysely } from 'kysely';

/**
 * Integrations installed on spaces, and the log of delivered events (src/areas/integrations).
 *
 * `external_ids` are the ids an integration assigns to its installations (at most 5, JSON).
 * `space_selection` of an installation: `all` sends events of every space of its organization,
 * `selected` only those of the spaces it is installed on. A space installation carries the
 * integration's configuration for that space.
 *
 * `integration_events` keeps each delivered event (by its `eventId`) with the outcome of its last
 * attempt and the script's output during it, for `listIntegrationEvents`; rows older than the
 * retention are purged by a job.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('integration_installations')
    .addColumn('space_selection', 'text', (c) => c.notNull().defaultTo('all'))
    .execute();
  await db.schema
    .alterTable('integration_installations')
    .addColumn('external_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('integration_space_installations')
    .addColumn('installation_id', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('external_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_space_installations_pk', ['installation_id', 'space_id'])
    .execute();
  await db.schema
    .createIndex('integration_space_installations_space')
    .on('integration_space_installations')
    .columns(['space_id'])
    .execute();

  await db.schema
    .createTable('integration_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_name', 'text', (c) => c.notNull())
    .addColumn('installation_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('logs', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integration_events_list')
    .on('integration_events')
    .columns(['integration_name', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('integration_events_age')
    .on('integration_events')
    .columns(['created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integration_events').execute();
  await db.schema.dropTable('integration_space_installations').execute();
  await db.schema.alterTable('integration_installations').dropColumn('external_ids').execute();
  await db.schema.alterTable('integration_installations').dropColumn('space_selection').execute();
}
