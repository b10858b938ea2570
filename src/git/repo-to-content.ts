import { posix } from 'node:path';
import { slugify } from '../content/draft.js';
import { DEFAULT_LAYOUT, type FileNode, type PageNode, type RevisionContent } from '../content/tree.js';
import { newId } from '../ids.js';
import { FrontMatterError, parsePageFile } from './front-matter.js';
import { DEFAULT_CONFIG, type GitbookConfig, parseGitbookConfig } from './gitbook-yaml.js';
import { parseSummary, type SummaryEntry, SummaryError, type SummaryGroup } from './summary.js';

/**
 * A repository in GitBook's format -> the pages and files of a revision. Pure: the files come
 * in read already, ids are reused from the base content (matched by the file each page came
 * from, so importing the same repository twice gives the same ids and the merge engine can
 * match pages across both sides), bodies are kept byte for byte.
 */

export interface RepoFile {
  /** Relative to the project directory. */
  path: string;
  /** Git blob id. */
  oid: string;
  data: Buffer;
}

export interface FileFactsLike {
  contentType: string;
  hash: string;
  dimensions?: { width: number; height: number } | undefined;
}

export interface ImportInput {
  files: ReadonlyMap<string, RepoFile>;
  /** Prefix of git paths (the project directory inside the repository), '' for the top. */
  projectDir: string;
  base: RevisionContent;
  now: string;
  maxMarkdownBytes: number;
  /** Hash a body would be stored under, to tell unchanged pages. */
  bodyHash(markdown: string): string;
  facts(data: Buffer, name: string): FileFactsLike;
}

export interface ImportedContent {
  pages: Map<string, PageNode>;
  /** Page id -> markdown body (documents with a non-empty body). */
  bodies: Map<string, string>;
  files: Map<string, FileNode>;
  fileData: Map<string, Buffer>;
  config: GitbookConfig;
  /** What was left out, for the operation's report. */
  warnings: string[];
}

export class ImportFormatError extends Error {}

