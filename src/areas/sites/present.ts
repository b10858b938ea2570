import type { MemberRole } from '../../auth/roles.js';
import type {
  SiteSectionGroupsTable,
  SiteSectionsTable,
  SiteShareLinksTable,
  SitesTable,
} from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { SiteAddresses } from '../../publish/addresses.js';
import { SHARE_KEY_PARAM, shareKeyOf } from '../../publish/share-keys.js';
import { presentSpace } from '../spaces/present.js';
import { sitePermissions } from './access.js';
import { presentCustomization } from './customization.js';
import { SITE_FEATURES, type Site } from './schemas.js';
import type { ShareLink } from './settings-schemas.js';
import type {
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
  StructureChild,
} from './structure-schemas.js';
import {
  type SiteContext,
  type SiteSpaceRow,
  sectionLevel,
  sectionsInOrder,
  siteSpaceLevel,
} from './tree.js';

/** What every site presenter builds URLs from. */
export interface Links {
  urls: Urls;
  addresses: SiteAddresses;
}

export interface SiteView {
  row: SitesTable;
  orgRole: MemberRole | null;
  /** Number of site spaces. */
  siteSpaces: number;
}

/** What a published site shows: the site and its structure (PublishedContentService.get). */
export interface PublishedView {
  site: SiteView;
  ctx: SiteContext;
}

function siteUrls(row: SitesTable, links: Links) {
  const app = links.urls.app(`/o/${row.org_id}/sites/${row.id}`);
  return {
    location: links.urls.api(`/orgs/${row.org_id}/sites/${row.id}`),
    app,
    preview: `${app}/preview`,
    ...(row.published === 1 ? { published: links.addresses.root(row) } : {}),
  };
}

export function presentSite({ row, orgRole, siteSpaces }: SiteView, links: Links): Site {
  const site: Site = {
    object: 'site',
    id: row.id,
    type: row.type as Site['type'],
    appliedType: row.type as Site['type'],
    title: row.title,
    visibility: row.visibility,
    defaultLevel: 'inherit',
    permissions: sitePermissions(orgRole),
    published: row.published === 1,
    siteSpaces: Number(siteSpaces),
    createdAt: row.created_at,
    adaptiveContent: { enabled: row.adaptive_enabled === 1 },
    agentsContext: row.agents_context,
    features: SITE_FEATURES.map((id) => ({ id, plan: row.type as Site['type'], frozen: false })),
    urls: siteUrls(row, links),
  };
  if (row.hostname) site.hostname = row.hostname;
  if (row.basename) site.basename = row.basename;
  if (row.proxy) {
    const { origin } = JSON.parse(row.proxy) as { origin: string };
    site.proxy = { origin, target: links.addresses.root(row) };
  }
  const favicon = (JSON.parse(row.customization) as { favicon?: Site['icon'] | Record<string, never> })
    .favicon;
  if (favicon && ('icon' in favicon || 'emoji' in favicon)) site.icon = favicon as Site['icon'];
  return site;
}

/**
 * The section whose URL has no segment of its own: the stored default, or the first section
 * when that one is gone (as the published renderer falls back).
 */
function isDefaultSection(ctx: SiteContext, section: SiteSectionsTable): boolean {
  const { sections } = ctx.tree;
  const id = sections.some((s) => s.id === ctx.site.default_section_id)
    ? ctx.site.default_section_id
    : sectionsInOrder(ctx.tree)[0]?.id;
  return id === section.id;
}

/** The default site space of its section (or of the top level), with the same fallback. */
function isDefaultSiteSpace(ctx: SiteContext, row: SiteSpaceRow): boolean {
  const stored =
    row.section_id === null
      ? ctx.site.default_site_space_id
      : ctx.tree.sections.find((s) => s.id === row.section_id)?.default_site_space_id;
  const level = siteSpaceLevel(ctx.tree, row.section_id);
  const id = level.some((s) => s.id === stored) ? stored : level[0]?.id;
  return id === row.id;
}

export function presentSiteSpace(ctx: SiteContext, row: SiteSpaceRow, links: Links): SiteSpace {
  const isDefault = isDefaultSiteSpace(ctx, row);
  const siteSpace: SiteSpace = {
    object: 'site-space',
    id: row.id,
    path: row.path,
    space: presentSpace({ row: row.space, role: ctx.roleOf(row.space) }, links.urls),
    title: row.title ?? row.space.title,
    default: isDefault,
    draft: false,
    hidden: row.hidden === 1,
    hasAdvancedCustomizationFeature: true,
    urls: {},
  };
  if (row.section_id) siteSpace.section = row.section_id;
  if (row.condition) siteSpace.condition = row.condition;
  if (ctx.site.published === 1) {
    const section = row.section_id ? ctx.tree.sections.find((s) => s.id === row.section_id) : undefined;
    siteSpace.urls.published = links.addresses.at(
      ctx.site,
      section && !isDefaultSection(ctx, section) ? section.path : null,
      isDefault ? null : row.path,
    );
  }
  return siteSpace;
}

