import type { Actor } from '../../auth/actor.js';
import { titleSlug } from '../../content/slugs.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { SiteSectionsTable } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SiteAccessor } from './access.js';
import { checkCondition, checkPath, MAX_PATH, uniquePath } from './rules.js';
import { newSiteSpace, type SitesService } from './service.js';
import { anchorOf, moveItem } from './structure.js';
import type { AddSectionBody, MoveSectionBody, UpdateSectionBody } from './structure-schemas.js';
import {
  groupOf,
  loadTree,
  positionIn,
  repairDefaults,
  type SiteContext,
  type SiteTree,
  sectionLevel,
  siteSpaceLevel,
} from './tree.js';

const GAP = 65_536;

export interface SectionView {
  ctx: SiteContext;
  id: string;
}

export function missingSection(id: string) {
  return notFound(`Site section "${id}" not found in this site`);
}

function sectionIn(tree: SiteTree, id: string): SiteSectionsTable {
  const section = tree.sections.find((s) => s.id === id);
  if (!section) throw missingSection(id);
  return section;
}

/** Sections: top-level parts of a site, each with its own site spaces (variants). */
export class SectionsService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
    private readonly sites: SitesService,
  ) {}

  async list(
    actor: Actor,
    orgId: string,
    siteId: string,
    query: PageRequest & { shareKey?: string | undefined },
  ): Promise<Page<string> & { ctx: SiteContext }> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    await this.access.requireShareKey(site, query.shareKey);
    const page = await paginate(
      this.deps.db,
      this.deps.db.selectFrom('site_sections').select(['id', 'position']).where('site_id', '=', site.id),
      [
        { ref: 'position', dir: 'asc', value: (r) => Number(r.position) },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'site-sections',
    );
    const ctx = await this.access.context(actor, site);
    return { ...page, items: page.items.map((r) => r.id), ctx };
  }

  /**
   * A new section publishing `spaceId`. The site's first section becomes its default and takes
   * in the site spaces the site had at its top level (its landing stays the same).
   */
  async add(actor: Actor, orgId: string, siteId: string, body: AddSectionBody): Promise<SectionView> {
    const id = newId();
    const site = await this.access.command(actor, orgId, siteId, async (tx, site, orgRole) => {
      const tree = await loadTree(tx, site.id);
      const space = await this.sites.publishable(tx, actor, orgId, orgRole, body.spaceId, 'body.spaceId');
      const given = body.title?.trim();
      if (given !== undefined && given.length < 2)
        throw invalidField('body.title', 'must have at least 2 characters besides spaces');
      const title = given || (space.title.trim().length >= 2 ? space.title.trim().slice(0, 128) : 'Section');
      const path = titleSlug(title, 'section', MAX_PATH);
      if (tree.sections.some((s) => s.path === path)) {
        throw conflict(
          `A section with the path "${path}" already exists in this site; give the new section another title, or change that section's path`,
        );
      }
      const now = this.deps.clock.now().toISOString();
      const first = tree.sections.length === 0;
      const groupId =
        body.siteSectionGroupId === undefined
          ? null
          : groupOf(tree, body.siteSectionGroupId, 'body.siteSectionGroupId').id;
      const section: SiteSectionsTable = {
        id,
        site_id: site.id,
        group_id: groupId,
        title,
        description: null,
        path,
        condition: null,
        icon: body.icon ?? null,
        position: await positionIn(tx, sectionLevel(tree, groupId)),
        default_site_space_id: null,
        created_at: now,
      };
      try {
        await tx.insertInto('site_sections').values(section).execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict(`A section with the path "${path}" already exists in this site`);
        throw error;
      }
      const inherited = first ? siteSpaceLevel(tree, null) : [];
      if (first) {
        await tx
          .updateTable('site_spaces')
          .set({ section_id: id })
          .where('site_id', '=', site.id)
          .where('section_id', 'is', null)
          .execute();
        await tx
          .updateTable('sites')
          .set({ default_section_id: id, default_site_space_id: null })
          .where('id', '=', site.id)
          .execute();
      }
      let defaultSiteSpace =
        inherited.find((s) => s.id === site.default_site_space_id)?.id ?? inherited[0]?.id;
      const existing = inherited.find((s) => s.space_id === space.id);
      if (!existing) {
        const siteSpaceId = newId();
        const taken = new Set(inherited.map((s) => s.path));
        const position = (inherited.at(-1) ? Number(inherited.at(-1)!.position) : 0) + GAP;
        await tx
          .insertInto('site_spaces')
          .values(
            newSiteSpace(
              siteSpaceId,
              site.id,
              id,
              space.id,
              uniquePath(titleSlug(space.title, 'space', MAX_PATH), taken),
              position,
              now,
            ),
          )
          .execute();
        defaultSiteSpace ??= siteSpaceId;
      }
      await tx
        .updateTable('site_sections')
        .set({ default_site_space_id: defaultSiteSpace ?? null })
        .where('id', '=', id)
        .execute();
      return site;
    });
    return { ctx: await this.access.context(actor, await this.access.reload(site.id)), id };
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    sectionId: string,
    body: UpdateSectionBody,
  ): Promise<SectionView> {
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      const section = sectionIn(tree, sectionId);
      const patch: Partial<SiteSectionsTable> = {};
      if (body.title !== undefined) {
        const title = body.title.trim();
        if (title.length < 2)
          throw invalidField('body.title', 'must have at least 2 characters besides spaces');
        patch.title = title;
      }
      if (body.path !== undefined && body.path !== section.path) {
        const path = checkPath(body.path, 'body.path');
        if (tree.sections.some((s) => s.id !== section.id && s.path === path))
          throw conflict(`Another section of this site already has the path "${path}"`);
        patch.path = path;
      }
      if (body.defaultSiteSpace !== undefined) {
        const siteSpace = siteSpaceLevel(tree, section.id).find((s) => s.id === body.defaultSiteSpace);
        if (!siteSpace)
          throw invalidField(
            'body.defaultSiteSpace',
            `"${body.defaultSiteSpace}" is not a site space of this section`,
          );
        patch.default_site_space_id = siteSpace.id;
      }
      if (body.condition !== undefined) patch.condition = checkCondition(body.condition, 'body.condition');
      if (body.icon !== undefined) patch.icon = body.icon || null;
      if (body.description !== undefined) patch.description = body.description || null;
      if (body.siteSectionGroupId !== undefined && body.siteSectionGroupId !== section.group_id) {
        const groupId =
          body.siteSectionGroupId === null
            ? null
            : groupOf(tree, body.siteSectionGroupId, 'body.siteSectionGroupId').id;
        patch.group_id = groupId;
        patch.position = await positionIn(tx, sectionLevel(tree, groupId));
      }
      if (Object.keys(patch).length === 0) return;
      try {
        await tx.updateTable('site_sections').set(patch).where('id', '=', section.id).execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw conflict(`Another section of this site already has the path "${patch.path}"`);
        throw error;
      }
    });
    return { ctx: await this.access.context(actor, await this.access.reload(siteId)), id: sectionId };
  }

  /** Deletes the section and its site spaces; the next section becomes the default if needed. */
  async delete(actor: Actor, orgId: string, siteId: string, sectionId: string): Promise<void> {
    await this.access.deleting(actor, orgId, siteId, async (tx, site) => {
      await tx
        .deleteFrom('site_spaces')
        .where('site_id', '=', site.id)
        .where('section_id', '=', sectionId)
        .execute();
      await tx
        .deleteFrom('site_sections')
        .where('site_id', '=', site.id)
        .where('id', '=', sectionId)
        .execute();
      await repairDefaults(tx, site.id);
    });
  }

  /** Deprecated move: next to another section (taking that one's group). */
  async move(
    actor: Actor,
    orgId: string,
    siteId: string,
    sectionId: string,
    body: MoveSectionBody,
  ): Promise<SectionView> {
    const anchor = anchorOf(body.position, 'body.position');
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      sectionIn(await loadTree(tx, site.id), sectionId);
      await moveItem(tx, site.id, {
        item: { kind: 'section', id: sectionId },
        anchor: { kind: 'section', id: anchor.pointer.siteSection },
        which: anchor.which,
        field: `${anchor.field}.siteSection`,
      });
    });
    return { ctx: await this.access.context(actor, await this.access.reload(siteId)), id: sectionId };
  }
}
