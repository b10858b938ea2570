import type { PageIndex } from '../areas/content/page-index.js';
import type { PageNode } from '../content/tree.js';
import type { SiteSectionGroupsTable } from '../db/tables.js';
import type { SiteAddresses } from './addresses.js';
import { type ComputedReference, referenceHref } from './api-reference.js';
import type { NavLink, SectionNavItem, TreeItem } from './render/model.js';
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
  return index.inOrder().find((p) => p.type === 'document' && !p.hidden);
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

/** The sidebar: the space's page tree without hidden pages, the active branch open. */
export function pageTree(
  index: PageIndex,
  spaceRoot: string,
  active: PageNode | undefined,
  first: PageNode | undefined,
  /** Whether the visitor may see a page (its adaptive condition); all by default. */
  shows: (page: PageNode) => boolean = () => true,
  /** Computed pages whose specification is processed, and the reference page being read. */
  computed: { references: Map<string, ComputedReference>; activeSlug?: string | undefined } = {
    references: new Map(),
  },
): TreeItem[] {
  const activeBranch = new Set<string>();
  for (let p = active; p; p = p.parent ? index.content.pages.get(p.parent) : undefined)
    activeBranch.add(p.id);
  const build = (parent: string | null): TreeItem[] =>
    index
      .childrenOf(parent)
      .filter((p) => !p.hidden && shows(p))
      .flatMap((p): TreeItem[] => {
        if (p.type === 'computed') {
          // A reference stands in its entry's place, its pages side by side as GitBook lists
          // them; one whose specification is not processed yet has nothing to show.
          const reference = computed.references.get(p.id);
          if (!reference) return [];
          return reference.pages.map((page) => ({
            kind: 'document',
            title: page.title,
            href: referenceHref(spaceRoot, index, reference, page),
            active: p.id === active?.id && page.slug === computed.activeSlug,
            open: false,
            children: [],
          }));
        }
        const item: TreeItem = {
          kind: p.type === 'group' ? 'group' : p.type === 'link' ? 'link' : 'document',
          title: p.linkTitle ?? p.title,
          emoji: p.emoji,
          active: p.id === active?.id,
          open: activeBranch.has(p.id),
          children: build(p.id),
        };
        if (p.type === 'document') item.href = pageHref(spaceRoot, index, p, first);
        else if (p.type === 'link' && p.href) item.href = p.href;
        else if (p.type === 'link' && p.target?.kind === 'anchor' && p.target.page && !p.target.space) {
          const target = index.content.pages.get(p.target.page);
          if (target?.type === 'document')
            item.href = `${pageHref(spaceRoot, index, target, first)}#${encodeURIComponent(p.target.anchor)}`;
        }
        return [item];
      });
  return build(null);
}

/** Previous and next documents in reading order. */
export function neighbours(
  index: PageIndex,
  spaceRoot: string,
  page: PageNode,
  first: PageNode | undefined,
  shows: (page: PageNode) => boolean = () => true,
): { previous?: { title: string; href: string }; next?: { title: string; href: string } } {
  const order = index.inOrder().filter((p) => p.type === 'document' && !p.hidden && shows(p));
  const at = order.findIndex((p) => p.id === page.id);
  const link = (p: PageNode | undefined) =>
    p ? { title: p.title, href: pageHref(spaceRoot, index, p, first) } : undefined;
  const out: { previous?: { title: string; href: string }; next?: { title: string; href: string } } = {};
  const previous = at > 0 ? link(order[at - 1]) : undefined;
  const next = at >= 0 ? link(order[at + 1]) : undefined;
  if (previous) out.previous = previous;
  if (next) out.next = next;
  return out;
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
