import type { SiteSectionGroupsTable, SiteSectionsTable } from '../db/tables.js';
import type { SiteAddresses } from './addresses.js';
import type { PublishedSite, SiteSpaceRow } from './site-data.js';

/** The parts of a site one visitor may see, after evaluating every condition against them. */
export interface VisibleSite {
  published: PublishedSite;
  groups: SiteSectionGroupsTable[];
  sections: SiteSectionsTable[];
  siteSpaces: SiteSpaceRow[];
  /** Stable key of what is visible: visitors who see the same parts share cached pages. */
  key: string;
}

export function visibleParts(
  published: PublishedSite,
  allows: (condition: string | null) => boolean,
): VisibleSite {
  const sections = published.sections.filter((s) => allows(s.condition));
  const shown = new Set(sections.map((s) => s.id));
  const siteSpaces = published.siteSpaces.filter(
    (s) => (s.section_id === null || shown.has(s.section_id)) && allows(s.condition),
  );
  const key = [...sections.map((s) => s.id), '|', ...siteSpaces.map((s) => s.id)].join(',');
  return { published, groups: published.groups, sections, siteSpaces, key };
}

/** The section whose URL carries no path segment: the site's default, else its first. */
export function defaultSectionOf(published: PublishedSite): SiteSectionsTable | undefined {
  const { site, sections } = published;
  return sections.find((s) => s.id === site.default_section_id) ?? sections[0];
}

/** The site space of a section (or of the root) whose URL carries no path segment. */
export function defaultSiteSpaceOf(
  published: PublishedSite,
  section: SiteSectionsTable | null,
): SiteSpaceRow | undefined {
  const candidates = published.siteSpaces.filter((s) => s.section_id === (section?.id ?? null));
  const preferred = section ? section.default_site_space_id : published.site.default_site_space_id;
  return candidates.find((s) => s.id === preferred) ?? candidates[0];
}

export interface SiteLocation {
  section: SiteSectionsTable | null;
  siteSpace: SiteSpaceRow;
  /** The page path inside the site space ('' for its first page). */
  pagePath: string;
}

/** URL of a site space's root, as `urls.published` gives it. */
export function siteSpaceHref(
  addresses: SiteAddresses,
  published: PublishedSite,
  siteSpace: SiteSpaceRow,
): string {
  const section = siteSpace.section_id
    ? published.sections.find((s) => s.id === siteSpace.section_id)
    : undefined;
  const sectionPath = section && section.id !== defaultSectionOf(published)?.id ? section.path : undefined;
  const spacePath =
    siteSpace.id !== defaultSiteSpaceOf(published, section ?? null)?.id ? siteSpace.path : undefined;
  return addresses.at(published.site, sectionPath, spacePath);
}

/**
 * Finds what a path inside the site shows: an optional section segment, an optional site-space
 * segment, then the page path. Parts the visitor may not see do not match, so they fall through
 * to "not found" exactly like parts that do not exist.
 */
export function locate(visible: VisibleSite, segments: string[]): SiteLocation | undefined {
  const { published } = visible;
  let rest = segments;
  let section: SiteSectionsTable | null = null;
  if (published.sections.length > 0) {
    const named = rest.length > 0 ? visible.sections.find((s) => s.path === rest[0]) : undefined;
    if (named && named.id !== defaultSectionOf(published)?.id) {
      section = named;
      rest = rest.slice(1);
    } else {
      const fallback = defaultSectionOf(published);
      if (!fallback || !visible.sections.some((s) => s.id === fallback.id)) return undefined;
      section = fallback;
    }
  }
  const inSection = visible.siteSpaces.filter((s) => s.section_id === (section?.id ?? null));
  const defaultSpace = defaultSiteSpaceOf(published, section);
  const named =
    rest.length > 0 ? inSection.find((s) => s.path === rest[0] && s.id !== defaultSpace?.id) : undefined;
  let siteSpace: SiteSpaceRow | undefined;
  if (named) {
    siteSpace = named;
    rest = rest.slice(1);
  } else {
    siteSpace = inSection.find((s) => s.id === defaultSpace?.id);
  }
  if (!siteSpace) return undefined;
  return { section, siteSpace, pagePath: rest.join('/') };
}

/** Where a visitor lands when the home is hidden from them: the first part they may see. */
export function firstVisible(visible: VisibleSite): SiteSpaceRow | undefined {
  for (const section of visible.sections) {
    const space = visible.siteSpaces.find((s) => s.section_id === section.id);
    if (space) return space;
  }
  return visible.siteSpaces.find((s) => s.section_id === null);
}
