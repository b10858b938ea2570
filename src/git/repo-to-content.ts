import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pageSlug } from '../content/slugs.js';
import {
  DEFAULT_LAYOUT,
  type FileNode,
  type PageCover,
  type PageNode,
  type RepositoryFiles,
  type ReusableContentNode,
  type RevisionContent,
  type VariableValue,
} from '../content/tree.js';
import { newId } from '../ids.js';
import { summaryDigest } from './content-to-repo.js';
import { type PageFile, parsePageFile } from './front-matter.js';
import { ASSETS_DIR, DEFAULT_CONFIG, type GitbookConfig, parseGitbookConfig } from './gitbook-yaml.js';
import { parseSummary, type SummaryEntry, type SummaryGroup } from './summary.js';

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
  /**
   * Left unread (an asset whose blob an earlier import took: see `ImportInput.unchanged`);
   * reading `data` then throws.
   */
  unread?: true;
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
  /** Optional: what earlier imports took from blobs, so a re-sync costs what changed. */
  unchanged?: UnchangedBlobs;
}

/**
 * What an earlier import already took from a blob. `asset`: the base content's file node from
 * this blob at this git path (its facts are reused; the caller left the file `unread`, its bytes
 * being in the blob store already). `page`: a page file as read before from a blob with the same
 * oid (default: `parsePageFile` of its bytes).
 */
export interface UnchangedBlobs {
  asset(gitPath: string, oid: string): FileNode | undefined;
  page?(file: RepoFile): PageFile;
}

export interface ImportedContent {
  pages: Map<string, PageNode>;
  /** Page id -> markdown body (documents with a non-empty body). */
  bodies: Map<string, string>;
  files: Map<string, FileNode>;
  fileData: Map<string, Buffer>;
  /** The space's variables, from `.gitbook/vars.yaml`. */
  variables: Record<string, VariableValue>;
  /** `.gitbook/includes/*.md`, and their bodies by id. */
  reusable: Map<string, ReusableContentNode>;
  reusableBodies: Map<string, string>;
  config: GitbookConfig;
  /** The repository's SUMMARY.md and kept format files; `texts` holds the text of each hash. */
  repository: RepositoryFiles;
  /** Texts the repository layout refers to (by the hash `bodyHash` gives). */
  texts: Map<string, string>;
  /** What was left out, for the operation's report. */
  warnings: string[];
}

export class ImportFormatError extends Error {}

