import type { Actor } from '../../auth/actor.js';
import { titleSlug } from '../../content/slugs.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { SiteSpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { SiteAddresses } from '../../publish/addresses.js';
import type { SiteAccessor } from './access.js';
import { checkCondition, checkPath, MAX_PATH, uniquePath } from './rules.js';
import { newSiteSpace, type SitesService } from './service.js';
import { anchorOf, moveItem } from './structure.js';
import type {
  AddSiteSpaceBody,
  ListSiteSpacesQuery,
  MoveSiteSpaceBody,
  UpdateSiteSpaceBody,
} from './structure-schemas.js';
import {
  inSiteOrg,
  loadTree,
  positionIn,
  repairDefaults,
  type SiteContext,
  type SiteSpaceRow,
  type SiteTree,
  sectionOf,
  sectionsInOrder,
  siteSpaceLevel,
} from './tree.js';

export interface SiteSpaceView {
  ctx: SiteContext;
  id: string;
}

function siteSpaceIn(tree: SiteTree, id: string): SiteSpaceRow {
  const siteSpace = tree.siteSpaces.find((s) => s.id === id);
  if (!siteSpace) throw notFound(`Site space "${id}" not found in this site`);
  return siteSpace;
}

/**
 * Site spaces: the spaces a site publishes, each in a section (or at the top level of a site
 * without sections) under a path unique there. A section shows one space twice at most once.
 */
