import type { Config } from './config.js';
import type { Services } from './services.js';

export interface BootstrapResult {
  email: string;
  orgId: string;
  /** The new token when Quire generated it; undefined when it came from QUIRE_ADMIN_TOKEN. */
  generatedToken: string | undefined;
}

/**
 * On an empty database: an admin user, their organization and an API token, so a fresh server
 * is usable at once. Does nothing once any user exists.
 */
export async function bootstrapIfEmpty(
  config: Config,
  services: Services,
): Promise<BootstrapResult | undefined> {
  if ((await services.users.count()) > 0) return undefined;
  const user = await services.users.create({ email: config.adminEmail, displayName: 'Admin' });
  const org = await services.orgs.create(user.id, { title: 'Quire' });
  const issued = await services.tokens.create(user.id, 'bootstrap', config.adminToken);
  return {
    email: user.email,
    orgId: org.row.id,
    generatedToken: config.adminToken ? undefined : issued.token,
  };
}
