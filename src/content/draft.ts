import { invalidField } from '../errors.js';
import { newId } from '../ids.js';
import { CowMap } from './cow-map.js';
import { type Children, childrenOf, updateChildren } from './page-indexes.js';
import { pageSlug } from './slugs.js';
import {
  byOrder,
  DEFAULT_LAYOUT,
  type FileNode,
  type PageNode,
  pathOf,
  type RevisionContent,
} from './tree.js';

/**
 * A revision content being changed: copies of the page and file maps that operations edit in
 * place (copy-on-write, so a write costs what it changes, not the size of the space), and the
 * set of what changed so only that is written. Every refusal is a 400 naming the
 * change (`field`) and what is wrong; the caller's transaction then writes nothing.
 */

export interface PageFields {
  title?: string | undefined;
  slug?: string | undefined;
  emoji?: string | undefined;
  icon?: string | undefined;
  description?: string | undefined;
  hidden?: boolean | undefined;
  noIndex?: boolean | undefined;
  noRobotsIndex?: boolean | undefined;
}

export interface Placement {
  /** New parent page (null: the top level; undefined: where it is). */
  into?: string | null | undefined;
  /** Position among the new siblings (0 first; beyond the end means last). */
  at?: number | undefined;
}

const SLUG = /^[^\s/?#]{1,100}$/u;

export class Draft {
  readonly pages: CowMap<string, PageNode>;
  readonly files: CowMap<string, FileNode>;
  readonly changedPages = new Set<string>();
  readonly changedFiles = new Set<string>();
  /** Bodies to store: page id -> markdown (null empties the page). */
  readonly bodies = new Map<string, string | null>();
  /** Set when a change may have made two paths equal. */
  private placementChanged = false;
  /**
   * Page ids under each parent, made on first use and kept up to date by every change: from the
   * base's index when `baseChildren` gives it (its sets shared until changed here), else from
   * a walk over every page.
   */
  private kids: CowMap<string | null, ReadonlySet<string>> | undefined;
  /** The parents whose set in `kids` is this draft's own copy, free to change. */
  private readonly ownKids = new Set<string | null>();
  /**
   * The slugs in use in each namespace asked about (see `namespace`), with how many pages use
   * each; and the highest order under each parent asked about. Made on first use and kept up to
   * date by every change (`leave`, `enter`): a write inserting thousands of pages under one
   * parent listed and sorted its pages at every insert (5,000 inserts: 1.9 of the write's 2.3 s,
   * during which the server answered nothing).
   */
  private readonly slugsIn = new Map<string | null, Map<string, number>>();
  private readonly lastOrder = new Map<string | null, number>();

  constructor(
    readonly base: RevisionContent,
    private readonly now: string,
    private readonly baseChildren?: () => Children,
  ) {
    this.pages = CowMap.of(base.pages);
    this.files = CowMap.of(base.files);
  }

  get content(): RevisionContent {
    return { ...this.base, pages: this.pages, files: this.files };
  }

  page(id: string, field: string): PageNode {
    const page = this.pages.get(id);
    if (!page) throw invalidField(field, `"${id}" is not a page of this content`);
    return page;
  }

  insertPage(fields: PageFields, placement: Placement, markdown: string, field: string): PageNode {
    const parent = this.parentFor(placement.into ?? null, undefined, `${field}.into`);
    const title = fields.title?.trim() || firstHeading(markdown) || 'Untitled';
    const slug =
      fields.slug !== undefined
        ? this.checkSlug(fields.slug, `${field}.slug`)
        : this.freeSlug(parent, pageSlug(title));
    const page: PageNode = {
      id: newId(),
      type: 'document',
      parent,
      order: this.orderAt(parent, placement.at, undefined),
      title,
      slug,
      layout: DEFAULT_LAYOUT,
      body: null,
      createdAt: this.now,
      updatedAt: this.now,
      ...definedFields(fields, ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex']),
    };
    this.set(page);
    this.bodies.set(page.id, markdown.length > 0 ? markdown : null);
    this.placementChanged = true;
    return page;
  }

  updatePage(
    id: string,
    fields: PageFields,
    placement: Placement,
    markdown: string | undefined,
    field: string,
  ): PageNode {
    const current = this.page(id, `${field}.page`);
    const next: PageNode = {
      ...current,
      ...definedFields(fields, ['emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex']),
      updatedAt: this.now,
    };
    if (fields.title !== undefined) {
      if (!fields.title.trim()) throw invalidField(`${field}.title`, 'must not be empty');
      next.title = fields.title.trim();
    }
    if (fields.slug !== undefined && fields.slug !== current.slug) {
      next.slug = this.checkSlug(fields.slug, `${field}.slug`);
      this.placementChanged = true;
    }
    if (placement.into !== undefined || placement.at !== undefined) {
      const parent =
        placement.into === undefined ? current.parent : this.parentFor(placement.into, id, `${field}.into`);
      if (current.type === 'group' && parent !== null)
        throw invalidField(`${field}.into`, 'groups stay at the top level');
      next.parent = parent;
      next.order = this.orderAt(parent, placement.at, id);
      this.placementChanged = true;
    }
    this.set(next);
    if (markdown !== undefined) {
      if (current.type !== 'document')
        throw invalidField(`${field}.document`, `a ${current.type} page has no content`);
      this.bodies.set(id, markdown.length > 0 ? markdown : null);
    }
    return next;
  }

  /** Deletes the page and every page below it; answers the deleted ids. */
  deletePage(id: string, field: string): string[] {
    this.page(id, `${field}.page`);
    const doomed = [id];
    for (let i = 0; i < doomed.length; i++) doomed.push(...this.childIds(doomed[i]!));
    // Out of their namespaces while their parents are still there to say which those are.
    for (const pageId of doomed) this.leave(this.pages.get(pageId)!);
    for (const pageId of doomed) {
      this.kidsOf(this.pages.get(pageId)!.parent).delete(pageId);
      this.pages.delete(pageId);
      this.bodies.delete(pageId);
      this.changedPages.add(pageId);
    }
    return doomed;
  }

  /** Puts a page back as it is in `source` (or removes it when `source` does not have it). */
  revertPage(id: string, source: RevisionContent, field: string): 'updated' | 'deleted' {
    const old = source.pages.get(id);
    if (!old) {
      if (!this.pages.has(id)) throw invalidField(`${field}.page`, `"${id}" is in neither revision`);
      this.deletePage(id, field);
      return 'deleted';
    }
    const parent = old.parent && this.pages.has(old.parent) ? old.parent : null;
    this.set({ ...old, parent, updatedAt: this.now });
    this.bodies.delete(id);
    this.placementChanged = true;
    return 'updated';
  }

  addFile(file: FileNode): void {
    this.files.set(file.id, file);
    this.changedFiles.add(file.id);
  }

  /**
   * Refuses the result if a changed page now shares its path with another page (checked once,
   * after every change). Paths can only meet within one namespace (see `namespace`), so only
   * the changed pages' namespaces are looked at, never the whole space.
   */
  checkPaths(field: string): void {
    if (!this.placementChanged) return;
    const byOwner = new Map<string | null, Map<string, number>>();
    for (const id of this.changedPages) {
      const page = this.pages.get(id);
      const key = page && pathKey(page);
      if (!page || !key) continue;
      const owner = this.namespaceOwner(page.parent);
      let taken = byOwner.get(owner);
      if (!taken) {
        taken = new Map();
        for (const member of this.namespace(owner)) {
          const memberKey = pathKey(member);
          if (memberKey) taken.set(memberKey, (taken.get(memberKey) ?? 0) + 1);
        }
        byOwner.set(owner, taken);
      }
      if ((taken.get(key) ?? 0) > 1)
        throw invalidField(
          field,
          `two pages would have the path "${pathOf(this.content, id)}"; give one another slug`,
        );
    }
  }

  /** The nearest ancestor that adds a path segment (null: the top level). */
  private namespaceOwner(parent: string | null): string | null {
    let owner = parent;
    while (owner !== null && this.pages.get(owner)?.type === 'group') owner = this.pages.get(owner)!.parent;
    return owner;
  }

  /**
   * The pages whose paths share a prefix with a page placed under `parent`: a group adds no
   * segment, so the pages inside the top-level groups share the top level's namespace.
   */
  private namespace(parent: string | null): PageNode[] {
    const members: PageNode[] = [];
    for (const id of this.childIds(this.namespaceOwner(parent))) {
      const member = this.pages.get(id)!;
      members.push(member);
      if (member.type === 'group')
        for (const child of this.childIds(id)) members.push(this.pages.get(child)!);
    }
    return members;
  }

  /**
   * The namespace whose list has the page (see `namespace`): its parent's, or, below a group, the
   * group's parent's; undefined below a group inside a group, which no list reaches.
   */
  private listedIn(page: PageNode): string | null | undefined {
    if (page.parent === null) return null;
    const parent = this.pages.get(page.parent);
    if (parent?.type !== 'group') return page.parent;
    if (parent.parent === null) return null;
    return this.pages.get(parent.parent)?.type === 'group' ? undefined : parent.parent;
  }

  /** Ids of the pages directly under `parent` (unordered). */
  private childIds(parent: string | null): ReadonlySet<string> {
    if (!this.kids) {
      const base = this.baseChildren?.();
      this.kids = CowMap.of(
        base ? updateChildren(base, this.base.pages, this.pages, this.changedPages) : childrenOf(this.pages),
      );
    }
    return this.kids.get(parent) ?? new Set();
  }

  /** The ids under `parent`, as a set this draft may change. */
  private kidsOf(parent: string | null): Set<string> {
    let set = this.kids!.get(parent) as Set<string> | undefined;
    if (!set || !this.ownKids.has(parent)) {
      set = new Set(set);
      this.kids!.set(parent, set);
      this.ownKids.add(parent);
    }
    return set;
  }

  private set(page: PageNode): void {
    const old = this.pages.get(page.id);
    if (old) this.leave(old);
    // The pages inside a group moving change namespace with it: every namespace is listed again.
    if (old?.type === 'group' && old.parent !== page.parent) this.slugsIn.clear();
    if (this.kids) {
      if (old) this.kidsOf(old.parent).delete(page.id);
      this.kidsOf(page.parent).add(page.id);
    }
    this.pages.set(page.id, page);
    this.changedPages.add(page.id);
    this.enter(page);
  }

  /** A page as it was leaves the slugs and orders kept (`slugsIn`, `lastOrder`). */
  private leave(page: PageNode): void {
    const listed = this.listedIn(page);
    const slugs = listed === undefined ? undefined : this.slugsIn.get(listed);
    const count = slugs?.get(page.slug);
    if (count !== undefined) {
      if (count > 1) slugs!.set(page.slug, count - 1);
      else slugs!.delete(page.slug);
    }
    // The highest order may have left: it is looked for again when next asked.
    if (this.lastOrder.get(page.parent) === page.order) this.lastOrder.delete(page.parent);
  }

  /** A page as it now is enters the slugs and orders kept. */
  private enter(page: PageNode): void {
    const listed = this.listedIn(page);
    const slugs = listed === undefined ? undefined : this.slugsIn.get(listed);
    slugs?.set(page.slug, (slugs.get(page.slug) ?? 0) + 1);
    const last = this.lastOrder.get(page.parent);
    if (last !== undefined && page.order > last) this.lastOrder.set(page.parent, page.order);
  }

  private checkSlug(slug: string, field: string): string {
    if (!SLUG.test(slug))
      throw invalidField(field, 'must be 1 to 100 characters without spaces, "/", "?" or "#"');
    return slug;
  }

  /** A slug not used by the pages that will share the parent's path. */
  private freeSlug(parent: string | null, wanted: string): string {
    const owner = this.namespaceOwner(parent);
    let taken = this.slugsIn.get(owner);
    if (!taken) {
      taken = new Map();
      for (const page of this.namespace(owner)) taken.set(page.slug, (taken.get(page.slug) ?? 0) + 1);
      this.slugsIn.set(owner, taken);
    }
    if (!taken.has(wanted)) return wanted;
    for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
  }

  /** A parent for a page: an existing document or group that is not the page itself or below it. */
  private parentFor(into: string | null, moving: string | undefined, field: string): string | null {
    if (into === null) return null;
    const parent = this.page(into, field);
    if (parent.type === 'link') throw invalidField(field, 'link pages cannot hold pages');
    for (let p: PageNode | undefined = parent; p; p = p.parent ? this.pages.get(p.parent) : undefined) {
      if (p.id === moving)
        throw invalidField(field, 'cannot put a page inside itself or one of its own pages');
    }
    return into;
  }

  /** An order placing a page at index `at` among its new siblings (the end by default). */
  private orderAt(parent: string | null, at: number | undefined, moving: string | undefined): number {
    if (at === undefined) {
      // At the end: after the highest order, kept unless the page moving holds it.
      let last = this.lastOrder.get(parent);
      if (last === undefined) {
        last = Number.NEGATIVE_INFINITY;
        for (const id of this.childIds(parent)) last = Math.max(last, this.pages.get(id)!.order);
        this.lastOrder.set(parent, last);
      }
      const holder = moving === undefined ? undefined : this.pages.get(moving);
      if (holder?.parent !== parent || holder.order !== last)
        return last === Number.NEGATIVE_INFINITY ? 1 : last + 1;
    }
    const siblings: PageNode[] = [];
    for (const id of this.childIds(parent)) if (id !== moving) siblings.push(this.pages.get(id)!);
    siblings.sort(byOrder);
    const index = at === undefined ? siblings.length : Math.min(at, siblings.length);
    const before = siblings[index - 1]?.order;
    const after = siblings[index]?.order;
    if (before === undefined) return after === undefined ? 1 : after - 1;
    if (after === undefined) return before + 1;
    if (after - before > 1e-6) return (before + after) / 2;
    // No room left between them: renumber the siblings (they are then written too).
    siblings.forEach((sibling, i) => {
      this.set({ ...sibling, order: i < index ? i : i + 1 });
    });
    return index;
  }
}

function firstHeading(markdown: string): string | undefined {
  return /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1]?.trim();
}

function definedFields<K extends keyof PageFields>(
  fields: PageFields,
  keys: K[],
): Partial<Pick<PageFields, K>> {
  const out: Partial<Pick<PageFields, K>> = {};
  for (const key of keys) if (fields[key] !== undefined) out[key] = fields[key];
  return out;
}

/** What two pages must not share within a namespace: groups and other pages have separate paths. */
function pathKey(page: PageNode): string | undefined {
  if (page.type === 'link') return undefined;
  return page.type === 'group' ? `group:${page.slug}` : page.slug;
}
