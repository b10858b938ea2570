import type { Kysely } from 'kysely';

/**
 * Integration installation tokens (src/areas/integrations/identities.ts). An installation acts
 * as a user of its own (a member of the installation's organization), through short-lived API
 * tokens that carry the integration's scopes: `scopes` is their JSON list, and a token with
 * scopes reaches only the operations of auth/installation-access.ts. Null: an ordinary token.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('scopes', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('scopes').execute();
}
