import type { PageIndex } from '../areas/content/page-index.js';
import type { PageNode } from '../content/tree.js';
import type { ReferencePage } from '../openapi/reference-pages.js';
import { type ComputedReference, referenceHref } from './api-reference.js';
import type { TreeItem } from './render/model.js';
import { MAX_TREE_DEPTH } from './render/navigation-html.js';
import { pageHref } from './site-frame.js';

/**
 * The page tree of a site space, as the sidebar draws it. A page of a large space cannot carry
 * the whole tree (2,000 pages are ~480 KB of HTML, on every page): it carries a trimmed tree,
 * and the whole tree is served once per revision as a fragment of its own (`~tree/…`, see
 * tree-fragment.ts) that the site's script swaps in when the visitor opens a closed branch.
 *
 * The trimmed tree holds the top level, the branches on the way to the current page open
 * (their children listed), group headings with their pages, and every other branch closed: its
 * title links to its page (where that branch is open), nothing is sent under it. Without
 * script every page stays one link away.
 *
 * Bound. One level may be huge (2,000 pages side by side), so a list shows a window of its
 * entries around the page on the path, with an "N more pages" entry on each cut side linking to
 * the first page past the window (whose own page shows the window around it: without script
 * the visitor browses on, a window at a time). Budgets are in bytes, estimated per list from
 * its first entry (row markup, title, URL: deep pages have long URLs): the lists on the current
 * page's path share PATH_BYTES, with one window size for all of them, the largest that fits
 * (short lists leave what they do not use to long ones), at least one entry each; the lists
 * of groups off the path (headings with their pages) share GROUP_BYTES in reading order, and
 * a group past it shows its heading and its "N more pages" entry. So the tree adds at most
 * ~40 KB to a page whatever the shape of the tree (the bench's 2,000-page space: ~12 KB);
 * only titles far longer than a line could take it past that, and they are the authors' own.
 *
 * A small tree (up to INLINE_LIMIT entries in all) is sent whole, as before: it weighs less
 * than a round trip is worth, and its branches open at once.
 */

/** A tree with at most this many entries is sent whole in every page (~10-15 KB). */
export const INLINE_LIMIT = 50;
/** Bytes shared by the lists on the current page's path. */
const PATH_BYTES = 24_000;
/** Bytes shared by the lists of the groups off the path. */
const GROUP_BYTES = 10_000;
/** The markup of an entry without its title and URL (`<li …><div …><a href=""><span>…`). */
const ENTRY_BYTES = 100;

/** What the tree is drawn from: one revision's pages as one visitor may see them. */
export interface TreeSource {
  index: PageIndex;
  spaceRoot: string;
  /** The space's first document, whose URL is the space's root. */
  first: PageNode | undefined;
  /** Whether the visitor may see a page (its adaptive condition). */
  shows: (page: PageNode) => boolean;
  /** Computed pages whose specification is processed. */
  references: Map<string, ComputedReference>;
}

/** One entry of a level: a page, or a page of a computed reference standing in its entry's place. */
interface Entry {
  page: PageNode;
  reference?: { reference: ComputedReference; page: ReferencePage };
}

/** Where the visitor is: the page, and the reference page when it is a computed one. */
export interface TreePosition {
  page: PageNode | undefined;
  referenceSlug?: string | undefined;
}

/** The whole tree, nothing current and every branch closed: the fragment every page shares. */
export function wholeTree(source: TreeSource): TreeItem[] {
  return new TreeBuilder(source, { page: undefined }).whole(null, 0);
}

/**
 * The tree a page sends: the whole tree with the current page's branch open when it is small,
 * else the trimmed tree (`trimmed: true`; the page then names the fragment's URL).
 */
export function sidebarTree(
  source: TreeSource,
  position: TreePosition,
): { items: TreeItem[]; trimmed: boolean } {
  const builder = new TreeBuilder(source, position);
  if (builder.countUpTo(null, 0, INLINE_LIMIT + 1) <= INLINE_LIMIT)
    return { items: builder.whole(null, 0), trimmed: false };
  return { items: builder.trimmed(), trimmed: true };
}

class TreeBuilder {
  /** The current page and the pages above it. */
  private readonly path = new Set<string>();
  private readonly entries = new Map<string | null, Entry[]>();
  private groupBytes = GROUP_BYTES;

