import { CowMap } from './cow-map.js';
import type { PageNode, RevisionContent } from './tree.js';

/** Page ids grouped by a field of their node, each group unordered. */
export type PageGroups<K> = ReadonlyMap<K, ReadonlySet<string>>;

/** The ids of the pages directly under each parent page (null: the top level). */
export type Children = PageGroups<string | null>;

/**
 * Ways to find pages other than by id, for one revision content. Building them walks every page;
 * a revision made from another derives them from the other's at the cost of its changes.
 */
export interface PageIndexes {
  children: Children;
  /** The ids of the pages with each slug. */
  slugs: PageGroups<string>;
}

const byParent = (page: PageNode) => page.parent;
const bySlug = (page: PageNode) => page.slug;

/** The indexes of `pages`, from a walk over all of them. */
export function indexPages(pages: ReadonlyMap<string, PageNode>): PageIndexes {
  const children = new Map<string | null, Set<string>>();
  const slugs = new Map<string, Set<string>>();
  for (const page of pages.values()) {
    addTo(children, page.parent, page.id);
    addTo(slugs, page.slug, page.id);
  }
  return { children, slugs };
}

/** The children of every page, from a walk over all of them. */
export function childrenOf(pages: ReadonlyMap<string, PageNode>): Children {
  const children = new Map<string | null, Set<string>>();
  for (const page of pages.values()) addTo(children, page.parent, page.id);
  return children;
}

/**
 * The indexes of `next` from those of `base`, given the ids of the pages that differ between the
 * two (a superset is fine). `indexes` are not changed.
 */
export function updateIndexes(
  indexes: PageIndexes,
  base: ReadonlyMap<string, PageNode>,
  next: ReadonlyMap<string, PageNode>,
  changed: Iterable<string>,
): PageIndexes {
  const ids = [...changed];
  return {
    children: updateGroups(indexes.children, base, next, ids, byParent),
    slugs: updateGroups(indexes.slugs, base, next, ids, bySlug),
  };
}

/** `updateIndexes` for the children alone. */
export function updateChildren(
  children: Children,
  base: ReadonlyMap<string, PageNode>,
  next: ReadonlyMap<string, PageNode>,
  changed: Iterable<string>,
): Children {
  return updateGroups(children, base, next, changed, byParent);
}

/**
 * Only the groups that gained or lost a page are copied, so the cost follows the change, not the
 * size of the space.
 */
function updateGroups<K>(
  groups: PageGroups<K>,
  base: ReadonlyMap<string, PageNode>,
  next: ReadonlyMap<string, PageNode>,
  changed: Iterable<string>,
  keyOf: (page: PageNode) => K,
): PageGroups<K> {
  let result: CowMap<K, ReadonlySet<string>> | undefined;
  const copied = new Map<K, Set<string>>();
  const groupOf = (key: K): Set<string> => {
    let group = copied.get(key);
    if (!group) {
      group = new Set(groups.get(key));
      copied.set(key, group);
      result ??= CowMap.of(groups);
      result.set(key, group);
    }
    return group;
  };
  for (const id of changed) {
    const before = base.get(id);
    const after = next.get(id);
    if (before === after) continue;
    if (before && after && keyOf(before) === keyOf(after)) continue;
    if (before) groupOf(keyOf(before)).delete(id);
    if (after) groupOf(keyOf(after)).add(id);
  }
  // An emptied group has no entry, as when built from scratch.
  for (const [key, group] of copied) if (group.size === 0) result!.delete(key);
  return result ?? groups;
}

function addTo<K>(groups: Map<K, Set<string>>, key: K, id: string): void {
  const group = groups.get(key);
  if (group) group.add(id);
  else groups.set(key, new Set([id]));
}

/** How a revision content was made from another: what a reader needs to derive its indexes. */
export interface Derivation {
  /** The content it was made from, while something else keeps it (its indexes go with it). */
  base: WeakRef<RevisionContent>;
  /** Ids of the pages that differ (a superset is fine). */
  pages: ReadonlySet<string>;
  /** Whether files or reusable contents may differ. */
  files: boolean;
  reusable: boolean;
}

const derivations = new WeakMap<RevisionContent, Derivation>();

/**
 * Notes that `next` was made from `base` by changing `changes`, so that indexes kept per content
 * (the page index, the repository layout) can be derived from `base`'s at the cost of the change
 * instead of a walk over every page. `base` is held weakly: no chain of old revisions is kept.
 */
export function noteDerivation(
  next: RevisionContent,
  base: RevisionContent,
  changes: { pages: ReadonlySet<string>; files: ReadonlySet<string>; reusable: boolean },
): void {
  if (next === base) return;
  derivations.set(next, {
    base: new WeakRef(base),
    pages: changes.pages,
    files: changes.files.size > 0,
    reusable: changes.reusable,
  });
}

/** How `content` was made, when it was noted and its base is still in memory. */
export function derivationOf(
  content: RevisionContent,
): { base: RevisionContent; derivation: Derivation } | undefined {
  const derivation = derivations.get(content);
  const base = derivation?.base.deref();
  return derivation && base ? { base, derivation } : undefined;
}

/** How far back a value is derived through contents whose own value was never asked for. */
const MAX_DERIVATION_DEPTH = 16;

/**
 * A value computed once per revision content and kept while the content is (indexes of its
 * pages). The value of a content made from another (a write, a merge) is derived from the other's
 * at the cost of the change, going back at most MAX_DERIVATION_DEPTH noted derivations to one
 * whose value is known; otherwise it is built from the whole content. Derived lazily, so a
 * content whose value was never asked for still passes it on to those made from it.
 */
export function keptPerContent<T>(
  build: (content: RevisionContent) => T,
  derive: (base: T, made: { base: RevisionContent; derivation: Derivation }, content: RevisionContent) => T,
): (content: RevisionContent) => T {
  const kept = new WeakMap<RevisionContent, T>();
  const of = (content: RevisionContent, depth: number): T => {
    let value = kept.get(content);
    if (value === undefined) {
      const made = derivationOf(content);
      value =
        made && (kept.has(made.base) || depth < MAX_DERIVATION_DEPTH)
          ? derive(of(made.base, depth + 1), made, content)
          : build(content);
      kept.set(content, value);
    }
    return value;
  };
  return (content) => of(content, 0);
}

/** The page indexes of a revision content (see `keptPerContent`). */
export const pageIndexesOf = keptPerContent<PageIndexes>(
  (content) => indexPages(content.pages),
  (base, made, content) => updateIndexes(base, made.base.pages, content.pages, made.derivation.pages),
);
