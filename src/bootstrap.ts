import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Services } from './services.js';

export interface BootstrapResult {
  email: string;
  orgId: string;
  /** The new token when Quire generated it; undefined when it came from QUIRE_ADMIN_TOKEN. */
  generatedToken: string | undefined;
}

/**
 * On an empty database: an admin user, their organization and an API token, so a fresh server
 * is usable at once. Does nothing once any user exists. One transaction, taken exclusively:
 * replicas started together on an empty database make one admin, the others find it there.
 */
export async function bootstrapIfEmpty(
  config: Config,
  services: Services,
  database: Pick<Database, 'db' | 'dialect'>,
): Promise<BootstrapResult | undefined> {
  return database.db.transaction().execute(async (tx) => {
    // SQLite's write transactions are exclusive already (BEGIN IMMEDIATE).
    if (database.dialect === 'postgres') {
      await sql`SELECT pg_advisory_xact_lock(hashtext('quire.bootstrap'))`.execute(tx);
    }
    if (await tx.selectFrom('users').select('id').limit(1).executeTakeFirst()) return undefined;
    const { user } = await services.users.findOrCreateIn(tx, {
      email: config.adminEmail,
      displayName: 'Admin',
    });
    const org = await services.orgs.create(user.id, { title: 'Quire' }, tx);
    const issued = await services.tokens.create(user.id, 'bootstrap', config.adminToken, null, undefined, tx);
    return {
      email: user.email,
      orgId: org.row.id,
      generatedToken: config.adminToken ? undefined : issued.token,
    };
  });
}
