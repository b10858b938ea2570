import type { Kysely } from 'kysely';

/**
 * Browser sign-in (src/areas/sessions). A session is a server-side row behind the
 * `quire_session` cookie; like API tokens, only the SHA-256 of the cookie value is stored
 * (`lookup` is its indexed prefix, `hash` the whole digest compared in constant time), so a
 * copy of the database signs no one in. Sessions are deleted when they end; `expires_at`
 * slides forward with use, never past `created_at` plus the absolute lifetime the service
 * enforces. `source` says how the person signed in (`link`, `saml:<providerId>`).
 *
 * A login link is a one-time secret printed by `quire login-link`, stored hashed the same way;
 * `used_at` is set by the one request that consumes it.
 *
 * API tokens get an optional expiry: null (every token made before) never expires.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_lookup').on('sessions').column('lookup').execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('login_links_lookup').on('login_links').column('lookup').execute();

  await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('expires_at').execute();
  await db.schema.dropTable('login_links').execute();
  await db.schema.dropTable('sessions').execute();
}
