import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { OrgAction } from '../../auth/org-policy.js';
import { type MemberRole, roleAtLeast } from '../../auth/roles.js';
import type { Tx } from '../../db/database.js';
import type { SitesTable, SpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { type ApiError, notFound } from '../../errors.js';
import { hashShareKey } from '../../publish/share-keys.js';
import type { SitePermissions } from './schemas.js';
import { loadTree, type SiteContext } from './tree.js';

/**
 * Sites follow the organization role (DESIGN §5): members with a role see them, `create` and
 * above manage them (structure, settings, publishing, share links, visitor-auth key).
 * A site of another organization, or of an organization the caller is not in, is a 404.
 */
export type SiteAction = 'view' | 'manage';

const ORG_ACTION: Record<SiteAction, OrgAction> = { view: 'access', manage: 'createContent' };

export function sitePermissions(role: MemberRole | null): SitePermissions {
  const view = roleAtLeast(role, 'read');
  const manage = roleAtLeast(role, 'create');
  return {
    view,
    access: view,
    edit: manage,
    create: manage,
    admin: manage,
    installIntegration: roleAtLeast(role, 'admin'),
    viewAdaptiveSchema: view,
    editAdaptiveSchema: manage,
  };
}

export interface SiteAccess {
  site: SitesTable;
  orgRole: MemberRole | null;
}

export class SiteAccessor {
  constructor(
    private readonly deps: Deps,
    private readonly services: { authz: Pick<Authorizer, 'org' | 'scope'> },
  ) {}

  /** The site, if the caller may do `action` on it. */
  async site(actor: Actor, orgId: string, siteId: string, action: SiteAction): Promise<SiteAccess> {
    const membership = await this.services.authz.org(actor, orgId, ORG_ACTION[action]);
    const site = await this.deps.db
      .selectFrom('sites')
      .selectAll()
      .where('id', '=', siteId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (!site) throw missingSite(siteId);
    return { site, orgRole: membership.role };
  }

  /**
   * Runs a command on a site in one transaction, with the site row locked (PostgreSQL) so that
   * concurrent commands on one site's structure apply one after the other.
   */
  async command<T>(
    actor: Actor,
    orgId: string,
    siteId: string,
    run: (tx: Tx, site: SitesTable, orgRole: MemberRole | null) => Promise<T>,
  ): Promise<T> {
    return this.locked(actor, orgId, siteId, run, () => {
      throw missingSite(siteId);
    });
  }

  private async locked<T>(
    actor: Actor,
    orgId: string,
    siteId: string,
    run: (tx: Tx, site: SitesTable, orgRole: MemberRole | null) => Promise<T>,
    absent: () => T,
  ): Promise<T> {
    const membership = await this.services.authz.org(actor, orgId, ORG_ACTION.manage);
    return this.deps.db.transaction().execute(async (tx) => {
      let query = tx.selectFrom('sites').selectAll().where('id', '=', siteId).where('org_id', '=', orgId);
      if (this.deps.dialect === 'postgres') query = query.forUpdate();
      const site = await query.executeTakeFirst();
      if (!site) return absent();
      const result = await run(tx, site, membership.role);
      await tx
        .updateTable('sites')
        .set({ updated_at: this.deps.clock.now().toISOString() })
        .where('id', '=', siteId)
        .execute();
      return result;
    });
  }

  /**
   * A DELETE on a site or a part of it. An organization the caller is not in answers 404, like
   * every other request there (README: another organization's objects answer 404); a 204 would
   * say less than GET does and differ from it. Inside their organization, a site that is not
   * there (deleted already, never was, another organization's id) is 204: gone either way, and
   * nothing is learned that listing the sites would not tell. The same rule holds for every
   * DELETE route (see SpaceService.delete).
   */
  async deleting(
    actor: Actor,
    orgId: string,
    siteId: string,
    run: (tx: Tx, site: SitesTable) => Promise<void>,
  ): Promise<void> {
    await this.locked(actor, orgId, siteId, run, () => undefined);
  }

  /**
   * A share key given with a read (as a visitor's browser would pass it) must open this site:
   * a key of no active link of the site is a 404, like the site it does not open.
   */
  async requireShareKey(site: SitesTable, shareKey: string | undefined): Promise<void> {
    if (shareKey === undefined) return;
    const link = await this.deps.db
      .selectFrom('site_share_links')
      .select('id')
      .where('key_hash', '=', hashShareKey(shareKey))
      .where('site_id', '=', site.id)
      .where('active', '=', 1)
      .executeTakeFirst();
    if (!link) throw notFound('No active share link of this site has this share key');
  }

  /** Everything presenting the site's structure needs, read after the command committed. */
  async context(actor: Actor, site: SitesTable): Promise<SiteContext> {
    const [tree, scope] = await Promise.all([
      loadTree(this.deps.db, site.id),
      this.services.authz.scope(actor, site.org_id),
    ]);
    return { site, tree, roleOf: (space: SpacesTable) => scope.spaceRole(space) };
  }

  /** The site row as it is now (after a command). */
  async reload(siteId: string): Promise<SitesTable> {
    return this.deps.db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirstOrThrow();
  }
}

export function missingSite(siteId: string): ApiError {
  return notFound(`Site "${siteId}" not found in this organization`);
}
