import type { ExpressionBuilder } from 'kysely';
import type { MemberRole } from '../../auth/roles.js';
import type { Db, Tx } from '../../db/database.js';
import type {
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteSpacesTable,
  SitesTable,
  SpacesTable,
  Tables,
} from '../../db/tables.js';
import { invalidField } from '../../errors.js';

/**
 * A site's structure, read whole: sites hold tens of sections and site spaces, so commands and
 * presenters work on the full tree rather than on row-by-row queries.
 *
 * Order: sections and groups that share a parent (a group, or the top level) interleave by
 * `position`; site spaces order by `position` within their section (or the top level of a site
 * without sections). New items go in the gap between neighbours; a level is renumbered only
 * when a gap is used up.
 */

export type SiteSpaceRow = SiteSpacesTable & { space: SpacesTable };

export interface SiteTree {
  groups: SiteSectionGroupsTable[];
  sections: SiteSectionsTable[];
  siteSpaces: SiteSpaceRow[];
}

/** A site with its tree and the caller's role on each space it publishes. */
export interface SiteContext {
  site: SitesTable;
  tree: SiteTree;
  roleOf: (space: SpacesTable) => MemberRole | null;
}

const GAP = 65_536;

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function loadTree(db: Db | Tx, siteId: string): Promise<SiteTree> {
  const [groups, sections, siteSpaces] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).execute(),
    siteSpacesWithSpaces(db, siteId),
  ]);
  return {
    groups: groups.sort(byPosition),
    sections: sections.sort(byPosition),
    siteSpaces: siteSpaces.sort(byPosition),
  };
}

/**
 * Site spaces and their space rows, in two queries (portable across both databases). A space
 * that left the site's organization (transferred) is not published by it, nor shown.
 */
async function siteSpacesWithSpaces(db: Db | Tx, siteId: string): Promise<SiteSpaceRow[]> {
  const links = await db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).execute();
  const ids = [...new Set(links.map((l) => l.space_id))];
  const spaces = ids.length
    ? await db
        .selectFrom('spaces')
        .selectAll()
        .where('id', 'in', ids)
        .where('org_id', '=', (eb) => eb.selectFrom('sites').select('org_id').where('id', '=', siteId))
        .execute()
    : [];
  const byId = new Map(spaces.map((s) => [s.id, s]));
  return links.filter((l) => byId.has(l.space_id)).map((l) => ({ ...l, space: byId.get(l.space_id)! }));
}

export type SlotKind = 'section' | 'group' | 'siteSpace';
export interface Slot {
  kind: SlotKind;
  id: string;
  position: number;
}

/** Sections and groups directly under `groupId` (null: the top level), in order. */
export function sectionLevel(tree: SiteTree, groupId: string | null): Slot[] {
  return [
    ...tree.sections
      .filter((s) => s.group_id === groupId)
      .map((s) => ({ kind: 'section' as const, id: s.id, position: Number(s.position) })),
    ...tree.groups
      .filter((g) => g.parent_id === groupId)
      .map((g) => ({ kind: 'group' as const, id: g.id, position: Number(g.position) })),
  ].sort(byPosition);
}

/** Site spaces whose space is in the site's organization, for queries over `site_spaces`. */
export function inSiteOrg(orgId: string) {
  return (eb: ExpressionBuilder<Tables, 'site_spaces'>) =>
    eb.exists(
      eb
        .selectFrom('spaces as o')
        .select('o.id')
        .whereRef('o.id', '=', 'site_spaces.space_id')
        .where('o.org_id', '=', orgId),
    );
}

/** Site spaces of a section (null: the top level of a site without sections), in order. */
export function siteSpaceLevel(tree: SiteTree, sectionId: string | null): SiteSpaceRow[] {
  return tree.siteSpaces.filter((s) => s.section_id === sectionId);
}

export async function setPosition(tx: Tx, slot: Slot, position: number): Promise<void> {
  slot.position = position;
  if (slot.kind === 'section')
    await tx.updateTable('site_sections').set({ position }).where('id', '=', slot.id).execute();
  else if (slot.kind === 'group')
    await tx.updateTable('site_section_groups').set({ position }).where('id', '=', slot.id).execute();
  else await tx.updateTable('site_spaces').set({ position }).where('id', '=', slot.id).execute();
}

