import { byOrder, type PageNode, type RevisionContent } from '../../content/tree.js';

/**
 * Reading aids for one revision's pages, computed once per content and kept while it is: the
 * pages under each parent in order, and each page's path both ways.
 */
export class PageIndex {
  private readonly children = new Map<string | null, PageNode[]>();
  private readonly paths = new Map<string, string>();
  private readonly byPath = new Map<string, string>();

  private constructor(readonly content: RevisionContent) {
    for (const page of content.pages.values()) {
      const list = this.children.get(page.parent) ?? [];
      list.push(page);
      this.children.set(page.parent, list);
    }
    for (const list of this.children.values()) {
      list.sort(byOrder);
    }
    const walk = (parent: string | null, prefix: string) => {
      for (const page of this.children.get(parent) ?? []) {
        const path = page.slug ? (prefix ? `${prefix}/${page.slug}` : page.slug) : prefix;
        this.paths.set(page.id, path);
        // A group heads a part of the table of contents; its pages do not carry its slug.
        const childPrefix = page.type === 'group' ? prefix : path;
        if (page.type !== 'link' && !this.byPath.has(`${page.type === 'group' ? 'group:' : ''}${path}`)) {
          this.byPath.set(`${page.type === 'group' ? 'group:' : ''}${path}`, page.id);
        }
        walk(page.id, childPrefix);
      }
    };
    walk(null, '');
  }

  private static readonly cache = new WeakMap<RevisionContent, PageIndex>();

  static of(content: RevisionContent): PageIndex {
    let index = PageIndex.cache.get(content);
    if (!index) {
      index = new PageIndex(content);
      PageIndex.cache.set(content, index);
    }
    return index;
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
}
