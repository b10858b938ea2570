import { CowMap } from '../../content/cow-map.js';
import { keptPerContent } from '../../content/page-indexes.js';
import { byOrder, type PageNode, type RevisionContent } from '../../content/tree.js';

/**
 * Reading aids for one revision's pages, computed once per content and kept while it is: the
 * pages under each parent in order, and each page's path both ways. The index of a content made
 * from another (a write, a merge) derives from the other's at the cost of the change.
 */
export class PageIndex {
  private constructor(
    readonly content: RevisionContent,
    private readonly children: ReadonlyMap<string | null, PageNode[]>,
    private readonly paths: ReadonlyMap<string, string>,
    private readonly byPath: ReadonlyMap<string, string>,
    /** Every reachable page (links aside) by its `byPath` key, built when first deriving. */
    private keyGroups?: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  /** The index from a walk over every page. */
  static build(content: RevisionContent): PageIndex {
    const children = new Map<string | null, PageNode[]>();
    const paths = new Map<string, string>();
    const byPath = new Map<string, string>();
    for (const page of content.pages.values()) {
      const list = children.get(page.parent);
      if (list) list.push(page);
      else children.set(page.parent, [page]);
    }
    for (const list of children.values()) list.sort(byOrder);
    const walk = (parent: string | null, prefix: string) => {
      for (const page of children.get(parent) ?? []) {
        const path = pathIn(prefix, page);
        paths.set(page.id, path);
        // A group heads a part of the table of contents; its pages do not carry its slug.
        const key = keyOf(page, path);
        if (key !== undefined && !byPath.has(key)) byPath.set(key, page.id);
        walk(page.id, page.type === 'group' ? prefix : path);
      }
    };
    walk(null, '');
    return new PageIndex(content, children, paths, byPath);
  }

  private static readonly kept = keptPerContent<PageIndex>(
    (content) => PageIndex.build(content),
    (base, made, content) => base.derive(content, made.derivation.pages),
  );

  static of(content: RevisionContent): PageIndex {
    return PageIndex.kept(content);
  }

  childrenOf(parent: string | null): PageNode[] {
    return this.children.get(parent) ?? [];
  }

  pathOf(pageId: string): string {
    return this.paths.get(pageId) ?? '';
  }

  /** The document page at a path (groups only when nothing else has it). */
  pageAt(path: string): PageNode | undefined {
    const clean = path.replace(/^\/+|\/+$/g, '');
    const id = this.byPath.get(clean) ?? this.byPath.get(`group:${clean}`);
    return id ? this.content.pages.get(id) : undefined;
  }

  /** Whether the page is in the tree: its parents lead up to the top level. */
  reaches(pageId: string): boolean {
    return this.paths.has(pageId);
  }

  /** Pages in reading order: depth first, as the table of contents lists them. */
  inOrder(): PageNode[] {
    const out: PageNode[] = [];
    const walk = (parent: string | null) => {
      for (const page of this.childrenOf(parent)) {
        out.push(page);
        walk(page.id);
      }
    };
    walk(null);
    return out;
  }

  /** The position of a page among its siblings (-1: not listed under its parent). */
  siblingIndex(page: PageNode): number {
    const list = this.children.get(page.parent);
    if (!list) return -1;
    let positions = siblingPositions.get(list);
    if (!positions) {
      positions = new Map(list.map((p, i) => [p.id, i]));
      siblingPositions.set(list, positions);
    }
    return positions.get(page.id) ?? -1;
  }

  /**
   * The index of `next`, a content whose pages differ from this one's only in `changed` (a
   * superset is fine): the same as `PageIndex.build(next)`, at the cost of the change (and of the
   * pages under moved ones).
   */
  derive(next: RevisionContent, changed: Iterable<string>): PageIndex {
    const base = this.content.pages;
    const pages = next.pages;
    const structural = new Set<string>();
    const touchedParents = new Set<string | null>();
    for (const id of changed) {
      const before = base.get(id);
      const after = pages.get(id);
      if (before === after) continue;
      if (before) touchedParents.add(before.parent);
      if (after) touchedParents.add(after.parent);
      if (
        !before ||
        !after ||
        before.parent !== after.parent ||
        before.slug !== after.slug ||
        before.type !== after.type ||
        before.order !== after.order
      )
        structural.add(id);
    }
    if (touchedParents.size === 0)
      return new PageIndex(next, this.children, this.paths, this.byPath, this.keyGroups);

    // The lists under the parents that gained, lost or changed a page.
    const children = CowMap.of(this.children);
    for (const parent of touchedParents) {
      const ids = new Set((this.children.get(parent) ?? []).map((p) => p.id));
      for (const id of changed) {
        if (base.get(id)?.parent === parent) ids.delete(id);
        if (pages.get(id)?.parent === parent) ids.add(id);
      }
      const list = [...ids].map((id) => pages.get(id)!);
      if (list.length === 0) children.delete(parent);
      else children.set(parent, list.sort(byOrder));
    }
    if (structural.size === 0) return new PageIndex(next, children, this.paths, this.byPath, this.keyGroups);

    // Paths: the pages moved, renamed, added or removed, with everything under them.
    const keyGroups = CowMap.of(this.keyGroupsBuilt());
    const copiedGroups = new Set<string>();
    const touchedKeys = new Set<string>();
    const paths = CowMap.of(this.paths);
    const group = (key: string): Set<string> => {
      let set = keyGroups.get(key) as Set<string> | undefined;
      if (!copiedGroups.has(key)) {
        set = new Set(set);
        keyGroups.set(key, set);
        copiedGroups.add(key);
      }
      return set!;
    };
    const unset = (id: string) => {
      const before = this.paths.get(id);
      const node = base.get(id);
      if (before === undefined || !node) return;
      const key = keyOf(node, before);
      if (key !== undefined) {
        group(key).delete(id);
        touchedKeys.add(key);
      }
    };
    const seen = new Set<string>();
    const place = (page: PageNode, path: string | undefined) => {
      if (seen.has(page.id)) return;
      seen.add(page.id);
      unset(page.id);
      if (path === undefined) paths.delete(page.id);
      else {
        paths.set(page.id, path);
        const key = keyOf(page, path);
        if (key !== undefined) {
          group(key).add(page.id);
          touchedKeys.add(key);
        }
      }
      const prefix = path === undefined ? undefined : page.type === 'group' ? prefixOf(page, path) : path;
      for (const child of children.get(page.id) ?? [])
        place(child, prefix === undefined ? undefined : pathIn(prefix, child));
    };
    // Removed pages lose their paths; their children (if any stay) are placed again below.
    const roots = new Set<string>();
    for (const id of structural) {
      if (!pages.has(id)) {
        unset(id);
        paths.delete(id);
        for (const child of children.get(id) ?? []) roots.add(child.id);
      } else roots.add(id);
    }
    for (const id of roots) {
      const page = pages.get(id)!;
      // Out of the tree (under a missing page, or in a loop): no path for it or its pages.
      if (!inTree(pages, id)) place(page, undefined);
      // Only the topmost of the pages to place: the others are placed under it.
      else if (!hasAncestorIn(pages, id, roots)) place(page, this.placeOf(pages, paths, page));
    }
    for (const key of copiedGroups) if (keyGroups.get(key)!.size === 0) keyGroups.delete(key);

    // Each key changed goes to the first of its pages in reading order, as when built.
    const byPath = CowMap.of(this.byPath);
    for (const key of touchedKeys) {
      const ids = keyGroups.get(key);
      let first: string | undefined;
      for (const id of ids ?? [])
        if (first === undefined || readsBefore(pages, children, id, first)) first = id;
      if (first === undefined) byPath.delete(key);
      else byPath.set(key, first);
    }
    return new PageIndex(next, children, paths, byPath, keyGroups);
  }

  /** The path a page gets under its parent, whose path is known (undefined: out of the tree). */
  private placeOf(
    pages: ReadonlyMap<string, PageNode>,
    paths: ReadonlyMap<string, string>,
    page: PageNode,
  ): string | undefined {
    if (page.parent === null) return pathIn('', page);
    const parent = pages.get(page.parent);
    const parentPath = paths.get(page.parent);
    if (!parent || parentPath === undefined) return undefined;
    return pathIn(parent.type === 'group' ? prefixOf(parent, parentPath) : parentPath, page);
  }

  private keyGroupsBuilt(): ReadonlyMap<string, ReadonlySet<string>> {
    if (!this.keyGroups) {
      const groups = new Map<string, Set<string>>();
      for (const [id, path] of this.paths) {
        const key = keyOf(this.content.pages.get(id)!, path);
        if (key === undefined) continue;
        const set = groups.get(key);
        if (set) set.add(id);
        else groups.set(key, new Set([id]));
      }
      this.keyGroups = groups;
    }
    return this.keyGroups;
  }
}

const siblingPositions = new WeakMap<PageNode[], Map<string, number>>();

function pathIn(prefix: string, page: PageNode): string {
  // Joined, not concatenated: a concatenation is kept as a pair of its parts (V8's cons
  // strings), two more objects a path for every collection to mark.
  return page.slug ? (prefix ? [prefix, page.slug].join('/') : page.slug) : prefix;
}

/** The prefix a page's path was made from (its parent's, for a group's pages). */
function prefixOf(page: PageNode, path: string): string {
  if (!page.slug) return path;
  return path === page.slug ? '' : path.slice(0, path.length - page.slug.length - 1);
}

/** The key of `byPath` a page is found under (none for links). */
function keyOf(page: PageNode, path: string): string | undefined {
  if (page.type === 'link') return undefined;
  return `${page.type === 'group' ? 'group:' : ''}${path}`;
}

/** Whether a page's parents lead up to the top level. */
function inTree(pages: ReadonlyMap<string, PageNode>, id: string): boolean {
  const seen = new Set<string>();
  for (let at: string | null = id; at !== null; at = pages.get(at)!.parent) {
    if (seen.has(at) || !pages.has(at)) return false;
    seen.add(at);
  }
  return true;
}

/** Whether one of the parents of a page in the tree is in `set`. */
function hasAncestorIn(pages: ReadonlyMap<string, PageNode>, id: string, set: ReadonlySet<string>): boolean {
  for (let parent = pages.get(id)!.parent; parent !== null; parent = pages.get(parent)!.parent)
    if (set.has(parent)) return true;
  return false;
}

/** Whether page `a` comes before page `b` in reading order (both in the tree). */
function readsBefore(
  pages: ReadonlyMap<string, PageNode>,
  children: ReadonlyMap<string | null, PageNode[]>,
  a: string,
  b: string,
): boolean {
  const chain = (id: string): string[] => {
    const out: string[] = [];
    for (let at: string | null = id; at !== null; at = pages.get(at)?.parent ?? null) out.push(at);
    return out.reverse();
  };
  const ca = chain(a);
  const cb = chain(b);
  let i = 0;
  while (i < ca.length && i < cb.length && ca[i] === cb[i]) i++;
  if (i === ca.length) return true;
  if (i === cb.length) return false;
  const list = children.get(i === 0 ? null : ca[i - 1]!) ?? [];
  return list.findIndex((p) => p.id === ca[i]) < list.findIndex((p) => p.id === cb[i]);
}
