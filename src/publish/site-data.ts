import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import type {
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteSpacesTable,
  SitesTable,
  SpacesTable,
} from '../db/tables.js';

export type SiteSpaceRow = SiteSpacesTable & { space: SpacesTable };

/** A site as its visitors' requests need it: the structure, every row read once. */
export interface PublishedSite {
  site: SitesTable;
  groups: SiteSectionGroupsTable[];
  sections: SiteSectionsTable[];
  siteSpaces: SiteSpaceRow[];
  /**
   * Digest of everything above: any change to the site's settings, structure or the revisions
   * its spaces point at gives another fingerprint, which is what page ETags and caches key on.
   */
  fingerprint: string;
}

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function loadPublishedSite(
  db: Db,
  where: { id: string } | { hostname: string },
): Promise<PublishedSite | undefined> {
  let query = db.selectFrom('sites').selectAll();
  query = 'id' in where ? query.where('id', '=', where.id) : query.where('hostname', '=', where.hostname);
  const site = await query.executeTakeFirst();
  if (!site) return undefined;
  const [groups, sections, links] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', site.id).execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', site.id).execute(),
    db.selectFrom('site_spaces').selectAll().where('site_id', '=', site.id).execute(),
  ]);
  const spaceIds = [...new Set(links.map((l) => l.space_id))];
  const spaces =
    spaceIds.length === 0
      ? []
      : await db
          .selectFrom('spaces')
          .selectAll()
          .where('id', 'in', spaceIds)
          // A space moved to another organization is no longer published by this one's sites.
          .where('org_id', '=', site.org_id)
          .where('deleted_at', 'is', null)
          .execute();
  const spaceById = new Map(spaces.map((s) => [s.id, s]));
  const siteSpaces = links
    .filter((l) => spaceById.has(l.space_id))
    .map((l) => ({ ...l, space: spaceById.get(l.space_id)! }))
    .sort(byPosition);
  groups.sort(byPosition);
  sections.sort(byPosition);
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([site, groups, sections, siteSpaces]))
    .digest('base64url')
    .slice(0, 22);
  return { site, groups, sections, siteSpaces, fingerprint };
}