const SLUG = /^[^\s/?#]{1,100}$/u;

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

  const warnings: string[] = [];
  let groups: SummaryGroup[];
  const summaryFile = files.get(inRoot(config.summary));
  const summaryText = summaryFile?.data.toString('utf8');
  if (summaryText !== undefined) {
    const parsed = parseSummary(summaryText);
    groups = parsed.groups;
    warnings.push(...parsed.warnings);
  } else {
    if (!files.has(inRoot(config.readme)) && ![...files.keys()].some((p) => /\.md$/i.test(p)))
      throw new ImportFormatError(
        `the repository has neither ${inRoot(config.summary)} nor ${inRoot(config.readme)} nor any markdown page; is the project directory right?`,
      );
    groups = summaryFromFolders(files, config);
  }
  // Files listed as pages somewhere: an entry naming one of them with an #anchor is a link to it.
  const listedAsPage = new Set<string>();
  const collectPages = (entries: SummaryEntry[]) => {
    for (const entry of entries) {
      if (entry.kind === 'page' && !entry.anchor) listedAsPage.add(inRoot(entry.path));
      collectPages(entry.children);
    }
  };
  for (const group of groups) collectPages(group.entries);

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

  const anchorLinks: Array<{
    node: PageNode;
    filePath: string;
    previous?: PageNode | undefined;
    line: number;
  }> = [];
  const pageOfFile = new Map<string, string>();
  const { files: fileNodes, data } = importAssets(input, inRoot, gitPath);
  const assetIds = new Map<string, string>();
  for (const file of fileNodes.values()) if (file.git) assetIds.set(file.git.path, file.id);

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
      if (entry.kind === 'computed') {
        const previous = reuse.take(`computed:${JSON.stringify(entry.source)}`);
        const node: PageNode = {
          id: previous?.id ?? newId(),
          type: 'computed',
          parent,
          order: nextOrder(),
          title: entry.title,
          slug: freeSlug(parent, pageSlug(entry.title)),
          computed: entry.source,
          createdAt: input.now,
          updatedAt: input.now,
        };
        pages.set(node.id, stamp(node, previous));
        continue;
      }
      const filePath = inRoot(entry.path);
      if (entry.anchor && (listedAsPage.has(filePath) || used.has(filePath))) {
        // A place in a page listed on its own: a link page to that anchor, resolved below.
        const previous = reuse.take(`anchor:${gitPath(filePath)}#${entry.anchor}:${entry.title}`);
        const node: PageNode = {
          id: previous?.id ?? newId(),
          type: 'link',
          parent,
          order: nextOrder(),
          title: entry.title || entry.anchor,
          slug: '',
          target: { kind: 'anchor', anchor: entry.anchor },
          createdAt: input.now,
          updatedAt: input.now,
        };
        anchorLinks.push({ node, filePath, previous, line: entry.line });
        continue;
      }
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
      if (file.data.length > input.maxMarkdownBytes) {
        warnings.push(
          `${filePath} is larger than the ${Math.round(input.maxMarkdownBytes / 1024)} KiB a page may hold; it was left out (split the page)`,
        );
        addEntries(entry.children, parent);
        continue;
      }
      const parsed = readPage(file, filePath, warnings, input.unchanged?.page);
      const previous = reuse.take(`file:${gitPath(filePath)}`);
      const slug = freeSlug(parent, slugFor(entry, previous));
      const title = (parsed.title ?? entry.title).trim() || 'Untitled';
      const cover = parsed.cover ? coverOf(parsed.cover, filePath, assetIds) : undefined;
      const node: PageNode = {
        id: previous?.id ?? newId(),
        type: 'document',
        parent,
        order: nextOrder(),
        title,
        slug,
        // A cover with no layout written shows (GitBook writes `layout` only when it differs).
        layout:
          parsed.layout ??
          previous?.layout ??
          (parsed.cover ? { ...DEFAULT_LAYOUT, cover: true } : DEFAULT_LAYOUT),
        body: parsed.body.length > 0 ? input.bodyHash(parsed.body) : null,
        createdAt: input.now,
        updatedAt: input.now,
        git: { oid: file.oid, path: gitPath(filePath) },
        ...(parsed.head ? { fileHead: parsed.head } : {}),
        ...(entry.linkTitle && entry.linkTitle !== title ? { linkTitle: entry.linkTitle } : {}),
        ...(parsed.description ? { description: parsed.description } : {}),
        ...(parsed.icon ? { icon: parsed.icon } : {}),
        ...(parsed.hidden ? { hidden: true } : {}),
        ...(parsed.noIndex ? { noIndex: true } : {}),
        ...(parsed.noRobotsIndex ? { noRobotsIndex: true } : {}),
        ...(parsed.condition ? { condition: parsed.condition } : {}),
        ...(cover ? { cover } : {}),
        ...(previous?.emoji ? { emoji: previous.emoji } : {}),
      };
      pages.set(node.id, stamp(node, previous));
      pageOfFile.set(filePath, node.id);
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
      slug: freeSlug(null, group.slug && SLUG.test(group.slug) ? group.slug : pageSlug(group.title)),
      createdAt: input.now,
      updatedAt: input.now,
    };
    pages.set(node.id, stamp(node, previous));
    addEntries(group.entries, node.id);
  }
  for (const link of anchorLinks) {
    const page = pageOfFile.get(link.filePath);
    if (!page) {
      warnings.push(
        `SUMMARY.md line ${link.line}: "${link.filePath}" is not a page; the link to its anchor was left out`,
      );
      continue;
    }
    const node: PageNode = {
      ...link.node,
      target: { kind: 'anchor', anchor: (link.node.target as { anchor: string }).anchor, page },
    };
    pages.set(node.id, stamp(node, link.previous));
  }

  const texts = new Map<string, string>();
  const keep = (text: string): string => {
    const hash = input.bodyHash(text);
    texts.set(hash, text);
    return hash;
  };
  const contentRoot = [input.projectDir, config.root].filter(Boolean).join('/');
  const repository: RepositoryFiles = { files: {}, ...(contentRoot ? { root: contentRoot } : {}) };
  for (const file of files.values()) {
    if (!isKeptFormatFile(file.path, config)) continue;
    repository.files[file.path] = keep(file.data.toString('utf8'));
  }
  if (summaryText !== undefined) {
    const content: RevisionContent = { ...input.base, pages, files: fileNodes };
    repository.summary = {
      text: keep(summaryText),
      tree: summaryDigest({ content, projectDir: input.projectDir, config }),
    };
  }
  const { reusable, reusableBodies } = importIncludes(input, inRoot, gitPath);
  const variables = readVariables(files.get(inRoot('.gitbook/vars.yaml'))?.data.toString('utf8'), warnings);
  return {
    variables,
    pages,
    bodies,
    files: fileNodes,
    fileData: data,
    reusable,
    reusableBodies,
    config,
    repository,
    texts,
    warnings,
  };
}