export function presentSection(ctx: SiteContext, row: SiteSectionsTable, links: Links): SiteSection {
  const isDefault = isDefaultSection(ctx, row);
  const section: SiteSection = {
    object: 'site-section',
    id: row.id,
    title: row.title,
    default: isDefault,
    draft: false,
    path: row.path,
    siteSpaces: siteSpaceLevel(ctx.tree, row.id).map((s) => presentSiteSpace(ctx, s, links)),
    urls: {},
  };
  if (row.description) section.description = row.description;
  if (row.condition) section.condition = row.condition;
  if (row.group_id) section.sectionGroup = row.group_id;
  if (row.icon) section.icon = row.icon;
  if (ctx.site.published === 1)
    section.urls.published = links.addresses.at(ctx.site, isDefault ? null : row.path);
  return section;
}

export function presentGroup(
  ctx: SiteContext,
  row: SiteSectionGroupsTable,
  links: Links,
  depth = 0,
): SiteSectionGroup {
  const children = depth > 32 ? [] : presentLevel(ctx, row.id, links, depth + 1);
  const group: SiteSectionGroup = {
    object: 'site-section-group',
    id: row.id,
    title: row.title,
    draft: false,
    sections: children.filter((c): c is SiteSection => c.object === 'site-section'),
    children,
  };
  if (row.parent_id) group.sectionGroup = row.parent_id;
  if (row.icon) group.icon = row.icon;
  return group;
}

/** Sections and groups under `groupId` (null: the top level), nested, in order. */
function presentLevel(
  ctx: SiteContext,
  groupId: string | null,
  links: Links,
  depth: number,
): StructureChild[] {
  return sectionLevel(ctx.tree, groupId).map((slot) =>
    slot.kind === 'section'
      ? presentSection(ctx, ctx.tree.sections.find((s) => s.id === slot.id)!, links)
      : presentGroup(ctx, ctx.tree.groups.find((g) => g.id === slot.id)!, links, depth),
  );
}

/** Sections (and groups) when the site has sections, else its site spaces. */
export function presentStructure(ctx: SiteContext, links: Links): SiteStructure {
  if (ctx.tree.sections.length > 0) return { type: 'sections', structure: presentLevel(ctx, null, links, 0) };
  return {
    type: 'siteSpaces',
    structure: siteSpaceLevel(ctx.tree, null).map((s) => presentSiteSpace(ctx, s, links)),
  };
}

export type StructureItemRef = { kind: 'section' | 'group' | 'siteSpace'; id: string };

export function presentItem(
  ctx: SiteContext,
  item: StructureItemRef,
  links: Links,
): SiteSection | SiteSectionGroup | SiteSpace {
  if (item.kind === 'section')
    return presentSection(ctx, ctx.tree.sections.find((s) => s.id === item.id)!, links);
  if (item.kind === 'group') return presentGroup(ctx, ctx.tree.groups.find((g) => g.id === item.id)!, links);
  return presentSiteSpace(ctx, ctx.tree.siteSpaces.find((s) => s.id === item.id)!, links);
}

/** The share key is derived from the site's secret, so the link can always be shown again. */
export function presentShareLink(row: SiteShareLinksTable, site: SitesTable, links: Links): ShareLink {
  const url = new URL(links.addresses.root(site));
  url.searchParams.set(SHARE_KEY_PARAM, shareKeyOf(site.share_secret, row.id));
  const link: ShareLink = {
    object: 'share-link',
    id: row.id,
    createdAt: row.created_at,
    active: row.active === 1,
    urls: { published: url.toString() },
  };
  if (row.name !== null) link.name = row.name;
  return link;
}

/** The published view: site, structure, customizations (each site space's over the site's). */
export function presentPublished({ site, ctx }: PublishedView, links: Links) {
  const { customization, customization_updated_at: updatedAt } = ctx.site;
  return {
    object: 'published-content-site' as const,
    site: presentSite(site, links),
    structure: presentStructure(ctx, links),
    customizations: {
      site: presentCustomization(customization, updatedAt),
      siteSpaces: Object.fromEntries(
        ctx.tree.siteSpaces.map((s) => [
          s.id,
          presentCustomization(customization, updatedAt, s.customization),
        ]),
      ),
    },
    scripts: [],
  };
}