  constructor(
    private readonly source: TreeSource,
    private readonly position: TreePosition,
  ) {
    const { pages } = source.index.content;
    for (let p = position.page, guard = 0; p && guard < 1000; guard++) {
      this.path.add(p.id);
      p = p.parent ? pages.get(p.parent) : undefined;
    }
  }

  /** The entries of a level the visitor may see, computed references expanded. */
  private entriesOf(parent: string | null): Entry[] {
    let list = this.entries.get(parent);
    if (list) return list;
    list = [];
    for (const page of this.source.index.childrenOf(parent)) {
      if (page.hidden || !this.source.shows(page)) continue;
      if (page.type !== 'computed') list.push({ page });
      // A reference stands in its entry's place, its pages side by side as GitBook lists
      // them; one whose specification is not processed yet has nothing to show.
      else
        for (const referencePage of this.source.references.get(page.id)?.pages ?? [])
          list.push({
            page,
            reference: { reference: this.source.references.get(page.id)!, page: referencePage },
          });
    }
    this.entries.set(parent, list);
    return list;
  }

  /**
   * Whether a level has an entry the visitor may see, without listing it: a closed branch only
   * needs to know (a window of 100 branches of 100 pages each listed 10,000 entries to draw 100).
   */
  private hasEntries(parent: string | null): boolean {
    const listed = this.entries.get(parent);
    if (listed) return listed.length > 0;
    return this.source.index
      .childrenOf(parent)
      .some(
        (page) =>
          !page.hidden &&
          this.source.shows(page) &&
          (page.type !== 'computed' || (this.source.references.get(page.id)?.pages.length ?? 0) > 0),
      );
  }

  /** Entries of the whole tree (drawn depth only), counting no further than `limit`. */
  countUpTo(parent: string | null, depth: number, limit: number): number {
    let n = 0;
    for (const entry of this.entriesOf(parent)) {
      n += 1;
      if (n >= limit) return n;
      if (!entry.reference && depth < MAX_TREE_DEPTH)
        n += this.countUpTo(entry.page.id, depth + 1, limit - n);
      if (n >= limit) return n;
    }
    return n;
  }

  /** Every entry below `parent`, the branches on the path open. */
  whole(parent: string | null, depth: number): TreeItem[] {
    return this.entriesOf(parent).map((entry) => {
      const item = this.item(entry);
      if (!entry.reference && depth < MAX_TREE_DEPTH) item.children = this.whole(entry.page.id, depth + 1);
      return item;
    });
  }

  trimmed(): TreeItem[] {
    return this.trimmedList(null, 0, this.pathWindow());
  }

