import type { Actor } from '../../auth/actor.js';
import type { SitesTable } from '../../db/tables.js';
import { invalidField } from '../../errors.js';
import type { SiteAccessor } from './access.js';
import { newSecret } from './service.js';
import type { PublishingAuth, UpdatePublishingAuthBody } from './settings-schemas.js';

/**
 * Visitor authentication of a `visitor-auth` site: the site's own backend signs visitor tokens
 * (HS256 JWTs) with `privateKey`; visitors without a valid token are sent to `fallbackURL`.
 * The key is a secret, so only managers read or change it. Regenerating it invalidates every
 * token signed with the old one at once.
 */
export class PublishingAuthService {
  constructor(private readonly access: SiteAccessor) {}

  async get(actor: Actor, orgId: string, siteId: string): Promise<PublishingAuth> {
    const { site } = await this.access.site(actor, orgId, siteId, 'manage');
    return present(site);
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    body: UpdatePublishingAuthBody,
  ): Promise<PublishingAuth> {
    if (body.backend === 'integration')
      throw invalidField('body.backend', 'must be "custom": this server has no visitor-auth integrations');
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      if (body.fallbackURL === undefined) return;
      await tx
        .updateTable('sites')
        .set({ auth_fallback_url: body.fallbackURL })
        .where('id', '=', site.id)
        .execute();
    });
    return present(await this.access.reload(siteId));
  }

  async regenerate(actor: Actor, orgId: string, siteId: string): Promise<PublishingAuth> {
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      await tx
        .updateTable('sites')
        .set({ auth_private_key: newSecret() })
        .where('id', '=', site.id)
        .execute();
    });
    return present(await this.access.reload(siteId));
  }
}

function present(site: SitesTable): PublishingAuth {
  return {
    object: 'publishing-auth',
    backend: 'custom',
    privateKey: site.auth_private_key,
    ...(site.auth_fallback_url ? { fallbackURL: site.auth_fallback_url } : {}),
  };
}
