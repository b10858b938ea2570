import type { Kysely } from 'kysely';

/**
 * Integrations (src/areas/integrations). An integration is named globally (`name`, as GitBook's
 * are) and owned by the organization that first published it; each publish replaces its manifest
 * and adds one to `version`. Lists and arrays of the manifest are JSON text. The script and the
 * images are in the blob store, by hash: scripts reach megabytes and blobs keep rows small.
 * `secrets` is one AES-256-GCM sealed JSON object (src/secret-box.ts), never plaintext.
 * `unfurl_hosts` is derived from the blocks' `urlUnfurl` patterns (`|host|host|`, lower case), so
 * the `blockDomain` filter is one LIKE on both engines rather than JSON parsing per row.
 *
 * An installation is an integration installed in an organization: at most one per pair.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner_org_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('runtime', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('blocks', 'text', (c) => c.notNull())
    .addColumn('content_sources', 'text', (c) => c.notNull())
    .addColumn('configurations', 'text', (c) => c.notNull())
    .addColumn('external_links', 'text', (c) => c.notNull())
    .addColumn('content_security_policy', 'text')
    .addColumn('unfurl_hosts', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('preview_images', 'text', (c) => c.notNull())
    .addColumn('script_sha', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integrations_owner')
    .on('integrations')
    .columns(['owner_org_id', 'name'])
    .execute();
  await db.schema
    .createIndex('integrations_visibility')
    .on('integrations')
    .columns(['visibility', 'name'])
    .execute();

  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_name', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('integration_installations_pair')
    .on('integration_installations')
    .columns(['integration_name', 'org_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('integration_installations_org')
    .on('integration_installations')
    .columns(['org_id', 'integration_name'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integration_installations').execute();
  await db.schema.dropTable('integrations').execute();
}
