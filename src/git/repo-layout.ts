import { posix } from 'node:path';
import { derivationOf } from '../content/page-indexes.js';
import type { PageNode, RevisionContent } from '../content/tree.js';
import { pagePaths } from './content-to-repo.js';
import { ASSETS_DIR } from './gitbook-yaml.js';

/**
 * Where each page, file and reusable content of a revision lives in GitBook's repository
 * layout, relative to the content root: the file it was imported from, or the one export would
 * give it. Links GitBook writes are relative to these files (`../publish/custom-domain.md`,
 * `../../.gitbook/assets/a.png`, `.gitbook/includes/x.md`), so they resolve here, for imported
 * pages and pages written through the API alike.
 */
export class RepoLayout {
  private readonly pageByPath: Map<string, string> = new Map();
  private readonly fileByPath: Map<string, string> = new Map();
  private readonly reusableByPath: Map<string, string> = new Map();
  private readonly reusablePaths: Map<string, string> = new Map();
  private readonly lower: Map<string, { kind: 'page' | 'file' | 'reusable'; id: string }> = new Map();
  readonly paths: ReadonlyMap<string, string>;

  private constructor(
    readonly content: RevisionContent,
    /** A layout of a content laid out the same (only page fields files do not depend on differ). */
    same?: RepoLayout,
  ) {
    if (same) {
      this.pageByPath = same.pageByPath;
      this.fileByPath = same.fileByPath;
      this.reusableByPath = same.reusableByPath;
      this.reusablePaths = same.reusablePaths;
      this.lower = same.lower;
      this.paths = same.paths;
      return;
    }
    const root = content.repository?.root ?? '';
    const inRoot = (gitPath: string | undefined): string | undefined => {
      if (!gitPath) return undefined;
      if (!root) return gitPath;
      return gitPath.startsWith(`${root}/`) ? gitPath.slice(root.length + 1) : undefined;
    };
    const paths = pagePaths(content, root);
    this.paths = paths;
    for (const [id, path] of paths) this.add(this.pageByPath, 'page', path, id);
    for (const file of content.files.values())
      this.add(this.fileByPath, 'file', inRoot(file.git?.path) ?? `${ASSETS_DIR}/${file.name}`, file.id);
    for (const reusable of content.reusableContents.values()) {
      const path = inRoot(reusable.git?.path);
      if (!path) continue;
      this.add(this.reusableByPath, 'reusable', path, reusable.id);
      this.reusablePaths.set(reusable.id, path);
    }
  }

  private add(map: Map<string, string>, kind: 'page' | 'file' | 'reusable', path: string, id: string): void {
    if (!map.has(path)) map.set(path, id);
    const key = path.toLowerCase();
    if (!this.lower.has(key)) this.lower.set(key, { kind, id });
  }

  private static readonly cache = new WeakMap<RevisionContent, RepoLayout>();

  static of(content: RevisionContent): RepoLayout {
    return RepoLayout.ofDepth(content, 0);
  }

  private static ofDepth(content: RevisionContent, depth: number): RepoLayout {
    let layout = RepoLayout.cache.get(content);
    if (!layout) {
      // A content made from another by changes that move no file keeps the other's layout.
      const made = derivationOf(content);
      const base =
        made &&
        (RepoLayout.cache.has(made.base) || depth < 16) &&
        RepoLayout.keepsLayout(made.base, content, made.derivation)
          ? RepoLayout.ofDepth(made.base, depth + 1)
          : undefined;
      layout = new RepoLayout(content, base);
      RepoLayout.cache.set(content, layout);
    }
    return layout;
  }

  /**
   * Whether `next`, made from `base` by `changes`, lays every page, file and reusable content
   * out where `base` does: no file or reusable content changed, and no changed page moved,
   * was renamed, added, removed, changed type or changed the file it was imported from (what
   * `pagePaths` reads). A superset of the changed pages is fine.
   */
  static keepsLayout(
    base: RevisionContent,
    next: RevisionContent,
    changes: { pages: Iterable<string>; files: boolean; reusable: boolean },
  ): boolean {
    if (changes.files || changes.reusable) return false;
    if ((base.repository?.root ?? '') !== (next.repository?.root ?? '')) return false;
    for (const id of changes.pages) {
      const before = base.pages.get(id);
      const after = next.pages.get(id);
      if (before === after) continue;
      if (
        !before ||
        !after ||
        before.parent !== after.parent ||
        before.slug !== after.slug ||
        before.type !== after.type ||
        before.order !== after.order ||
        before.git?.path !== after.git?.path
      )
        return false;
    }
    return true;
  }

  pathOf(pageId: string): string | undefined {
    return this.paths.get(pageId);
  }

  reusablePath(id: string): string | undefined {
    return this.reusablePaths.get(id);
  }

  /**
   * What a path relative to the content root names: a page (`page.md`, `folder/`, `folder`,
   * `folder/README.md`), a file, or a reusable content. Exact spelling first, then ignoring case
   * (repositories made on case-insensitive disks link with the wrong case).
   */
  find(path: string): { kind: 'page' | 'file' | 'reusable'; id: string } | undefined {
    const clean = path.replace(/^\/+/, '');
    const folder = clean.replace(/\/+$/, '');
    const candidates =
      clean.endsWith('/') || clean === ''
        ? [`${folder ? `${folder}/` : ''}README.md`]
        : [clean, `${clean}.md`, `${clean}/README.md`];
    for (const candidate of candidates) {
      const page = this.pageByPath.get(candidate);
      if (page) return { kind: 'page', id: page };
      const file = this.fileByPath.get(candidate);
      if (file) return { kind: 'file', id: file };
      const reusable = this.reusableByPath.get(candidate);
      if (reusable) return { kind: 'reusable', id: reusable };
    }
    for (const candidate of candidates) {
      const found = this.lower.get(candidate.toLowerCase());
      if (found) return found;
    }
    return undefined;
  }

  /** A link's path as written in `from` (a page or reusable content's file), from the content root. */
  static join(fromPath: string | undefined, href: string): string | undefined {
    if (href.startsWith('/')) return posix.normalize(href).replace(/^\/+/, '');
    const dir = fromPath ? posix.dirname(fromPath) : '.';
    const joined = posix.normalize(posix.join(dir, href));
    if (joined.startsWith('../') || joined === '..') return undefined;
    return joined === '.' ? '' : `${joined}${href.endsWith('/') && !joined.endsWith('/') ? '/' : ''}`;
  }

  /** The path of `to` relative to the file at `fromPath`, as GitBook writes links. */
  static relative(fromPath: string | undefined, to: string): string {
    const dir = fromPath ? posix.dirname(fromPath) : '.';
    const relative = posix.relative(dir, to);
    return relative === '' ? posix.basename(to) : relative;
  }
}

export type { PageNode };
