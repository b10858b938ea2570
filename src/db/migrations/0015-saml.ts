import type { Kysely } from 'kysely';

/**
 * SAML single sign-on (src/areas/sso). A provider is one identity provider of an organization:
 * its IdP side (`sso_url`, `entity_id`, `certificate`, each empty until configured) and what
 * just-in-time membership gives (`default_role`, null for guests; `default_team_id`).
 *
 * `saml_requests` holds the AuthnRequest ids this server sent (node-saml's `cacheProvider`),
 * for 10 minutes: the assertion consumer service deletes the row of the response's
 * `InResponseTo` before it checks anything else, so an id is used at most once by whichever
 * process gets there first, and a replayed or unsolicited response finds nothing. The row also
 * carries the RelayState sent with the request and the same-origin path to return to.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('sso_url', 'text')
    .addColumn('default_team_id', 'text')
    .addColumn('default_role', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('saml_providers_org')
    .on('saml_providers')
    .columns(['org_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('relay_state', 'text', (c) => c.notNull())
    .addColumn('return_path', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_requests_expiry').on('saml_requests').column('expires_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saml_requests').execute();
  await db.schema.dropTable('saml_providers').execute();
}
