import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, Db } from '../db/database.js';
import type {
  OpenApiSpecsTable,
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteSpacesTable,
  SitesTable,
  SpacesTable,
} from '../db/tables.js';

export type SiteSpaceRow = SiteSpacesTable & { space: SpacesTable };

export type PublishedSpec = Pick<OpenApiSpecsTable, 'slug' | 'last_version_id' | 'visibility'>;
type SpecRow = PublishedSpec & Pick<OpenApiSpecsTable, 'slug_key'>;

/** A site as its visitors' requests need it: the structure, every row read once. */
export interface PublishedSite {
  site: SitesTable;
  groups: SiteSectionGroupsTable[];
  sections: SiteSectionsTable[];
  siteSpaces: SiteSpaceRow[];
  /**
   * The organization's OpenAPI specifications, by lower-case slug: their newest version is part
   * of every page that draws them (API reference blocks, computed reference pages).
   */
  specs: Map<string, PublishedSpec>;
  /**
   * Digest of everything above: any change to the site's settings, structure, the revisions
   * its spaces point at or the specifications they draw gives another fingerprint, which is
   * what page ETags and caches key on.
   */
  fingerprint: string;
}

const byPosition = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Every request to a site reads its structure, kept in the database's ReadCache until the next
 * commit (by this process or another), so a change to the site, its structure or its spaces
 * shows on the very next request all the same. On SQLite a miss is five point queries; on
 * PostgreSQL, where each query is a round trip, one statement.
 */
export function loadPublishedSite(
  database: Pick<Database, 'db' | 'dialect' | 'cache'>,
  where: SiteWhere,
): Promise<PublishedSite | undefined> {
  const { db, dialect, cache } = database;
  const key = 'id' in where ? `published-site:id:${where.id}` : `published-site:host:${where.hostname}`;
  return cache.read(key, () =>
    dialect === 'postgres' ? readPublishedSitePg(db, where) : readPublishedSite(db, where),
  );
}

type SiteWhere = { id: string } | { hostname: string };

