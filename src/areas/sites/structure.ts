import type { Actor } from '../../auth/actor.js';
import type { Tx } from '../../db/database.js';
import { conflict, invalidField } from '../../errors.js';
import type { SiteAccessor } from './access.js';
import type { StructureItemRef } from './present.js';
import type { ItemPointer, SortStructureBody } from './structure-schemas.js';
import {
  isWithinGroup,
  loadTree,
  positionIn,
  repairDefaults,
  type SiteContext,
  type SiteTree,
  type Slot,
  sectionLevel,
  siteSpaceLevel,
} from './tree.js';

/** An item and where it ends up, relative to a sibling. */
export interface Move {
  item: StructureItemRef;
  anchor: StructureItemRef;
  which: 'before' | 'after';
  /** Body field naming the anchor, for errors. */
  field: string;
}

const KIND_OF: Record<ItemPointer['type'], StructureItemRef['kind'] | undefined> = {
  'site-space': 'siteSpace',
  'site-section': 'section',
  'site-section-group': 'group',
  'site-external-link': undefined,
};

export function refOf(pointer: ItemPointer, field: string): StructureItemRef {
  const kind = KIND_OF[pointer.type];
  if (!kind) throw invalidField(`${field}.type`, 'is not supported: Quire sites have no external links');
  return { kind, id: pointer.id };
}

function exists(tree: SiteTree, ref: StructureItemRef): boolean {
  if (ref.kind === 'section') return tree.sections.some((s) => s.id === ref.id);
  if (ref.kind === 'group') return tree.groups.some((g) => g.id === ref.id);
  return tree.siteSpaces.some((s) => s.id === ref.id);
}

const NAMES = { section: 'site section', group: 'site section group', siteSpace: 'site space' } as const;

/**
 * Places an item next to a sibling. A site space may go next to any site space, moving into
 * that one's section; a section or group next to any section or group, moving into that one's
 * group (or the top level). A group never moves into itself or its own descendants.
 */
export async function moveItem(tx: Tx, siteId: string, move: Move): Promise<void> {
  const tree = await loadTree(tx, siteId);
  const { item, anchor, which, field } = move;
  if (!exists(tree, anchor))
    throw invalidField(field, `"${anchor.id}" is not a ${NAMES[anchor.kind]} of this site`);
  if (anchor.id === item.id) throw invalidField(field, 'cannot be the item being moved');

  if (item.kind === 'siteSpace') {
    if (anchor.kind !== 'siteSpace')
      throw invalidField(field, 'a site space can only be placed next to another site space');
    const moving = tree.siteSpaces.find((s) => s.id === item.id)!;
    const target = tree.siteSpaces.find((s) => s.id === anchor.id)!.section_id;
    const level = siteSpaceLevel(tree, target).filter((s) => s.id !== item.id);
    if (target !== moving.section_id) {
      if (level.some((s) => s.path === moving.path))
        throw conflict(`A site space with the path "${moving.path}" is already in the target section`);
      if (level.some((s) => s.space_id === moving.space_id))
        throw conflict('The space is already published in the target section');
    }
    const slots: Slot[] = level.map((s) => ({ kind: 'siteSpace', id: s.id, position: Number(s.position) }));
    const position = await positionIn(tx, slots, { id: anchor.id, which });
    await tx
      .updateTable('site_spaces')
      .set({ section_id: target, position })
      .where('id', '=', item.id)
      .execute();
    if (target !== moving.section_id) await repairDefaults(tx, siteId);
    return;
  }

  if (anchor.kind === 'siteSpace')
    throw invalidField(field, `a ${NAMES[item.kind]} can only be placed next to a section or section group`);
  const parent =
    anchor.kind === 'section'
      ? tree.sections.find((s) => s.id === anchor.id)!.group_id
      : tree.groups.find((g) => g.id === anchor.id)!.parent_id;
  if (item.kind === 'group' && isWithinGroup(tree, parent, item.id))
    throw invalidField(field, 'would put the group inside itself');
  const level = sectionLevel(tree, parent).filter((s) => s.id !== item.id);
  const position = await positionIn(tx, level, { id: anchor.id, which });
  if (item.kind === 'section')
    await tx
      .updateTable('site_sections')
      .set({ group_id: parent, position })
      .where('id', '=', item.id)
      .execute();
  else
    await tx
      .updateTable('site_section_groups')
      .set({ parent_id: parent, position })
      .where('id', '=', item.id)
      .execute();
}

/** `position` of a move body: exactly one of before and after. */
export function anchorOf<P>(
  position: { before?: P | undefined; after?: P | undefined } | undefined,
  field: string,
): { pointer: P; which: 'before' | 'after'; field: string } {
  if (position?.before && position.after)
    throw invalidField(field, 'must give either "before" or "after", not both');
  if (position?.before) return { pointer: position.before, which: 'before', field: `${field}.before` };
  if (position?.after) return { pointer: position.after, which: 'after', field: `${field}.after` };
  throw invalidField(field, 'must give "before" or "after": the sibling to place the item next to');
}

/** The site structure as a whole, and reordering it. */
export class StructureService {
  constructor(private readonly access: SiteAccessor) {}

  async get(actor: Actor, orgId: string, siteId: string, shareKey: string | undefined): Promise<SiteContext> {
    const { site } = await this.access.site(actor, orgId, siteId, 'view');
    await this.access.requireShareKey(site, shareKey);
    return this.access.context(actor, site);
  }

  async sort(
    actor: Actor,
    orgId: string,
    siteId: string,
    body: SortStructureBody,
  ): Promise<{ ctx: SiteContext; item: StructureItemRef }> {
    const item = refOf(body.item, 'body.item');
    const anchor = anchorOf(body.position, 'body.position');
    const site = await this.access.command(actor, orgId, siteId, async (tx, site) => {
      const tree = await loadTree(tx, site.id);
      if (!exists(tree, item))
        throw invalidField('body.item.id', `"${item.id}" is not a ${NAMES[item.kind]} of this site`);
      await moveItem(tx, site.id, {
        item,
        anchor: refOf(anchor.pointer, anchor.field),
        which: anchor.which,
        field: anchor.field,
      });
      return site;
    });
    return { ctx: await this.access.context(actor, await this.access.reload(site.id)), item };
  }
}
