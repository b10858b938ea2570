import type { PageIndex } from '../areas/content/page-index.js';
import type { PageNode } from '../content/tree.js';
import type { SiteSectionGroupsTable } from '../db/tables.js';
import type { SiteAddresses } from './addresses.js';
import type { NavLink, SectionNavItem } from './render/model.js';
import { defaultSectionOf, type SiteLocation, siteSpaceHref, type VisibleSite } from './site-routing.js';

/** URL of a page inside a site space: its root for the space's first page. */
export function pageHref(
  spaceRoot: string,
  index: PageIndex,
  page: PageNode,
  first: PageNode | undefined,
): string {
  if (first && page.id === first.id) return spaceRoot;
  const path = index.pathOf(page.id);
  const base = spaceRoot.endsWith('/') ? spaceRoot : `${spaceRoot}/`;
  return base + path.split('/').map(encodeURIComponent).join('/');
}

/** The first readable page of a space: where its root leads. */
export function firstDocument(index: PageIndex): PageNode | undefined {
  // Reading order up to the first one, not the whole tree.
  const walk = (parent: string | null): PageNode | undefined => {
    for (const page of index.childrenOf(parent)) {
      if (page.type === 'document' && !page.hidden) return page;
      const inside = walk(page.id);
      if (inside) return inside;
    }
    return undefined;
  };
  return walk(null);
}

/** Section tabs, with section groups holding their sections (nested groups flattened into them). */
export function sectionNav(
  addresses: SiteAddresses,
  visible: VisibleSite,
  location: SiteLocation,
): SectionNavItem[] {
  const { published } = visible;
  if (visible.sections.length <= 1) return [];
  const defaultSection = defaultSectionOf(published);
  const sectionItem = (s: (typeof visible.sections)[number]): SectionNavItem => ({
    kind: 'section',
    title: s.title,
    icon: s.icon ?? undefined,
    href: addresses.at(published.site, s.id === defaultSection?.id ? undefined : s.path),
    active: s.id === location.section?.id,
  });
  type Entry = { position: number; item: SectionNavItem };
  const groupItems = (group: SiteSectionGroupsTable | null): Entry[] => {
    const entries: Entry[] = visible.sections
      .filter((s) => s.group_id === (group?.id ?? null))
      .map((s) => ({ position: Number(s.position), item: sectionItem(s) }));
    for (const child of visible.groups.filter((g) => g.parent_id === (group?.id ?? null))) {
      const items = groupItems(child).map((e) => e.item);
      if (items.length > 0)
        entries.push({
          position: Number(child.position),
          item: { kind: 'group', title: child.title, items },
        });
    }
    return entries.sort((a, b) => a.position - b.position);
  };
  return groupItems(null).map((e) => e.item);
}

/** The other site spaces of the current section (variants such as versions or languages). */
export function variantNav(
  addresses: SiteAddresses,
  visible: VisibleSite,
  location: SiteLocation,
): NavLink[] {
  const siblings = visible.siteSpaces.filter(
    (s) => s.section_id === (location.section?.id ?? null) && (!s.hidden || s.id === location.siteSpace.id),
  );
  if (siblings.length <= 1) return [];
  return siblings.map((s) => ({
    title: s.title ?? s.space.title,
    href: siteSpaceHref(addresses, visible.published, s),
    active: s.id === location.siteSpace.id,
  }));
}

/** Previous and next documents in reading order. */
export function neighbours(
  index: PageIndex,
  spaceRoot: string,
  page: PageNode,
  first: PageNode | undefined,
  shows: (page: PageNode) => boolean = () => true,
): { previous?: { title: string; href: string }; next?: { title: string; href: string } } {
  const out: { previous?: { title: string; href: string }; next?: { title: string; href: string } } = {};
  const listed = (p: PageNode) => p.type === 'document' && !p.hidden && shows(p);
  // Only a page listed in reading order has neighbours there.
  if (!listed(page) || !index.reaches(page.id)) return out;
  const link = (p: PageNode | undefined) =>
    p ? { title: p.title, href: pageHref(spaceRoot, index, p, first) } : undefined;
  // Walked from the page, not over the whole tree: the first listed page before and after it.
  let previous: PageNode | undefined;
  for (let p = beforeInOrder(index, page); p; p = beforeInOrder(index, p))
    if (listed(p)) {
      previous = p;
      break;
    }
  let next: PageNode | undefined;
  for (let p = afterInOrder(index, page); p; p = afterInOrder(index, p))
    if (listed(p)) {
      next = p;
      break;
    }
  if (previous) out.previous = link(previous)!;
  if (next) out.next = link(next)!;
  return out;
}

/** The page before `page` in reading order (`PageIndex.inOrder`), of a page in the tree. */
function beforeInOrder(index: PageIndex, page: PageNode): PageNode | undefined {
  const at = index.siblingIndex(page);
  if (at > 0) {
    // The last page inside the previous sibling, however deep.
    let last = index.childrenOf(page.parent)[at - 1]!;
    for (let inside = index.childrenOf(last.id); inside.length > 0; inside = index.childrenOf(last.id))
      last = inside[inside.length - 1]!;
    return last;
  }
  return page.parent === null ? undefined : index.content.pages.get(page.parent);
}

/** The page after `page` in reading order, of a page in the tree. */
function afterInOrder(index: PageIndex, page: PageNode): PageNode | undefined {
  const inside = index.childrenOf(page.id);
  if (inside.length > 0) return inside[0];
  for (let at: PageNode | undefined = page; at; ) {
    const siblings = index.childrenOf(at.parent);
    const following = siblings[index.siblingIndex(at) + 1];
    if (following) return following;
    at = at.parent === null ? undefined : index.content.pages.get(at.parent);
  }
  return undefined;
}

export function breadcrumbs(
  index: PageIndex,
  spaceRoot: string,
  page: PageNode,
  first: PageNode | undefined,
): Array<{ title: string; href?: string }> {
  const out: Array<{ title: string; href?: string }> = [];
  for (let p = page.parent ? index.content.pages.get(page.parent) : undefined; p; ) {
    out.unshift(
      p.type === 'document'
        ? { title: p.title, href: pageHref(spaceRoot, index, p, first) }
        : { title: p.title },
    );
    p = p.parent ? index.content.pages.get(p.parent) : undefined;
  }
  return out;
}
