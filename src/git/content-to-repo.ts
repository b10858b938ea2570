import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { pageSlug } from '../content/slugs.js';
import { byOrder, type FileNode, type PageNode, type RevisionContent } from '../content/tree.js';
import { parsePageFile, writePageFile } from './front-matter.js';
import { ASSETS_DIR, DEFAULT_CONFIG, type GitbookConfig, writeGitbookConfig } from './gitbook-yaml.js';
import { type SummaryEntry, type SummaryGroup, writeSummary } from './summary.js';

/**
 * A revision -> the files of a repository in GitBook's format, relative to the project
 * directory. Pages and files keep the paths they were imported from (`git.path`); new pages get
 * one from their place in the tree (`folder/README.md` when they hold pages, `folder/slug.md`
 * otherwise), new files go to `.gitbook/assets/`. What the import kept of the repository comes
 * back as it was: a page's front matter and title line while its fields are unchanged,
 * SUMMARY.md while the page tree is unchanged, and the `.gitbook/*.yaml` files. Pure: bodies,
 * kept texts and file bytes are handed in.
 */

export interface ExportInput {
  content: RevisionContent;
  /** Markdown of each document page and reusable content with a body, by id. */
  bodies: ReadonlyMap<string, string>;
  /** Project directory prefix of git paths, '' for the top. */
  projectDir: string;
  /** The `.gitbook.yaml` found in the repository, when there is one (kept as it is). */
  config?: GitbookConfig;
  writeConfig: boolean;
  /** Texts of the content's repository layout (SUMMARY.md, kept files), by hash. */
  texts?: ReadonlyMap<string, string>;
}

export interface ExportedFile {
  path: string;
  text?: string;
  /** Page files: the id of the page written there. */
  page?: string;
  /** Files: the blob to copy. */
  file?: FileNode;
}

interface SummaryModel {
  groups: SummaryGroup[];
  /** Page id -> its file, relative to the root. */
  pathOfPage: Map<string, string>;
  /** Pages in the order they are listed. */
  listed: PageNode[];
}

type Layout = Pick<ExportInput, 'content' | 'projectDir' | 'config'>;

/**
 * The table of contents the content gives, and the file of each page. Import and export both
 * read it, so a tree exported unchanged gives the very entries it was imported from.
 */
