import type { Actor } from '../../auth/actor.js';
import type { Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { SiteSectionGroupsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SiteAccessor } from './access.js';
import { anchorOf, moveItem } from './structure.js';
import type { AddGroupBody, MoveGroupBody, UpdateGroupBody } from './structure-schemas.js';
import {
  groupOf,
  isWithinGroup,
  loadTree,
  positionIn,
  type SiteContext,
  type SiteTree,
  type Slot,
  sectionLevel,
  sectionOf,
  setPosition,
} from './tree.js';

export interface GroupView {
  ctx: SiteContext;
  id: string;
}

function groupIn(tree: SiteTree, id: string): SiteSectionGroupsTable {
  const group = tree.groups.find((g) => g.id === id);
  if (!group) throw notFound(`Site section group "${id}" not found in this site`);
  return group;
}

/** Section groups: headings that gather sections (and other groups) in a site's navigation. */
export class SectionGroupsService {
  constructor(
    private readonly deps: Deps,
    private readonly access: SiteAccessor,
  ) {}

  async list(
    actor: Actor,
    orgId: string,
    siteId: string,
    query: PageRequest,
  ): Promise<Page<string> & { ctx: SiteContext }> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    const page = await paginate(
      this.deps.db,
      this.deps.db
        .selectFrom('site_section_groups')
        .select(['id', 'created_at'])
        .where('site_id', '=', site.id),
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'site-section-groups',
    );
    const ctx = await this.access.context(actor, site);
    return { ...page, items: page.items.map((r) => r.id), ctx };
  }

  /** A new group at the end of `parent` (default: the top level), gathering `sections` in order. */
  async add(actor: Actor, orgId: string, siteId: string, body: AddGroupBody): Promise<GroupView> {
    const id = newId();
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      if (tree.sections.length === 0)
        throw conflict('This site has no sections yet; add a section first: groups gather sections');
      const parent = body.parent === undefined ? null : groupOf(tree, body.parent, 'body.parent').id;
      const sections = (body.sections ?? []).map((sectionId, i) => {
        const field = `body.sections.${i}`;
        if (body.sections!.indexOf(sectionId) !== i)
          throw invalidField(field, `repeats the section "${sectionId}"`);
        return sectionOf(tree, sectionId, field);
      });
      await tx
        .insertInto('site_section_groups')
        .values({
          id,
          site_id: site.id,
          parent_id: parent,
          title: body.title.trim() || body.title,
          icon: body.icon ?? null,
          position: await positionIn(tx, sectionLevel(tree, parent)),
          created_at: this.deps.clock.now().toISOString(),
        })
        .execute();
      for (const [i, section] of sections.entries()) {
        await tx
          .updateTable('site_sections')
          .set({ group_id: id, position: (i + 1) * 65_536 })
          .where('id', '=', section.id)
          .execute();
      }
    });
    return this.viewOf(actor, siteId, id);
  }

  async update(
    actor: Actor,
    orgId: string,
    siteId: string,
    groupId: string,
    body: UpdateGroupBody,
  ): Promise<GroupView> {
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      const group = groupIn(tree, groupId);
      const patch: Partial<SiteSectionGroupsTable> = {};
      if (body.title !== undefined) patch.title = body.title.trim() || body.title;
      if (body.icon !== undefined) patch.icon = body.icon || null;
      if (body.parentSectionGroupId !== undefined && body.parentSectionGroupId !== group.parent_id) {
        const parent =
          body.parentSectionGroupId === null
            ? null
            : groupOf(tree, body.parentSectionGroupId, 'body.parentSectionGroupId').id;
        if (parent !== null && isWithinGroup(tree, parent, group.id))
          throw invalidField('body.parentSectionGroupId', 'would put the group inside itself');
        patch.parent_id = parent;
        patch.position = await positionIn(
          tx,
          sectionLevel(tree, parent).filter((s) => s.id !== group.id),
        );
      }
      if (Object.keys(patch).length > 0)
        await tx.updateTable('site_section_groups').set(patch).where('id', '=', group.id).execute();
    });
    return this.viewOf(actor, siteId, groupId);
  }

  /** Deletes the group; what it held takes its place, in its order. */
  async delete(actor: Actor, orgId: string, siteId: string, groupId: string): Promise<void> {
    await this.access.deleting(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      const group = tree.groups.find((g) => g.id === groupId);
      if (!group) return;
      const children = sectionLevel(tree, group.id);
      const level = sectionLevel(tree, group.parent_id).flatMap((slot) =>
        slot.id === group.id ? children : [slot],
      );
      await this.reparent(tx, children, group.parent_id);
      for (const [i, slot] of level.entries()) await setPosition(tx, slot, (i + 1) * 65_536);
      await tx.deleteFrom('site_section_groups').where('id', '=', group.id).execute();
    });
  }

  private async reparent(tx: Tx, slots: Slot[], parent: string | null): Promise<void> {
    for (const slot of slots) {
      if (slot.kind === 'section')
        await tx.updateTable('site_sections').set({ group_id: parent }).where('id', '=', slot.id).execute();
      else
        await tx
          .updateTable('site_section_groups')
          .set({ parent_id: parent })
          .where('id', '=', slot.id)
          .execute();
    }
  }

  /** Puts a section at the end of the group. */
  async addSection(
    actor: Actor,
    orgId: string,
    siteId: string,
    groupId: string,
    sectionId: string,
  ): Promise<GroupView> {
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      const group = groupIn(tree, groupId);
      const section = sectionOf(tree, sectionId, 'body.sectionId');
      if (section.group_id === group.id) return;
      const position = await positionIn(tx, sectionLevel(tree, group.id));
      await tx
        .updateTable('site_sections')
        .set({ group_id: group.id, position })
        .where('id', '=', section.id)
        .execute();
    });
    return this.viewOf(actor, siteId, groupId);
  }

  /** Takes a section out of the group, to just after the group; nothing to do is fine. */
  async removeSection(actor: Actor, orgId: string, siteId: string, groupId: string, sectionId: string) {
    await this.access.deleting(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      const group = tree.groups.find((g) => g.id === groupId);
      const section = tree.sections.find((s) => s.id === sectionId);
      if (!group || !section || section.group_id !== group.id) return;
      const level = sectionLevel(tree, group.parent_id);
      const position = await positionIn(tx, level, { id: group.id, which: 'after' });
      await tx
        .updateTable('site_sections')
        .set({ group_id: group.parent_id, position })
        .where('id', '=', section.id)
        .execute();
    });
  }

  /** Deprecated move: next to a section or group (taking that one's parent). */
  async move(
    actor: Actor,
    orgId: string,
    siteId: string,
    groupId: string,
    body: MoveGroupBody,
  ): Promise<GroupView> {
    const anchor = anchorOf(body.position, 'body.position');
    await this.access.command(actor, orgId, siteId, async (tx, site) => {
      groupIn(await loadTree(tx, site.id), groupId);
      await moveItem(tx, site.id, {
        item: { kind: 'group', id: groupId },
        anchor: { kind: anchor.pointer.type === 'site-section' ? 'section' : 'group', id: anchor.pointer.id },
        which: anchor.which,
        field: anchor.field,
      });
    });
    return this.viewOf(actor, siteId, groupId);
  }

  private async viewOf(actor: Actor, siteId: string, id: string): Promise<GroupView> {
    return { ctx: await this.access.context(actor, await this.access.reload(siteId)), id };
  }
}