/** `.gitbook/vars.yaml`: a flat map of names to values (`PRODUCT_NAME: Lumen`). */
function readVariables(text: string | undefined, warnings: string[]): Record<string, VariableValue> {
  const variables: Record<string, VariableValue> = {};
  if (text === undefined) return variables;
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    warnings.push(
      `.gitbook/vars.yaml is not valid YAML (${(error as Error).message.split('\n')[0]}); its variables were not read`,
    );
    return variables;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return variables;
  for (const [name, value] of Object.entries(data as Record<string, unknown>))
    if (/^[A-Za-z][\w]*$/.test(name) && ['string', 'number', 'boolean'].includes(typeof value))
      variables[name] = value as VariableValue;
  return variables;
}

export const INCLUDES_DIR = '.gitbook/includes';

/** Reusable contents: the markdown files under `.gitbook/includes/` (`title:` names them). */
function importIncludes(
  input: ImportInput,
  inRoot: (path: string) => string,
  gitPath: (path: string) => string,
): { reusable: Map<string, ReusableContentNode>; reusableBodies: Map<string, string> } {
  const prefix = `${inRoot(INCLUDES_DIR)}/`;
  const byPath = new Map<string, ReusableContentNode>();
  for (const node of input.base.reusableContents.values()) if (node.git) byPath.set(node.git.path, node);
  const reusable = new Map<string, ReusableContentNode>();
  const reusableBodies = new Map<string, string>();
  for (const file of input.files.values()) {
    if (
      !file.path.startsWith(prefix) ||
      !/\.md$/i.test(file.path) ||
      file.data.length > input.maxMarkdownBytes
    )
      continue;
    const parsed = parsePageFile(file.data.toString('utf8'));
    const path = gitPath(file.path);
    const previous = byPath.get(path);
    const node: ReusableContentNode = {
      id: previous?.id ?? newId(),
      title: (parsed.frontTitle ?? parsed.title ?? posix.basename(file.path, '.md')).slice(0, 256),
      body: parsed.body.length > 0 ? input.bodyHash(parsed.body) : null,
      git: { oid: file.oid, path },
      ...(parsed.head ? { fileHead: parsed.head } : {}),
    };
    reusable.set(node.id, node);
    if (parsed.body.length > 0) reusableBodies.set(node.id, parsed.body);
  }
  return { reusable, reusableBodies };
}

/**
 * `.gitbook.yaml` and the `.gitbook/*.yaml` files (tags, variables…): kept as they are and
 * written back on export.
 */
function isKeptFormatFile(path: string, config: GitbookConfig): boolean {
  if (path === '.gitbook.yaml' || path === '.gitbook.yml') return true;
  const prefix = config.root ? `${config.root}/.gitbook/` : '.gitbook/';
  if (!path.startsWith(prefix)) return false;
  const rest = path.slice(prefix.length);
  return !rest.includes('/') && /\.ya?ml$/i.test(rest);
}

