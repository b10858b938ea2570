import { posix } from 'node:path';
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
  private readonly pageByPath = new Map<string, string>();
  private readonly fileByPath = new Map<string, string>();
  private readonly reusableByPath = new Map<string, string>();
  private readonly reusablePaths = new Map<string, string>();
  private readonly lower = new Map<string, { kind: 'page' | 'file' | 'reusable'; id: string }>();
  readonly paths: ReadonlyMap<string, string>;

  private constructor(readonly content: RevisionContent) {
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
    let layout = RepoLayout.cache.get(content);
    if (!layout) {
      layout = new RepoLayout(content);
      RepoLayout.cache.set(content, layout);
    }
    return layout;
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