/**
 * The position for an item placed in `level` (which must not contain it): at the end, or just
 * before or after `anchor`. Renumbers the level when the gap there is used up.
 */
export async function positionIn(
  tx: Tx,
  level: Slot[],
  anchor?: { id: string; which: 'before' | 'after' },
): Promise<number> {
  if (!anchor) return (level.at(-1)?.position ?? 0) + GAP;
  const find = () => level.findIndex((s) => s.id === anchor.id);
  const gap = (i: number) =>
    anchor.which === 'before'
      ? { low: level[i - 1]?.position ?? level[i]!.position - 2 * GAP, high: level[i]!.position }
      : { low: level[i]!.position, high: level[i + 1]?.position ?? level[i]!.position + 2 * GAP };
  let { low, high } = gap(find());
  if (high - low < 2) {
    for (const [i, slot] of level.entries()) await setPosition(tx, slot, (i + 1) * GAP);
    ({ low, high } = gap(find()));
  }
  return Math.floor((low + high) / 2);
}

/** Top-level sections and groups, depth first: the order visitors see sections in. */
export function sectionsInOrder(tree: SiteTree): SiteSectionsTable[] {
  const out: SiteSectionsTable[] = [];
  const walk = (groupId: string | null, depth: number) => {
    if (depth > 32) return;
    for (const slot of sectionLevel(tree, groupId)) {
      if (slot.kind === 'section') out.push(tree.sections.find((s) => s.id === slot.id)!);
      else walk(slot.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** Is `groupId` the group `ancestorId` or inside it? */
export function isWithinGroup(tree: SiteTree, groupId: string | null, ancestorId: string): boolean {
  let current = groupId;
  for (let i = 0; current !== null && i < 64; i++) {
    if (current === ancestorId) return true;
    current = tree.groups.find((g) => g.id === current)?.parent_id ?? null;
  }
  return false;
}

/**
 * After a site space left a section (or the top level): if it was the default there, the
 * first remaining site space takes its place.
 */
export async function repairDefaults(tx: Tx, siteId: string): Promise<void> {
  const tree = await loadTree(tx, siteId);
  const site = await tx.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirstOrThrow();
  const patch: Partial<SitesTable> = {};
  const root = siteSpaceLevel(tree, null);
  if (!root.some((s) => s.id === site.default_site_space_id)) {
    const next = root[0]?.id ?? null;
    if (next !== site.default_site_space_id) patch.default_site_space_id = next;
  }
  if (!tree.sections.some((s) => s.id === site.default_section_id)) {
    const next = sectionsInOrder(tree)[0]?.id ?? null;
    if (next !== site.default_section_id) patch.default_section_id = next;
  }
  if (Object.keys(patch).length) await tx.updateTable('sites').set(patch).where('id', '=', siteId).execute();
  for (const section of tree.sections) {
    const inSection = siteSpaceLevel(tree, section.id);
    if (inSection.some((s) => s.id === section.default_site_space_id)) continue;
    const next = inSection[0]?.id ?? null;
    if (next === section.default_site_space_id) continue;
    await tx
      .updateTable('site_sections')
      .set({ default_site_space_id: next })
      .where('id', '=', section.id)
      .execute();
  }
}

/** A section of the site named in a body field, or a 400 naming it. */
export function sectionOf(tree: SiteTree, id: string, field: string): SiteSectionsTable {
  const section = tree.sections.find((s) => s.id === id);
  if (!section) throw invalidField(field, `"${id}" is not a section of this site`);
  return section;
}

export function groupOf(tree: SiteTree, id: string, field: string): SiteSectionGroupsTable {
  const group = tree.groups.find((g) => g.id === id);
  if (!group) throw invalidField(field, `"${id}" is not a section group of this site`);
  return group;
}

export function siteSpaceOf(tree: SiteTree, id: string, field: string): SiteSpaceRow {
  const siteSpace = tree.siteSpaces.find((s) => s.id === id);
  if (!siteSpace) throw invalidField(field, `"${id}" is not a site space of this site`);
  return siteSpace;
}
