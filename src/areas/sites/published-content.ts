import type { Actor } from '../../auth/actor.js';
import { notFound } from '../../errors.js';
import type { SiteAccessor } from './access.js';
import type { PublishedView } from './present.js';
import type { SitesService } from './service.js';

/**
 * What a published site shows: the site, its structure (site spaces of trashed spaces left
 * out, as the renderer leaves them out) and its customizations. An unpublished site has no
 * published content (404), and a share key given must open the site.
 */
export class PublishedContentService {
  constructor(
    private readonly access: SiteAccessor,
    private readonly sites: SitesService,
  ) {}

  async get(
    actor: Actor,
    orgId: string,
    siteId: string,
    shareKey: string | undefined,
  ): Promise<PublishedView> {
    const { site, orgRole } = await this.access.site(actor, orgId, siteId, 'view');
    if (site.published !== 1) throw notFound(`Site "${siteId}" is not published; publish it first`);
    await this.access.requireShareKey(site, shareKey);
    const ctx = await this.access.context(actor, site);
    ctx.tree.siteSpaces = ctx.tree.siteSpaces.filter((s) => s.space.deleted_at === null);
    return { site: await this.sites.viewOf(site, orgRole), ctx };
  }
}
