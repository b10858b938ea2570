import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { SiteShareLinksTable, SitesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { hashShareKey, shareKeyOf } from '../../publish/share-keys.js';
import type { SiteAccessor } from './access.js';
import type { ListShareLinksQuery, UpdateShareLinkBody } from './settings-schemas.js';

export interface ShareLinkView {
  row: SiteShareLinksTable;
  site: SitesTable;
}

/**
 * Share links of a site: each opens a `share-link` site to whoever has its URL. Keys are
 * derived from the site's secret and the link id, so only their hashes are stored. The keys
 * are secrets, so only managers list or change links.
 */
export class ShareLinksService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
  ) {}

  async list(
    actor: Actor,
    orgId: string,
    siteId: string,
    query: ListShareLinksQuery,
  ): Promise<Page<ShareLinkView>> {
    const { site } = await this.access.site(actor, orgId, siteId, 'manage');
    let q = this.deps.db.selectFrom('site_share_links').selectAll().where('site_id', '=', site.id);
    if (query.search) {
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql`lower(coalesce(name, ''))`, 'like', sql`${pattern} escape '\\'`);
    }
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'site-share-links',
    );
    return { ...page, items: page.items.map((row) => ({ row, site })) };
  }

  async create(actor: Actor, orgId: string, siteId: string, name: string): Promise<ShareLinkView> {
    const id = newId();
    const site = await this.access.command(actor, orgId, siteId, async (tx, site) => {
      await tx
        .insertInto('site_share_links')
        .values({
          id,
          site_id: site.id,
          name,
          active: 1,
          key_hash: hashShareKey(shareKeyOf(site.share_secret, id)),
          created_at: this.deps.clock.now().toISOString(),
        })
        .execute();
      return site;
    });
    return this.read(site, id);
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    linkId: string,
    body: UpdateShareLinkBody,
  ): Promise<ShareLinkView> {
    const site = await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const patch: Partial<SiteShareLinksTable> = {};
      if (body.active !== undefined) patch.active = body.active ? 1 : 0;
      if (body.name !== undefined) patch.name = body.name;
      const link = await tx
        .selectFrom('site_share_links')
        .select('id')
        .where('id', '=', linkId)
        .where('site_id', '=', site.id)
        .executeTakeFirst();
      if (!link) throw missingLink(linkId);
      if (Object.keys(patch).length > 0)
        await tx.updateTable('site_share_links').set(patch).where('id', '=', linkId).execute();
      return site;
    });
    return this.read(site, linkId);
  }

  /** Revokes the link at once: its key opens nothing from now on. */
  async delete(actor: Actor, orgId: string, siteId: string, linkId: string): Promise<void> {
    await this.access.deleting(actor, orgId, siteId, async (tx, site) => {
      await tx
        .deleteFrom('site_share_links')
        .where('id', '=', linkId)
        .where('site_id', '=', site.id)
        .execute();
    });
  }

  private async read(site: SitesTable, id: string): Promise<ShareLinkView> {
    const row = await this.deps.db
      .selectFrom('site_share_links')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw missingLink(id);
    return { row, site };
  }
}

function missingLink(id: string) {
  return notFound(`Share link "${id}" not found in this site`);
}
