import { posix } from 'node:path';
import { extractLinks, unknownConstructs } from '../../content/markdown/index.js';
import { findTreeHash, type GitCommit, insertRevision, revisionTreeHash } from '../../content/revisions.js';
import type { Snapshot } from '../../content/store.js';
import { EMPTY_CONTENT, type FileNode, type PageNode, type RevisionContent } from '../../content/tree.js';
import type { Db, Tx } from '../../db/database.js';
import type { GitSyncsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { Credentials } from '../../git/credentials.js';
import type { PageFileMemo } from '../../git/page-files.js';
import {
  type ImportedContent,
  ImportFormatError,
  type RepoFile,
  repoToContent,
  type UnchangedBlobs,
} from '../../git/repo-to-content.js';
import { GitError, type GitWorkspace, type Remote } from '../../git/runner.js';
import { MAX_FILE_BYTES, MAX_MARKDOWN_BYTES } from '../change-requests/content-writes.js';
import { fileFacts } from '../change-requests/file-facts.js';
import type { SyncContext, SyncJob } from './sync.js';

/** A sync that cannot go on, with a message for the person who started it (and details, listed as warnings). */
export class SyncFailure extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

export interface SyncOutcome {
  commit: string | undefined;
  warnings: string[];
}

/** The most a repository's project directory may hold, all files together. */
export const MAX_REPOSITORY_BYTES = 512 * 1024 * 1024;
export const GIT_TIMEOUT_MS = 120_000;

/** The guarded remote: the URL checked (scheme and addresses) again when the job runs. */
export async function remoteOf(
  services: SyncContext,
  job: SyncJob,
  credentials: Credentials | undefined,
): Promise<Remote> {
  const checked = await services.outbound.check(job.url);
  return { checked, credentials };
}

/**
 * The files of `commit` under the project directory that the format reads, by path in it.
 * What did not change is not read from git: assets the base content took from the same blob at
 * the same path are left `unread` (their bytes are in the blob store already), and page files
 * read before by this process come from `pageFiles`. Format files (YAML) are always read.
 */
export async function readRepo(
  ws: GitWorkspace,
  commit: string,
  projectDir: string,
  unchanged?: UnchangedBlobs,
  pageFiles?: PageFileMemo,
  listed?: Promise<string>,
): Promise<Map<string, RepoFile>> {
  const listing = await (listed ?? listRepo(ws, commit, projectDir));
  const prefix = projectDir ? `${projectDir}/` : '';
  const wanted: Array<{ path: string; oid: string; unread: boolean; text?: string | undefined }> = [];
  /** Other files, read only if a page names them (images kept next to their pages). */
  const others = new Map<string, { oid: string; bytes: number; gitPath: string }>();
  let total = 0;
  let toRead = 0;
  for (const entry of listing.split('\0')) {
    if (entry === '') continue;
    const tab = entry.indexOf('\t');
    const [mode, type, oid, size] = entry.slice(0, tab).split(/\s+/);
    const path = entry.slice(tab + 1);
    if (type !== 'blob' || mode === '120000' || !path.startsWith(prefix)) continue;
    const inProject = path.slice(prefix.length);
    const read = /\.(md|ya?ml)$/i.test(inProject) || inProject.includes('.gitbook/assets/');
    if (!read) {
      if (Number(size) <= MAX_FILE_BYTES)
        others.set(inProject, { oid: oid!, bytes: Number(size), gitPath: path });
      continue;
    }
    const bytes = Number(size);
    if (bytes > MAX_FILE_BYTES)
      throw new SyncFailure(
        `${path} is ${Math.ceil(bytes / 1024 / 1024)} MiB, over the ${MAX_FILE_BYTES / 1024 / 1024} MiB a file may have; remove it or move it out of the project directory`,
      );
    total += bytes;
    if (total > MAX_REPOSITORY_BYTES)
      throw new SyncFailure(
        `the project directory holds more than ${MAX_REPOSITORY_BYTES / 1024 / 1024} MiB of pages and assets`,
      );
    const markdown = /\.md$/i.test(inProject);
    const unread = !markdown && !/\.ya?ml$/i.test(inProject) && unchanged?.asset(path, oid!) !== undefined;
    const text = markdown ? pageFiles?.text(oid!) : undefined;
    if (!unread && text === undefined) toRead += bytes;
    wanted.push({ path: inProject, oid: oid!, unread, text });
  }
  // One `git cat-file --batch` for all the others.
  const blobs = await ws.readBlobs(
    [...new Set(wanted.filter((w) => !w.unread && w.text === undefined).map((w) => w.oid))],
    toRead,
  );
  const files = new Map<string, RepoFile>();
  for (const { path, oid, unread, text } of wanted)
    files.set(
      path,
      unread
        ? unreadFile(path, oid)
        : { path, oid, data: text !== undefined ? Buffer.from(text, 'utf8') : blobs.get(oid)! },
    );
  // Files outside `.gitbook/assets` that pages name, read in a second batch.
  const named = referencedFiles(files, others);
  const extra: Array<{ path: string; oid: string }> = [];
  for (const path of named) {
    const other = others.get(path)!;
    total += other.bytes;
    if (total > MAX_REPOSITORY_BYTES)
      throw new SyncFailure(
        `the project directory holds more than ${MAX_REPOSITORY_BYTES / 1024 / 1024} MiB of pages and assets`,
      );
    if (unchanged?.asset(other.gitPath, other.oid) !== undefined)
      files.set(path, unreadFile(path, other.oid));
    else extra.push({ path, oid: other.oid });
  }
  if (extra.length > 0) {
    const more = await ws.readBlobs(
      [...new Set(extra.map((e) => e.oid))],
      extra.reduce((sum, e) => sum + others.get(e.path)!.bytes, 0),
    );
    for (const { path, oid } of extra) files.set(path, { path, oid, data: more.get(oid)! });
  }
  return files;
}

/**
 * The paths (relative to the project directory) of `others` that the markdown files link to,
 * relative to themselves: images, files and covers GitBook repositories keep beside their pages.
 */
function referencedFiles(
  files: ReadonlyMap<string, RepoFile>,
  others: ReadonlyMap<string, unknown>,
): Set<string> {
  const found = new Set<string>();
  if (others.size === 0) return found;
  for (const file of files.values()) {
    if (file.unread || !/\.md$/i.test(file.path)) continue;
    const text = file.data.toString('utf8');
    const hrefs = extractLinks(text).map((link) => link.href);
    for (const cover of text.matchAll(/^cover(?:Dark)?:\s*['"]?([^'"\n]+?)['"]?\s*$/gm))
      hrefs.push(cover[1]!);
    for (const href of hrefs) {
      if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(href)) continue;
      let target = href.split(/[?#]/)[0]!.replace(/^<|>$/g, '');
      try {
        target = decodeURI(target);
      } catch {
        // as written
      }
      const joined = posix.normalize(posix.join(posix.dirname(file.path), target));
      if (others.has(joined)) found.add(joined);
    }
  }
  return found;
}

/** `git ls-tree` of the project directory at `rev` (a commit, or a ref naming one). */
export function listRepo(ws: GitWorkspace, rev: string, projectDir: string): Promise<string> {
  return ws.git(['ls-tree', '-r', '-z', '--long', rev, ...(projectDir ? ['--', projectDir] : [])]);
}

function unreadFile(path: string, oid: string): RepoFile {
  return {
    path,
    oid,
    unread: true,
    get data(): Buffer {
      throw new Error(`${path} was left unread (its blob is unchanged since the last import)`);
    },
  };
}

/**
 * What earlier imports took from blobs (see `UnchangedBlobs`): the assets of `content`, by git
 * path and blob, and the page files read before, by blob.
 */
export function unchangedIn(content: RevisionContent, pageFiles: PageFileMemo): UnchangedBlobs {
  const byPath = new Map<string, FileNode>();
  for (const file of content.files.values()) if (file.git?.oid) byPath.set(file.git.path, file);
  return {
    asset(gitPath, oid) {
      const node = byPath.get(gitPath);
      return node?.git?.oid === oid ? node : undefined;
    },
    page: (file) => pageFiles.read(file),
  };
}

/** Stores the bytes of the files read, several at a time. */
export async function storeFileData(services: SyncContext, data: Iterable<Buffer>): Promise<void> {
  const queue = [...data];
  const worker = async () => {
    for (let next = queue.pop(); next; next = queue.pop()) await services.blobs.put(next);
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
}

export function convert(
  services: SyncContext,
  files: Map<string, RepoFile>,
  job: SyncJob,
  base: RevisionContent,
  now: string,
  unchanged?: UnchangedBlobs,
): ImportedContent {
  try {
    const imported = repoToContent({
      files,
      projectDir: job.projectDir,
      base,
      now,
      ...(unchanged ? { unchanged } : {}),
      maxMarkdownBytes: MAX_MARKDOWN_BYTES,
      bodyHash: (markdown) => services.store.bodyHash(markdown),
      facts: (data, name) => fileFacts(data, name, undefined),
    });
    imported.warnings.push(...unknownReport(imported, base));
    return imported;
  } catch (error) {
    if (error instanceof ImportFormatError) throw new SyncFailure(error.message);
    throw error;
  }
}

/**
 * The pages (changed by this import) holding constructs Quire cannot read: they are kept as
 * written and shown as text, and the person syncing should know which.
 */
function unknownReport(imported: ImportedContent, base: RevisionContent): string[] {
  const report: string[] = [];
  for (const [id, markdown] of imported.bodies) {
    const page = imported.pages.get(id);
    if (!page || base.pages.get(id)?.body === page.body) continue;
    const unknown = unknownConstructs(markdown);
    if (unknown.length > 0)
      report.push(
        `${page.git?.path ?? page.title}: ${unknown.length} construct${unknown.length === 1 ? '' : 's'} Quire does not read ${unknown.length === 1 ? 'is' : 'are'} kept as written and shown as text: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`,
      );
  }
  return report;
}

/** The imported pages and files as a tree written from `base`; answers its hash and what changed. */
export async function writeImported(
  services: SyncContext,
  tx: Tx,
  base: Snapshot,
  imported: ImportedContent,
): Promise<{ treeHash: string; changedPages: Set<string> }> {
  // Bodies and texts the base has already are stored already (content-addressed).
  const stored = new Set<string>();
  for (const page of base.content.pages.values()) if (page.body) stored.add(page.body);
  const layout = base.content.repository;
  if (layout)
    for (const hash of [...Object.values(layout.files), layout.summary?.text]) if (hash) stored.add(hash);
  const fresh: string[] = [];
  for (const [id, markdown] of imported.bodies) {
    const hash = imported.pages.get(id)?.body;
    if (!hash || !stored.has(hash)) fresh.push(markdown);
  }
  for (const [hash, text] of imported.texts) if (!stored.has(hash)) fresh.push(text);
  for (const reusable of base.content.reusableContents.values()) if (reusable.body) stored.add(reusable.body);
  for (const [id, markdown] of imported.reusableBodies) {
    const hash = imported.reusable.get(id)?.body;
    if (!hash || !stored.has(hash)) fresh.push(markdown);
  }
  if (fresh.length > 0) await services.store.putBodies(tx, fresh);
  const content: RevisionContent = {
    ...base.content,
    pages: imported.pages,
    files: imported.files,
    reusableContents: imported.reusable,
    variables: imported.variables,
    repository: imported.repository,
  };
  const changedPages = changed(base.content.pages, imported.pages);
  const changedFiles = changed(base.content.files, imported.files);
  const sameLayout = JSON.stringify(base.content.repository ?? null) === JSON.stringify(imported.repository);
  const sameReusable =
    JSON.stringify([...base.content.reusableContents.values()]) ===
    JSON.stringify([...imported.reusable.values()]);
  const sameVariables = JSON.stringify(base.content.variables) === JSON.stringify(imported.variables);
  if (changedPages.size === 0 && changedFiles.size === 0 && sameLayout && sameReusable && sameVariables)
    return { treeHash: base.treeHash, changedPages };
  const treeHash = await services.store.writeTree(tx, base, content, {
    pages: changedPages,
    files: changedFiles,
    reusable: !sameReusable,
    variables: !sameVariables,
  });
  return { treeHash, changedPages };
}

function changed<T extends PageNode | FileNode>(
  before: ReadonlyMap<string, T>,
  after: ReadonlyMap<string, T>,
): Set<string> {
  const ids = new Set<string>();
  for (const [id, node] of after) {
    const old = before.get(id);
    if (old === node) continue;
    if (!old || JSON.stringify(old) !== JSON.stringify(node)) ids.add(id);
  }
  for (const id of before.keys()) if (!after.has(id)) ids.add(id);
  return ids;
}

export function commitOf(job: SyncJob, oid: string, message: string, createdByGitBook: boolean): GitCommit {
  return {
    oid,
    message,
    createdByGitBook,
    ref: job.ref,
    ...(job.commitUrl ? { url: `${job.commitUrl.replace(/\/+$/, '')}/${oid}` } : {}),
  };
}

/**
 * Import: fetch the branch, read the files in GitBook's format, and make them ONE new revision
 * of the space (moved to it unless standalone), as a merge does: links and search follow.
 * Everything is read and checked before the transaction; a failure changes nothing.
 */
export async function runImport(
  deps: Deps,
  services: SyncContext,
  job: SyncJob,
  credentials: Credentials | undefined,
  row: GitSyncsTable | undefined,
): Promise<SyncOutcome> {
  const remote = await remoteOf(services, job, credentials);
  // What the space has now: its assets' blobs need not be read again.
  const unchanged = unchangedIn(
    (await currentContent(deps.db, services, job.spaceId)) ?? EMPTY_CONTENT,
    services.git.pageFiles,
  );
  const read = await services.git.cache.run(remote, job.projectDir, 'bare', async (ws) => {
    const local = await fetchBranch(ws, remote, job);
    // The commit and the tree's listing at once (two processes, not one after the other).
    const listed = listRepo(ws, local, job.projectDir);
    listed.catch(() => {}); // awaited below in every case
    const { oid: commit, message } = await ws.fetched(local);
    if (!job.force && !job.standalone && row?.last_commit === commit) {
      await listed.catch(() => {});
      return { commit };
    }
    const files = await readRepo(ws, commit, job.projectDir, unchanged, services.git.pageFiles, listed);
    return { commit, message, files };
  });
  const { commit } = read;
  if (!read.files)
    return { commit, warnings: ['the branch is at the commit synced last; nothing to import'] };
  const { files, message } = read;
  if (files.size === 0 && job.projectDir)
    throw new SyncFailure(`the repository has nothing under the project directory "${job.projectDir}"`);
  return await deps.db.transaction().execute(async (tx) => {
    const space = await services.spaces.lockRow(tx, job.spaceId);
    if (!space || space.deleted_at) throw new SyncFailure('the space was deleted');
    const base = await snapshotOf(services, tx, space.revision_id);
    const now = deps.clock.now().toISOString();
    const imported = convert(services, files, job, base.content, now, unchanged);
    await storeFileData(services, imported.fileData.values());
    const { treeHash, changedPages } = await writeImported(services, tx, base, imported);
    let revisionId = space.revision_id;
    if (treeHash !== base.treeHash || job.standalone) {
      const revision = await insertRevision(tx, {
        spaceId: job.spaceId,
        treeHash,
        parents: [space.revision_id],
        type: 'edits',
        createdBy: job.actorId,
        createdAt: now,
        git: commitOf(job, commit, message, false),
      });
      revisionId = revision.id;
      if (!job.standalone) {
        await services.spaces.moveHead(
          tx,
          { spaceId: job.spaceId, revisionId: revision.id, by: job.actorId },
          now,
        );
        const snapshot = await services.store.snapshot(tx, treeHash);
        await services.links.reindex(tx, job.spaceId, snapshot.content, changedPages);
      }
    }
    if (!job.standalone) {
      await tx
        .updateTable('git_syncs')
        .set({
          last_commit: commit,
          last_revision: revisionId,
          ...(job.timestamp ? { last_timestamp: job.timestamp } : {}),
          redirects: JSON.stringify(imported.config.redirects),
        })
        .where('space_id', '=', job.spaceId)
        .execute();
    }
    return { commit, warnings: imported.warnings };
  });
}

/** Fetches the job's branch into the workspace; answers the local ref it is fetched to. */
export async function fetchBranch(ws: GitWorkspace, remote: Remote, job: SyncJob): Promise<string> {
  try {
    return await ws.fetch(remote, job.ref);
  } catch (error) {
    if (error instanceof GitError && error.kind === 'unknown-ref')
      throw new SyncFailure(
        `the repository has no branch ${job.ref.replace(/^refs\/heads\//, '')} (${job.ref})`,
      );
    throw error;
  }
}

/** The content of the space's current revision (undefined when the space is gone). */
async function currentContent(
  db: Db,
  services: SyncContext,
  spaceId: string,
): Promise<RevisionContent | undefined> {
  const head = await services.spaces.headOf(db, spaceId);
  const treeHash = head === undefined ? undefined : await findTreeHash(db, head);
  return treeHash === undefined ? undefined : (await services.store.snapshot(db, treeHash)).content;
}

export async function snapshotOf(services: SyncContext, tx: Tx | Db, revisionId: string): Promise<Snapshot> {
  return services.store.snapshot(tx, await revisionTreeHash(tx, revisionId));
}
