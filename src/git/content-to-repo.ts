import { posix } from 'node:path';
import { byOrder, type FileNode, type PageNode, type RevisionContent } from '../content/tree.js';
import { writePageFile } from './front-matter.js';
import { DEFAULT_CONFIG, type GitbookConfig, writeGitbookConfig } from './gitbook-yaml.js';
import { ASSETS_DIR } from './repo-to-content.js';
import { type SummaryEntry, type SummaryGroup, writeSummary } from './summary.js';

/**
 * A revision -> the files of a repository in GitBook's format, relative to the project
 * directory. Pages keep the file they were imported from (`git.path`); new pages get one from
 * their place in the tree (`folder/README.md` when they hold pages, `folder/slug.md` otherwise).
 * Pure: bodies and file bytes are handed in.
 */

export interface ExportInput {
  content: RevisionContent;
  /** Markdown of each document page with a body, by page id. */
  bodies: ReadonlyMap<string, string>;
  /** Project directory prefix of git paths, '' for the top. */
  projectDir: string;
  /** The `.gitbook.yaml` found in the repository, when there is one (kept as it is). */
  config?: GitbookConfig;
  writeConfig: boolean;
}

export interface ExportedFile {
  path: string;
  text?: string;
  /** Page files: the id of the page written there. */
  page?: string;
  /** Files: the blob to copy. */
  file?: FileNode;
}

export function contentToRepo(input: ExportInput): ExportedFile[] {
  const { content } = input;
  const config = input.config ?? DEFAULT_CONFIG;
  const inRoot = (path: string) => (config.root ? `${config.root}/${path}` : path);
  const fromGit = (gitPathValue: string | undefined): string | undefined => {
    if (!gitPathValue) return undefined;
    const prefix = input.projectDir ? `${input.projectDir}/` : '';
    if (!gitPathValue.startsWith(prefix)) return undefined;
    const inProject = gitPathValue.slice(prefix.length);
    const rootPrefix = config.root ? `${config.root}/` : '';
    return inProject.startsWith(rootPrefix) ? inProject.slice(rootPrefix.length) : undefined;
  };

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
    const known = page.type === 'document' ? fromGit(page.git?.path) : undefined;
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

  const out: ExportedFile[] = [];
  const pathOfPage = new Map<string, string>();
  const entries = (parent: string | null, folder: string): SummaryEntry[] => {
    const list: SummaryEntry[] = [];
    for (const page of children.get(parent) ?? []) {
      if (page.type === 'group') continue;
      if (page.type === 'link') {
        const url = page.href ?? (page.target?.kind === 'url' ? page.target.url : undefined);
        if (url) list.push({ kind: 'link', title: page.title, url, line: 0, children: [] });
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
      list.push({
        kind: 'page',
        title: page.title,
        path,
        line: 0,
        children: entries(page.id, ownFolder === '.' ? '' : ownFolder),
      });
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
            ...(page.layout ? { layout: page.layout } : {}),
          },
          input.bodies.get(page.id) ?? '',
        ),
      });
    }
    return list;
  };

  const groups: SummaryGroup[] = [];
  const top = children.get(null) ?? [];
  // Pages before the first group, then each group with its pages (SUMMARY.md cannot interleave).
  groups.push({ title: null, line: 0, entries: entries(null, '') });
  for (const page of top) {
    if (page.type !== 'group') continue;
    groups.push({ title: page.title, line: 0, entries: entries(page.id, page.slug) });
  }
  out.push({
    path: inRoot(config.summary),
    text: writeSummary(groups.filter((g) => g.title !== null || g.entries.length > 0)),
  });

  const names = new Set<string>();
  for (const file of [...content.files.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    let name = file.name;
    for (let n = 2; names.has(name.toLowerCase()); n++) {
      const ext = posix.extname(file.name);
      name = `${file.name.slice(0, file.name.length - ext.length)}-${n}${ext}`;
    }
    names.add(name.toLowerCase());
    out.push({ path: inRoot(`${ASSETS_DIR}/${name}`), file });
  }
  if (input.writeConfig) out.push({ path: '.gitbook.yaml', text: writeGitbookConfig(config) });
  return out;
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}