/** A page file's fields; front matter that cannot be read is reported and left as it is. */
function readPage(
  file: RepoFile,
  filePath: string,
  warnings: string[],
  read?: (file: RepoFile) => PageFile,
): PageFile {
  const page = read ? read(file) : parsePageFile(file.data.toString('utf8'));
  if (page.problem)
    warnings.push(
      `${filePath}: ${page.problem}; its fields were not read (the page and its body were imported)`,
    );
  return page;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `cover:` as written in front matter: a URL, or a path from the page file to one of the files. */
function coverOf(
  cover: NonNullable<PageFile['cover']>,
  filePath: string,
  assets: ReadonlyMap<string, string>,
): PageCover | undefined {
  const ref = (src: string): PageCover['ref'] | undefined => {
    if (SCHEME.test(src)) return /^https?:/i.test(src) ? { kind: 'url', url: src } : undefined;
    let path = src.split(/[?#]/)[0]!;
    try {
      path = decodeURI(path);
    } catch {
      // as written
    }
    const resolved = path.startsWith('/')
      ? path.replace(/^\/+/, '')
      : posix.normalize(posix.join(posix.dirname(filePath), path));
    const id = assets.get(resolved) ?? [...assets].find(([p]) => p.endsWith(`/${resolved}`))?.[1];
    return id ? { kind: 'file', file: id } : undefined;
  };
  const main = ref(cover.src);
  if (!main) return undefined;
  const out: PageCover = { ref: main, yPos: cover.yPos };
  if (cover.height !== undefined) out.height = cover.height;
  const dark = cover.srcDark ? ref(cover.srcDark) : undefined;
  if (dark) out.refDark = dark;
  return out;
}

function slugFor(entry: SummaryEntry & { kind: 'page' }, previous?: PageNode): string {
  const name = posix.basename(entry.path).replace(/\.md$/i, '');
  let wanted: string;
  if (/^readme$/i.test(name)) {
    const folder = posix.basename(posix.dirname(entry.path));
    // The first page of the space (README.md at the root) is named after its title.
    wanted = folder && folder !== '.' ? folder : previous?.slug || pageSlug(entry.title);
  } else wanted = name;
  return SLUG.test(wanted) ? wanted : pageSlug(wanted);
}

function importAssets(
  input: ImportInput,
  inRoot: (path: string) => string,
  gitPath: (path: string) => string,
): { files: Map<string, FileNode>; data: Map<string, Buffer> } {
  const prefix = `${inRoot(ASSETS_DIR)}/`;
  const rootPrefix = inRoot('').replace(/\/?$/, '/').replace(/^\/$/, '');
  const byName = new Map<string, FileNode>();
  const byPath = new Map<string, FileNode>();
  for (const file of input.base.files.values()) {
    if (!byName.has(file.name)) byName.set(file.name, file);
    if (file.git) byPath.set(file.git.path, file);
  }
  const files = new Map<string, FileNode>();
  const data = new Map<string, Buffer>();
  for (const file of input.files.values()) {
    // Uploaded files, and files elsewhere that pages name (the reader read only those).
    const asset = file.path.startsWith(prefix);
    if (!asset && (/\.(md|ya?ml)$/i.test(file.path) || !file.path.startsWith(rootPrefix))) continue;
    const name = asset ? file.path.slice(prefix.length) : posix.basename(file.path);
    const known = file.unread ? input.unchanged?.asset(gitPath(file.path), file.oid) : undefined;
    if (file.unread && !known)
      throw new Error(`${file.path} was left unread, but no earlier import took its blob`);
    const facts = known
      ? { contentType: known.contentType, hash: known.blob, dimensions: known.dimensions }
      : input.facts(file.data, posix.basename(name));
    const previous = byPath.get(gitPath(file.path)) ?? (asset ? byName.get(name) : undefined);
    if (previous) {
      byName.delete(previous.name);
      byPath.delete(gitPath(file.path));
    }
    const node: FileNode = {
      id: previous?.id ?? newId(),
      name,
      contentType: facts.contentType,
      size: known ? known.size : file.data.length,
      blob: facts.hash,
      git: { oid: file.oid, path: gitPath(file.path) },
      ...(facts.dimensions ? { dimensions: facts.dimensions } : {}),
    };
    // An unread asset the base has under the same name is the base's node itself (every field
    // above comes from it), which tells the caller at once that it did not change.
    files.set(node.id, known && previous === known ? known : node);
    // An unread asset's bytes are in the blob store already.
    if (!known) data.set(node.id, file.data);
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
          : page.type === 'computed'
            ? `computed:${JSON.stringify(page.computed ?? null)}`
            : page.type === 'link'
              ? page.target?.kind === 'anchor'
                ? `anchor:${(page.target.page && base.pages.get(page.target.page)?.git?.path) ?? ''}#${page.target.anchor}:${page.title}`
                : `link:${page.href ?? (page.target && 'url' in page.target ? page.target.url : '')}:${page.title}`
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