const SLUG = /^[^\s/?#]{1,100}$/u;
export const ASSETS_DIR = '.gitbook/assets';

export function repoToContent(input: ImportInput): ImportedContent {
  const { files } = input;
  const configFile = files.get('.gitbook.yaml') ?? files.get('.gitbook.yml');
  let config: GitbookConfig;
  try {
    config = configFile ? parseGitbookConfig(configFile.data.toString('utf8')) : { ...DEFAULT_CONFIG };
  } catch (error) {
    throw new ImportFormatError((error as Error).message);
  }
  const inRoot = (path: string) => (config.root ? `${config.root}/${path}` : path);
  const gitPath = (path: string) => (input.projectDir ? `${input.projectDir}/${path}` : path);

  let groups: SummaryGroup[];
  const summaryFile = files.get(inRoot(config.summary));
  if (summaryFile) {
    try {
      groups = parseSummary(summaryFile.data.toString('utf8'));
    } catch (error) {
      if (error instanceof SummaryError)
        throw new ImportFormatError(
          `${inRoot(config.summary)}: ${error.message.replace(/^SUMMARY\.md /, '')}`,
        );
      throw error;
    }
  } else {
    groups = summaryFromFolders(files, config);
  }

  const warnings: string[] = [];
  const reuse = new IdMatcher(input.base);
  const pages = new Map<string, PageNode>();
  const bodies = new Map<string, string>();
  const used = new Set<string>();
  const siblingsSlugs = new Map<string | null, Set<string>>();
  const freeSlug = (parent: string | null, wanted: string): string => {
    const taken = siblingsSlugs.get(parent) ?? new Set<string>();
    siblingsSlugs.set(parent, taken);
    let slug = wanted;
    for (let n = 2; taken.has(slug); n++) slug = `${wanted}-${n}`;
    taken.add(slug);
    return slug;
  };
  const stamp = <T extends PageNode>(node: T, previous: PageNode | undefined): T => {
    if (!previous) return node;
    const candidate = { ...node, createdAt: previous.createdAt, updatedAt: previous.updatedAt };
    return sameNode(candidate, previous) ? candidate : { ...node, createdAt: previous.createdAt };
  };

  // Top-level pages and groups share one order, the summary's.
  let topOrder = 0;
  const addEntries = (entries: SummaryEntry[], parent: string | null) => {
    let childOrder = 0;
    const nextOrder = () => (parent === null ? topOrder++ : childOrder++);
    for (const entry of entries) {
      if (entry.kind === 'link') {
        const previous = reuse.take(`link:${entry.url}:${entry.title}`);
        const node: PageNode = {
          id: previous?.id ?? newId(),
          type: 'link',
          parent,
          order: nextOrder(),
          title: entry.title || entry.url,
          slug: '',
          target: { kind: 'url', url: entry.url },
          href: entry.url,
          createdAt: input.now,
          updatedAt: input.now,
        };
        pages.set(node.id, stamp(node, previous));
        if (entry.children.length > 0)
          warnings.push(
            `SUMMARY.md line ${entry.line}: pages under the external link "${entry.title}" were left out`,
          );
        continue;
      }
      const filePath = inRoot(entry.path);
      const file = files.get(filePath);
      if (!file || !/\.md$/i.test(entry.path)) {
        warnings.push(
          `SUMMARY.md line ${entry.line}: "${entry.path}" ${file ? 'is not a markdown file' : 'does not exist'}; it was left out and links to it are broken`,
        );
        addEntries(entry.children, parent);
        continue;
      }
      if (used.has(filePath)) {
        warnings.push(
          `SUMMARY.md line ${entry.line}: "${entry.path}" is listed twice; only its first entry was kept`,
        );
        continue;
      }
      used.add(filePath);
      if (file.data.length > input.maxMarkdownBytes)
        throw new ImportFormatError(
          `${filePath} is larger than the ${Math.round(input.maxMarkdownBytes / 1024)} KiB a page may hold; split the page`,
        );
      let parsed: ReturnType<typeof parsePageFile>;
      try {
        parsed = parsePageFile(file.data.toString('utf8'));
      } catch (error) {
        if (error instanceof FrontMatterError) throw new ImportFormatError(`${filePath}: ${error.message}`);
        throw error;
      }
      const previous = reuse.take(`file:${gitPath(filePath)}`);
      const slug = freeSlug(parent, slugFor(entry, previous));
      const title = (parsed.title ?? entry.title).trim() || 'Untitled';
      const node: PageNode = {
        id: previous?.id ?? newId(),
        type: 'document',
        parent,
        order: nextOrder(),
        title,
        slug,
        layout: parsed.layout ?? previous?.layout ?? DEFAULT_LAYOUT,
        body: parsed.body.length > 0 ? input.bodyHash(parsed.body) : null,
        createdAt: input.now,
        updatedAt: input.now,
        git: { oid: file.oid, path: gitPath(filePath) },
        ...(parsed.description ? { description: parsed.description } : {}),
        ...(parsed.icon ? { icon: parsed.icon } : {}),
        ...(parsed.hidden ? { hidden: true } : {}),
        ...(parsed.noIndex ? { noIndex: true } : {}),
        ...(previous?.emoji ? { emoji: previous.emoji } : {}),
      };
      pages.set(node.id, stamp(node, previous));
      if (parsed.body.length > 0) bodies.set(node.id, parsed.body);
      addEntries(entry.children, node.id);
    }
  };

  for (const group of groups) {
    if (group.title === null) {
      addEntries(group.entries, null);
      continue;
    }
    const previous = reuse.take(`group:${group.title}`);
    const node: PageNode = {
      id: previous?.id ?? newId(),
      type: 'group',
      parent: null,
      order: topOrder++,
      title: group.title,
      slug: freeSlug(null, slugify(group.title)),
      createdAt: input.now,
      updatedAt: input.now,
    };
    pages.set(node.id, stamp(node, previous));
    addEntries(group.entries, node.id);
  }
  const { files: fileNodes, data } = importAssets(input, inRoot, gitPath);
  return { pages, bodies, files: fileNodes, fileData: data, config, warnings };
}

function slugFor(entry: SummaryEntry & { kind: 'page' }, previous?: PageNode): string {
  const name = posix.basename(entry.path).replace(/\.md$/i, '');
  let wanted: string;
  if (/^readme$/i.test(name)) {
    const folder = posix.basename(posix.dirname(entry.path));
    // The first page of the space (README.md at the root) is named after its title.
    wanted = folder && folder !== '.' ? folder : previous?.slug || slugify(entry.title);
  } else wanted = name;
  return SLUG.test(wanted) ? wanted : slugify(wanted);
}

function importAssets(
  input: ImportInput,
  inRoot: (path: string) => string,
  gitPath: (path: string) => string,
): { files: Map<string, FileNode>; data: Map<string, Buffer> } {
  const prefix = `${inRoot(ASSETS_DIR)}/`;
  const byName = new Map<string, FileNode>();
  for (const file of input.base.files.values()) if (!byName.has(file.name)) byName.set(file.name, file);
  const files = new Map<string, FileNode>();
  const data = new Map<string, Buffer>();
  for (const file of input.files.values()) {
    if (!file.path.startsWith(prefix)) continue;
    const name = file.path.slice(prefix.length);
    const facts = input.facts(file.data, posix.basename(name));
    const previous = byName.get(name);
    byName.delete(name);
    const node: FileNode = {
      id: previous?.id ?? newId(),
      name,
      contentType: facts.contentType,
      size: file.data.length,
      blob: facts.hash,
      git: { oid: file.oid, path: gitPath(file.path) },
      ...(facts.dimensions ? { dimensions: facts.dimensions } : {}),
    };
    files.set(node.id, node);
    data.set(node.id, file.data);
  }
  return { files, data };
}

/** Without SUMMARY.md: the README first, then every page file, folders nested under their README. */
function summaryFromFolders(files: ReadonlyMap<string, RepoFile>, config: GitbookConfig): SummaryGroup[] {
  const prefix = config.root ? `${config.root}/` : '';
  const paths = [...files.keys()]
    .filter(
      (p) => p.startsWith(prefix) && /\.md$/i.test(p) && !p.slice(prefix.length).startsWith('.gitbook/'),
    )
    .map((p) => p.slice(prefix.length))
    .filter((p) => p !== config.summary)
    .sort();
  const entries: SummaryEntry[] = [];
  const folders = new Map<string, SummaryEntry[]>();
  folders.set('', entries);
  const listFor = (folder: string): SummaryEntry[] => {
    const known = folders.get(folder);
    if (known) return known;
    const parent = listFor(posix.dirname(folder) === '.' ? '' : posix.dirname(folder));
    const readme = `${folder}/README.md`;
    const entry: SummaryEntry = {
      kind: 'page',
      title: posix.basename(folder),
      path: readme,
      line: 0,
      children: [],
    };
    parent.push(entry);
    folders.set(folder, entry.children);
    return entry.children;
  };
  if (paths.includes(config.readme))
    entries.push({ kind: 'page', title: 'Introduction', path: config.readme, line: 0, children: [] });
  for (const path of paths) {
    if (path === config.readme) continue;
    const dir = posix.dirname(path) === '.' ? '' : posix.dirname(path);
    if (/^readme\.md$/i.test(posix.basename(path))) {
      listFor(dir);
      continue;
    }
    listFor(dir).push({ kind: 'page', title: posix.basename(path, '.md'), path, line: 0, children: [] });
  }
  return [{ title: null, line: 0, entries }];
}

/** Matches pages of the base content to what is imported: by file, group title or link. */
class IdMatcher {
  private readonly keys = new Map<string, PageNode>();

  constructor(base: RevisionContent) {
    for (const page of base.pages.values()) {
      const key =
        page.type === 'group'
          ? `group:${page.title}`
          : page.type === 'link'
            ? `link:${page.href ?? (page.target && 'url' in page.target ? page.target.url : '')}:${page.title}`
            : page.git
              ? `file:${page.git.path}`
              : undefined;
      if (key && !this.keys.has(key)) this.keys.set(key, page);
    }
  }

  take(key: string): PageNode | undefined {
    const page = this.keys.get(key);
    if (page) this.keys.delete(key);
    return page;
  }
}

/** Equal apart from `updatedAt` (canonical field order does not matter). */
function sameNode(a: PageNode, b: PageNode): boolean {
  const strip = ({ updatedAt: _u, ...rest }: PageNode) => rest;
  return stable(strip(a)) === stable(strip(b));
}

function stable(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
}