async function readPublishedSite(db: Db, where: SiteWhere): Promise<PublishedSite | undefined> {
  let query = db.selectFrom('sites').selectAll();
  query = 'id' in where ? query.where('id', '=', where.id) : query.where('hostname', '=', where.hostname);
  const site = await query.executeTakeFirst();
  if (!site) return undefined;
  const [groups, sections, links, specs] = await Promise.all([
    db.selectFrom('site_section_groups').selectAll().where('site_id', '=', site.id).execute(),
    db.selectFrom('site_sections').selectAll().where('site_id', '=', site.id).execute(),
    db.selectFrom('site_spaces').selectAll().where('site_id', '=', site.id).execute(),
    db
      .selectFrom('openapi_specs')
      .select(['slug', 'slug_key', 'last_version_id', 'visibility'])
      .where('org_id', '=', site.org_id)
      .execute(),
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
  return assemble(site, groups, sections, links, spaces, specs);
}

/**
 * The same rows in one statement, each as JSON tagged with its table. Every column of these
 * tables is text, integer or bigint, which JSON carries unchanged (bigints as numbers, as the
 * driver's int8 parser reads them), so the rows are the ones the five queries would read. A flat
 * UNION ALL plans in a fraction of the time nested JSON aggregates take.
 */
async function readPublishedSitePg(db: Db, where: SiteWhere): Promise<PublishedSite | undefined> {
  const thisSite = 'id' in where ? sql`id = ${where.id}` : sql`hostname = ${where.hostname}`;
  const siteId = sql`(select id from sites where ${thisSite})`;
  const { rows } = await sql<{ k: number; j: never }>`
    select 0 as k, to_json(s) as j from sites s where ${thisSite}
    union all select 1, to_json(g) from site_section_groups g where g.site_id = ${siteId}
    union all select 2, to_json(x) from site_sections x where x.site_id = ${siteId}
    union all select 3, to_json(l) from site_spaces l where l.site_id = ${siteId}
    union all select 4, to_json(sp) from spaces sp
      where sp.id in (select space_id from site_spaces where site_id = ${siteId})
        -- A space moved to another organization is no longer published by this one's sites.
        and sp.org_id = (select org_id from sites where ${thisSite})
        and sp.deleted_at is null
    union all select 5, json_build_object('slug', o.slug, 'slug_key', o.slug_key,
        'last_version_id', o.last_version_id, 'visibility', o.visibility)
      from openapi_specs o where o.org_id = (select org_id from sites where ${thisSite})`.execute(db);
  const site = rows.find((r) => r.k === 0)?.j as SitesTable | undefined;
  if (!site) return undefined;
  const of = <T>(k: number): T[] => rows.filter((r) => r.k === k).map((r) => r.j as T);
  return assemble(
    site,
    of<SiteSectionGroupsTable>(1),
    of<SiteSectionsTable>(2),
    of<SiteSpacesTable>(3),
    of<SpacesTable>(4),
    of<SpecRow>(5),
  );
}

function assemble(
  site: SitesTable,
  groups: SiteSectionGroupsTable[],
  sections: SiteSectionsTable[],
  links: SiteSpacesTable[],
  spaces: SpacesTable[],
  specRows: SpecRow[],
): PublishedSite {
  const spaceById = new Map(spaces.map((s) => [s.id, s]));
  const siteSpaces = links
    .filter((l) => spaceById.has(l.space_id))
    .map((l) => ({ ...l, space: spaceById.get(l.space_id)! }))
    .sort(byPosition);
  groups.sort(byPosition);
  sections.sort(byPosition);
  specRows.sort((a, b) => (a.slug_key < b.slug_key ? -1 : a.slug_key > b.slug_key ? 1 : 0));
  const specs = new Map(
    specRows.map((r) => [
      r.slug_key,
      { slug: r.slug, last_version_id: r.last_version_id, visibility: r.visibility },
    ]),
  );
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([site, groups, sections, siteSpaces, specRows]))
    .digest('base64url')
    .slice(0, 22);
  return { site, groups, sections, siteSpaces, specs, fingerprint };
}

function specRowsOf(db: Db, orgId: string): Promise<SpecRow[]> {
  return db
    .selectFrom('openapi_specs')
    .select(['slug', 'slug_key', 'last_version_id', 'visibility'])
    .where('org_id', '=', orgId)
    .execute();
}

/** The organization's specifications by slug key, as API blocks of its content look them up. */
export async function organizationSpecs(db: Db, orgId: string): Promise<Map<string, PublishedSpec>> {
  const rows = await specRowsOf(db, orgId);
  return new Map(
    rows.map((r) => [
      r.slug_key,
      { slug: r.slug, last_version_id: r.last_version_id, visibility: r.visibility },
    ]),
  );
}

/** The banner on a space's preview (see `previewSite`). */
export const PREVIEW_NOTICE =
  'Current content, not a published site: only members of the space see this page.';

/**
 * A space's current content as a one-space site, for the signed-in app (`/app/s/{spaceId}`): the
 * published-site renderer then draws it exactly as a site would, with a banner saying what it
 * is. Nothing here is stored; the site's id is the space's, so its addresses are the space's.
 */
export async function previewSite(db: Db, space: SpacesTable): Promise<PublishedSite> {
  const specs = await specRowsOf(db, space.org_id);
  const siteSpaceId = `preview-${space.id}`;
  const site: SitesTable = {
    id: space.id,
    org_id: space.org_id,
    type: 'basic',
    title: space.title || 'Untitled space',
    visibility: 'unlisted' as SitesTable['visibility'],
    published: 1,
    basename: null,
    hostname: null,
    proxy: null,
    adaptive_enabled: 0,
    agents_context: 'excluded',
    customization: JSON.stringify({
      announcement: { enabled: true, message: PREVIEW_NOTICE, style: 'warning' },
    }),
    customization_updated_at: null,
    adaptive_schema: null,
    adaptive_schema_updated_at: null,
    auth_private_key: '',
    auth_fallback_url: null,
    share_secret: '',
    default_section_id: null,
    default_site_space_id: siteSpaceId,
    created_at: space.created_at,
    updated_at: space.updated_at,
  };
  const link: SiteSpacesTable = {
    id: siteSpaceId,
    site_id: space.id,
    section_id: null,
    space_id: space.id,
    path: 'content',
    title: null,
    condition: null,
    hidden: 0,
    page_id: null,
    position: 0,
    customization: null,
    created_at: space.created_at,
  };
  return assemble(site, [], [], [link], [space], specs);
}