  /**
   * How many entries each list on the path shows: the most that keeps them within PATH_BYTES
   * together (short lists leave what they do not use to the long ones), at least one.
   */
  private pathWindow(): number {
    // The lists on the path: the top level, and the children of the current page and of
    // each page above it (down to the drawn depth).
    const parents: Array<string | null> = [null];
    const above: PageNode[] = [];
    const { pages } = this.source.index.content;
    for (let p = this.position.page; p && above.length < 1000; p = p.parent ? pages.get(p.parent) : undefined)
      above.unshift(p);
    for (const page of above.slice(0, MAX_TREE_DEPTH)) if (page.type !== 'computed') parents.push(page.id);
    const lists = parents.map((parent) => ({
      size: this.entriesOf(parent).length,
      cost: this.costOf(parent),
    }));
    // A cut list has up to two "more" entries.
    const bytes = (window: number) =>
      lists.reduce((n, l) => n + (Math.min(l.size, window) + (l.size > window ? 2 : 0)) * l.cost, 0);
    let low = 1;
    let high = Math.max(1, ...lists.map((l) => l.size));
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (bytes(mid) <= PATH_BYTES) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /**
   * Estimated bytes of an entry of a list, from its first entry. A group entry counts twice:
   * its heading, and the first entry under it (at least an "N more pages" one).
   */
  private costOf(parent: string | null): number {
    const entries = this.entriesOf(parent);
    const first = entries[0];
    if (!first) return 0;
    const cost = ENTRY_BYTES + (this.item(first).href?.length ?? 0) + first.page.title.length;
    return entries.some((e) => e.page.type === 'group') ? 2 * cost : cost;
  }

  private trimmedList(parent: string | null, depth: number, window: number): TreeItem[] {
    const entries = this.entriesOf(parent);
    const anchor = entries.findIndex((e) => this.path.has(e.page.id) && this.isCurrentOrAbove(e));
    const onPath = parent === null || this.path.has(parent);
    let limit = window;
    if (!onPath) {
      const cost = this.costOf(parent);
      limit = Math.min(window, Math.floor(this.groupBytes / cost));
      this.groupBytes -= Math.min(limit, entries.length) * cost;
    }
    // A "1 more" entry weighs what the entry would: show it instead.
    if (entries.length <= limit + 1) limit = entries.length;
    const from =
      anchor < 0 ? 0 : Math.max(0, Math.min(anchor - Math.floor((limit - 1) / 2), entries.length - limit));
    const to = Math.min(entries.length, from + limit);
    const out: TreeItem[] = [];
    if (from > 0) out.push(this.more(entries.slice(0, from).reverse(), from));
    for (const entry of entries.slice(from, to)) out.push(this.trimmedItem(entry, depth, window));
    if (to < entries.length) out.push(this.more(entries.slice(to), entries.length - to));
    return out;
  }

  private trimmedItem(entry: Entry, depth: number, window: number): TreeItem {
    const item = this.item(entry);
    if (entry.reference || depth >= MAX_TREE_DEPTH) return item;
    const { page } = entry;
    // Groups are headings without a page of their own: their pages are always listed.
    if (page.type === 'group' || this.path.has(page.id))
      item.children = this.trimmedList(page.id, depth + 1, window);
    else if (this.hasEntries(page.id)) item.closed = true;
    return item;
  }

  /** Whether the entry is the current page or above it (a computed entry: its current page). */
  private isCurrentOrAbove(entry: Entry): boolean {
    if (!entry.reference) return true;
    return entry.reference.page.slug === this.position.referenceSlug;
  }

  /** The "N more pages" entry of a cut list, linking to the nearest page past the cut. */
  private more(hidden: Entry[], count: number): TreeItem {
    let href: string | undefined;
    for (const entry of hidden.slice(0, 20)) {
      href = this.documentHref(entry);
      if (href) break;
    }
    return {
      kind: 'more',
      title: `${count} more ${count === 1 ? 'page' : 'pages'}`,
      href,
      active: false,
      open: false,
      children: [],
    };
  }

  /** The URL of an entry's page, or of a group's first page; none for links out. */
  private documentHref(entry: Entry): string | undefined {
    if (entry.reference) return this.item(entry).href;
    if (entry.page.type === 'document')
      return pageHref(this.source.spaceRoot, this.source.index, entry.page, this.source.first);
    if (entry.page.type === 'group') {
      const inside = this.entriesOf(entry.page.id).find((e) => e.reference || e.page.type === 'document');
      return inside ? this.documentHref(inside) : undefined;
    }
    return undefined;
  }

  /** An entry without its children. */
  private item(entry: Entry): TreeItem {
    const { index, spaceRoot, first } = this.source;
    const { page } = entry;
    if (entry.reference)
      return {
        kind: 'document',
        title: entry.reference.page.title,
        href: referenceHref(spaceRoot, index, entry.reference.reference, entry.reference.page),
        active:
          page.id === this.position.page?.id && entry.reference.page.slug === this.position.referenceSlug,
        open: false,
        children: [],
      };
    const item: TreeItem = {
      kind: page.type === 'group' ? 'group' : page.type === 'link' ? 'link' : 'document',
      title: page.linkTitle ?? page.title,
      emoji: page.emoji,
      active: page.id === this.position.page?.id,
      open: this.path.has(page.id),
      children: [],
    };
    if (page.type === 'document') item.href = pageHref(spaceRoot, index, page, first);
    else if (page.type === 'link' && page.href) item.href = page.href;
    else if (
      page.type === 'link' &&
      page.target?.kind === 'anchor' &&
      page.target.page &&
      !page.target.space
    ) {
      const target = index.content.pages.get(page.target.page);
      if (target?.type === 'document')
        item.href = `${pageHref(spaceRoot, index, target, first)}#${encodeURIComponent(page.target.anchor)}`;
    }
    return item;
  }
}