function summaryModel(input: Layout): SummaryModel {
  const { content } = input;
  const config = input.config ?? DEFAULT_CONFIG;
  const children = new Map<string | null, PageNode[]>();
  for (const page of content.pages.values()) {
    const list = children.get(page.parent);
    if (list) list.push(page);
    else children.set(page.parent, [page]);
  }
  for (const list of children.values()) list.sort(byOrder);

  const taken = new Set<string>();
  const claim = (wanted: string): string => {
    let path = wanted;
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = wanted.replace(/(\.md)$/i, `-${n}$1`);
    taken.add(path.toLowerCase());
    return path;
  };
  // Files imported earlier keep their paths: claim them first so new pages go around them.
  const kept = new Map<string, string>();
  for (const page of content.pages.values()) {
    const known = page.type === 'document' ? inRootPath(page.git?.path, input) : undefined;
    if (known && /\.md$/i.test(known) && !taken.has(known.toLowerCase())) {
      taken.add(known.toLowerCase());
      kept.set(page.id, known);
    }
  }
  const firstDocument = (children.get(null) ?? []).find((p) => p.type === 'document');
  if (firstDocument && !kept.has(firstDocument.id) && !taken.has(config.readme.toLowerCase())) {
    taken.add(config.readme.toLowerCase());
    kept.set(firstDocument.id, config.readme);
  }

  const pathOfPage = new Map<string, string>();
  const listed: PageNode[] = [];
  // Paths first: a link to an anchor may come before the page it points into.
  const place = (parent: string | null, folder: string): void => {
    for (const page of children.get(parent) ?? []) {
      if (page.type !== 'document') {
        if (page.type === 'group') place(page.id, page.slug);
        continue;
      }
      const hasChildren = (children.get(page.id)?.length ?? 0) > 0;
      const path =
        kept.get(page.id) ??
        claim(hasChildren ? join(folder, page.slug, 'README.md') : join(folder, `${page.slug}.md`));
      pathOfPage.set(page.id, path);
      const ownFolder = /(^|\/)readme\.md$/i.test(path)
        ? posix.dirname(path) === '.'
          ? folder
          : posix.dirname(path)
        : path.replace(/\.md$/i, '');
      place(page.id, ownFolder === '.' ? '' : ownFolder);
    }
  };
  place(null, '');

  /** The entries of `parent`'s pages (or of `only`, one of them). */
  const entries = (parent: string | null, only?: PageNode): SummaryEntry[] => {
    const list: SummaryEntry[] = [];
    for (const page of only ? [only] : (children.get(parent) ?? [])) {
      if (page.type === 'group') continue;
      if (page.type === 'computed') {
        if (page.computed)
          list.push({ kind: 'computed', title: page.title, source: page.computed, line: 0, children: [] });
        continue;
      }
      if (page.type === 'link') {
        const target = page.target;
        if (target?.kind === 'anchor' && target.page && !target.space) {
          const path = pathOfPage.get(target.page);
          if (path)
            list.push({
              kind: 'page',
              title: page.title,
              path,
              anchor: target.anchor,
              line: 0,
              children: entries(page.id),
            });
          continue;
        }
        const url = page.href ?? (target?.kind === 'url' ? target.url : undefined);
        if (url) list.push({ kind: 'link', title: page.title, url, line: 0, children: [] });
        continue;
      }
      const path = pathOfPage.get(page.id);
      if (!path) continue;
      listed.push(page);
      list.push({
        kind: 'page',
        title: page.title,
        ...(page.linkTitle ? { linkTitle: page.linkTitle } : {}),
        path,
        line: 0,
        children: entries(page.id),
      });
    }
    return list;
  };

  // Runs of top-level pages between groups (after the first run, SUMMARY.md separates them with `***`).
  const groups: SummaryGroup[] = [{ title: null, line: 0, entries: [] }];
  for (const page of children.get(null) ?? []) {
    if (page.type === 'group') {
      groups.push({
        title: page.title,
        ...(page.slug !== pageSlug(page.title) ? { slug: page.slug } : {}),
        line: 0,
        entries: entries(page.id),
      });
      continue;
    }
    let run = groups.at(-1)!;
    if (run.title !== null) {
      run = { title: null, line: 0, entries: [] };
      groups.push(run);
    }
    run.entries.push(...entries(null, page));
  }
  return {
    groups: groups.filter((g, i) => g.title !== null || g.entries.length > 0 || i === 0),
    pathOfPage,
    listed,
  };
}

/** A git path (from the top of the repository) relative to the content root, if it is inside. */
function inRootPath(
  gitPath: string | undefined,
  input: Pick<ExportInput, 'projectDir' | 'config'>,
): string | undefined {
  if (!gitPath) return undefined;
  const config = input.config ?? DEFAULT_CONFIG;
  const prefix = input.projectDir ? `${input.projectDir}/` : '';
  if (!gitPath.startsWith(prefix)) return undefined;
  const inProject = gitPath.slice(prefix.length);
  const rootPrefix = config.root ? `${config.root}/` : '';
  return inProject.startsWith(rootPrefix) ? inProject.slice(rootPrefix.length) : undefined;
}

/** Each document page's file, relative to the content root (`root`: its git path prefix). */
export function pagePaths(content: RevisionContent, root: string): Map<string, string> {
  return summaryModel({ content, projectDir: root, config: DEFAULT_CONFIG }).pathOfPage;
}

/** A digest of the table of contents the content gives: equal digests, equal SUMMARY.md. */
export function summaryDigest(input: Layout): string {
  return createHash('sha256')
    .update(JSON.stringify(summaryModel(input).groups))
    .digest('base64url')
    .slice(0, 32);
}