export class SiteSpacesService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
    private readonly sites: SitesService,
  ) {}

  /** A query of the ids of the spaces a site publishes (for other areas' filters). */
  spaceIdsOf(siteId: string) {
    return this.deps.db.selectFrom('site_spaces').select('space_id').where('site_id', '=', siteId);
  }

  /**
   * The published sites that show each of these spaces (title and root URL), for pages that
   * link a space to where readers see it. Callers pass only spaces the person may read.
   */
  async publishedOf(spaceIds: string[]): Promise<Map<string, Array<{ title: string; url: string }>>> {
    const found = new Map<string, Array<{ title: string; url: string }>>();
    if (spaceIds.length === 0) return found;
    const addresses = new SiteAddresses(this.deps.config.publicUrl);
    const rows = await this.deps.db
      .selectFrom('site_spaces as ss')
      .innerJoin('sites as s', 's.id', 'ss.site_id')
      .select(['ss.space_id', 's.id', 's.title', 's.hostname'])
      .where('ss.space_id', 'in', spaceIds)
      .where('s.published', '=', 1)
      .orderBy('s.title')
      .orderBy('s.id')
      .execute();
    for (const row of rows) {
      const list = found.get(row.space_id) ?? [];
      const url = addresses.root({ id: row.id, hostname: row.hostname });
      if (!list.some((l) => l.url === url)) list.push({ title: row.title, url });
      found.set(row.space_id, list);
    }
    return found;
  }

  async list(
    actor: Actor,
    orgId: string,
    siteId: string,
    query: ListSiteSpacesQuery,
  ): Promise<Page<string> & { ctx: SiteContext }> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    await this.access.requireShareKey(site, query.shareKey);
    const ctx = await this.access.context(actor, site);
    let q = this.deps.db
      .selectFrom('site_spaces')
      .select(['id', 'position'])
      .where('site_id', '=', site.id)
      .where(inSiteOrg(site.org_id));
    if (query.default !== undefined) {
      // Defaults: of the top level, and of each section.
      const defaults = [
        site.default_site_space_id,
        ...ctx.tree.sections.map((s) => s.default_site_space_id),
      ].filter((id): id is string => id !== null);
      const ids = defaults.length > 0 ? defaults : [''];
      q = query.default ? q.where('id', 'in', ids) : q.where('id', 'not in', ids);
    }
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'position', dir: 'asc', value: (r) => Number(r.position) },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'site-spaces',
    );
    return { ...page, items: page.items.map((r) => r.id), ctx };
  }

  /** Publishes a space in a section (default: the default section, or the top level). */
  async add(actor: Actor, orgId: string, siteId: string, body: AddSiteSpaceBody): Promise<SiteSpaceView> {
    const id = newId();
    await this.access.command(actor, orgId, siteId, async (tx, site, orgRole) => {
      const tree = await loadTree(tx, site.id);
      let sectionId: string | null = null;
      if (body.sectionId !== undefined) sectionId = sectionOf(tree, body.sectionId, 'body.sectionId').id;
      else if (tree.sections.length > 0)
        sectionId =
          tree.sections.find((s) => s.id === site.default_section_id)?.id ?? sectionsInOrder(tree)[0]!.id;
      const space = await this.sites.publishable(tx, actor, orgId, orgRole, body.spaceId, 'body.spaceId');
      const level = siteSpaceLevel(tree, sectionId);
      if (level.some((s) => s.space_id === space.id))
        throw conflict(
          `The space "${space.id}" is already published ${sectionId ? 'in this section' : 'on this site'}`,
        );
      const path = uniquePath(titleSlug(space.title, 'space', MAX_PATH), new Set(level.map((s) => s.path)));
      const position = await positionIn(
        tx,
        level.map((s) => ({ kind: 'siteSpace', id: s.id, position: Number(s.position) })),
      );
      await tx
        .insertInto('site_spaces')
        .values(
          newSiteSpace(id, site.id, sectionId, space.id, path, position, this.deps.clock.now().toISOString()),
        )
        .execute();
      await repairDefaults(tx, site.id);
    });
    return this.viewOf(actor, siteId, id);
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    body: UpdateSiteSpaceBody,
  ): Promise<SiteSpaceView> {
    await this.access.command(actor, orgId, siteId, async (tx, site, orgRole) => {
      const tree = await loadTree(tx, site.id);
      const siteSpace = siteSpaceIn(tree, siteSpaceId);
      const siblings = siteSpaceLevel(tree, siteSpace.section_id).filter((s) => s.id !== siteSpace.id);
      const patch: Partial<SiteSpacesTable> = {};
      if (body.path !== undefined && body.path !== siteSpace.path) {
        const path = checkPath(body.path, 'body.path');
        if (siblings.some((s) => s.path === path))
          throw conflict(
            `Another site space ${siteSpace.section_id ? 'of this section' : 'of this site'} already has the path "${path}"`,
          );
        patch.path = path;
      }
      if (body.condition !== undefined) patch.condition = checkCondition(body.condition, 'body.condition');
      if (body.spaceId !== undefined && body.spaceId !== siteSpace.space_id) {
        const space = await this.sites.publishable(tx, actor, orgId, orgRole, body.spaceId, 'body.spaceId');
        if (siblings.some((s) => s.space_id === space.id))
          throw conflict(`The space "${space.id}" is already published next to this site space`);
        patch.space_id = space.id;
      }
      if (body.hidden !== undefined) patch.hidden = body.hidden ? 1 : 0;
      if (Object.keys(patch).length > 0)
        await tx.updateTable('site_spaces').set(patch).where('id', '=', siteSpace.id).execute();
    });
    return this.viewOf(actor, siteId, siteSpaceId);
  }

  /** Stops publishing the space there; the next site space becomes the default if needed. */
  async delete(actor: Actor, orgId: string, siteId: string, siteSpaceId: string): Promise<void> {
    await this.access.deleting(actor, orgId, siteId, async (tx, site) => {
      await tx
        .deleteFrom('site_spaces')
        .where('site_id', '=', site.id)
        .where('id', '=', siteSpaceId)
        .execute();
      await repairDefaults(tx, site.id);
    });
  }

  /** Deprecated move: next to another site space (moving into its section). */
  async move(
    actor: Actor,
    orgId: string,
    siteId: string,
    siteSpaceId: string,
    body: MoveSiteSpaceBody,
  ): Promise<SiteSpaceView> {
    const anchor = anchorOf(body.position, 'body.position');
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      siteSpaceIn(await loadTree(tx, site.id), siteSpaceId);
      await moveItem(tx, site.id, {
        item: { kind: 'siteSpace', id: siteSpaceId },
        anchor: { kind: 'siteSpace', id: anchor.pointer.siteSpace },
        which: anchor.which,
        field: `${anchor.field}.siteSpace`,
      });
    });
    return this.viewOf(actor, siteId, siteSpaceId);
  }

  private async viewOf(actor: Actor, siteId: string, id: string): Promise<SiteSpaceView> {
    return { ctx: await this.access.context(actor, await this.access.reload(siteId)), id };
  }
}