export function contentToRepo(input: ExportInput): ExportedFile[] {
  const { content } = input;
  const config = input.config ?? DEFAULT_CONFIG;
  const inRoot = (path: string) => (config.root ? `${config.root}/${path}` : path);
  const model = summaryModel(input);
  const out: ExportedFile[] = [];

  const fileNames = new Set<string>();
  const pathOfFile = new Map<string, string>();
  for (const file of [...content.files.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    let path = inRootPath(file.git?.path, input);
    if (!path || fileNames.has(path.toLowerCase())) {
      let name = file.name;
      for (let n = 2; fileNames.has(`${ASSETS_DIR}/${name}`.toLowerCase()); n++) {
        const ext = posix.extname(file.name);
        name = `${file.name.slice(0, file.name.length - ext.length)}-${n}${ext}`;
      }
      path = `${ASSETS_DIR}/${name}`;
    }
    fileNames.add(path.toLowerCase());
    pathOfFile.set(file.id, path);
    out.push({ path: inRoot(path), file });
  }

  for (const page of model.listed) {
    const path = model.pathOfPage.get(page.id)!;
    out.push({
      path: inRoot(path),
      page: page.id,
      text: writePageFile(
        {
          title: page.title,
          ...(page.description ? { description: page.description } : {}),
          ...(page.icon ? { icon: page.icon } : {}),
          ...(page.hidden ? { hidden: true } : {}),
          ...(page.noIndex ? { noIndex: true } : {}),
          ...(page.noRobotsIndex ? { noRobotsIndex: true } : {}),
          ...(page.layout ? { layout: page.layout } : {}),
          ...(page.condition ? { condition: page.condition } : {}),
          ...coverField(page, path, pathOfFile),
        },
        input.bodies.get(page.id) ?? '',
        page.fileHead,
      ),
    });
  }

  for (const reusable of [...content.reusableContents.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const path = inRootPath(reusable.git?.path, input) ?? `.gitbook/includes/${pageSlug(reusable.title)}.md`;
    const body = input.bodies.get(reusable.id) ?? '';
    // Its front matter as read while it still names it so; GitBook's form otherwise.
    const head =
      reusable.fileHead !== undefined && parsePageFile(reusable.fileHead).frontTitle === reusable.title
        ? reusable.fileHead
        : `---\ntitle: ${JSON.stringify(reusable.title)}\n---\n\n`;
    out.push({ path: inRoot(path), text: head + body });
  }

  const repository = content.repository;
  const kept = repository?.summary && input.texts?.get(repository.summary.text);
  out.push({
    path: inRoot(config.summary),
    text:
      kept !== undefined && repository?.summary?.tree === summaryDigest(input)
        ? kept
        : writeSummary(model.groups),
  });
  for (const [path, hash] of Object.entries(repository?.files ?? {})) {
    const text = input.texts?.get(hash);
    if (text !== undefined && !out.some((f) => f.path === path)) out.push({ path, text });
  }
  // The repository's own `.gitbook.yaml` when the space came from one, else Quire's.
  if (input.writeConfig && !out.some((f) => f.path === '.gitbook.yaml' || f.path === '.gitbook.yml'))
    out.push({ path: '.gitbook.yaml', text: writeGitbookConfig(config) });
  return out;
}

/** The `cover` front matter of a page: a path from the page file to the cover's file, or its URL. */
function coverField(
  page: PageNode,
  pagePath: string,
  pathOfFile: ReadonlyMap<string, string>,
): { cover?: { src: string; srcDark?: string; yPos: number; height?: number } } {
  if (!page.cover) return {};
  const src = (ref: NonNullable<PageNode['cover']>['ref']): string | undefined => {
    if (ref.kind === 'url') return ref.url;
    const path = pathOfFile.get(ref.file);
    return path === undefined ? undefined : posix.relative(posix.dirname(pagePath), path);
  };
  const main = src(page.cover.ref);
  if (main === undefined) return {};
  const dark = page.cover.refDark ? src(page.cover.refDark) : undefined;
  return {
    cover: {
      src: main,
      ...(dark !== undefined ? { srcDark: dark } : {}),
      yPos: page.cover.yPos,
      ...(page.cover.height !== undefined ? { height: page.cover.height } : {}),
    },
  };
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}
