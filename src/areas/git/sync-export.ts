import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { insertRevision, setRevisionGit } from '../../content/revisions.js';
import type { PageNode, RevisionContent } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { GitSyncsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { contentToRepo, type ExportedFile } from '../../git/content-to-repo.js';
import type { Credentials } from '../../git/credentials.js';
import { DEFAULT_CONFIG, type GitbookConfig, parseGitbookConfig } from '../../git/gitbook-yaml.js';
import type { GitWorkspace } from '../../git/runner.js';
import { threeWayMerge } from '../change-requests/merging.js';
import type { SyncContext, SyncJob } from './sync.js';
import {
  commitOf,
  convert,
  fetchBranch,
  readRepo,
  remoteOf,
  SyncFailure,
  type SyncOutcome,
  snapshotOf,
  storeFileData,
  unchangedIn,
  writeImported,
} from './sync-import.js';

/**
 * Export: the space's current revision written as files in GitBook's format on top of the
 * branch (only files that differ change), committed and pushed (a fast-forward, never a forced
 * push). When the branch moved since the last sync, its head is read as content and merged
 * three-way with the space (base: the revision synced last); the merge is committed on top of
 * the branch and becomes a new revision of the space. Conflicts refuse the export and change
 * nothing; with `force` the space's content is committed on top of the branch as it is.
 */
export async function runExport(
  deps: Deps,
  services: SyncContext,
  job: SyncJob,
  credentials: Credentials | undefined,
  row: GitSyncsTable | undefined,
): Promise<SyncOutcome> {
  const remote = await remoteOf(services, job, credentials);
  const current = await deps.db.transaction().execute(async (tx) => {
    const revisionId = await services.spaces.headOf(tx, job.spaceId);
    if (revisionId === undefined) throw new Error(`space ${job.spaceId} is missing`);
    const snapshot = await snapshotOf(services, tx, revisionId);
    return {
      content: snapshot.content,
      bodies: await bodiesOf(services, tx, snapshot.content),
      texts: await layoutTexts(services, tx, snapshot.content),
      revisionId,
      treeHash: snapshot.treeHash,
    };
  });

  // A temporary checkout whose objects come from the remote's cache (fetches go there).
  return services.git.cache.run(remote, job.projectDir, 'checkout', async (ws) => {
    const head = await ws.lsRemote(remote, job.ref);
    let parent: string | undefined;
    let config: GitbookConfig | undefined;
    let merged: Merged | undefined;
    if (head) {
      const fetched = await ws.fetched(await fetchBranch(ws, remote, job));
      parent = fetched.oid;
      config = await configAt(ws, parent, job.projectDir);
      const moved = row?.last_commit && row.last_commit !== parent;
      if (moved && !job.force) {
        if (!row?.last_revision)
          throw new SyncFailure(
            `the branch ${job.ref} moved since the last sync (now at ${parent.slice(0, 12)}, last synced ${row!.last_commit!.slice(0, 12)}); import it first, or export with force to overwrite it`,
          );
        merged = await mergeRemote(deps, services, job, ws, {
          remoteCommit: parent,
          remoteMessage: fetched.message,
          lastRevision: row.last_revision,
          oursRevision: current.revisionId,
          oursTree: current.treeHash,
          config,
        });
      }
      await ws.git(['checkout', '-q', '-f', '--detach', parent]);
    }
    // A branch without `.gitbook.yaml` gets the one the space was imported from (its root and
    // names), else the redirects of the last sync.
    const keptConfig = keptGitbookConfig(current.content, current.texts);
    if (!config && keptConfig) config = keptConfig;
    if (!config && row?.redirects) config = { ...DEFAULT_CONFIG, redirects: JSON.parse(row.redirects) };
    const files = contentToRepo({
      content: merged?.content ?? current.content,
      bodies: merged?.bodies ?? current.bodies,
      texts: merged?.texts ?? current.texts,
      projectDir: job.projectDir,
      ...(config ? { config } : {}),
      writeConfig: !head || !config,
    });
    const previous = row?.last_revision
      ? await deps.db.transaction().execute((tx) => snapshotOf(services, tx, row.last_revision!))
      : undefined;
    const known = gitPathsOf([previous?.content, current.content, merged?.content]);
    await writeFiles(services, ws, job, config, files, known);

    await ws.git(['add', '-A', '--', job.projectDir || '.']);
    const staged = await ws.git(['diff', '--cached', '--name-only', ...(parent ? [] : ['--root'])]);
    const message = job.commitMessage ?? 'Export from Quire';
    let commit: string;
    let created = false;
    if (parent && staged.trim() === '') commit = parent;
    else {
      await ws.git(['commit', '-q', '--no-verify', '-F', '-'], { input: message });
      commit = (await ws.git(['rev-parse', 'HEAD'])).trim();
      // On top of the branch's head: a fast-forward, never a forced push. From here on a failure
      // is reported as it is (never retried in a fresh repository).
      ws.committed = true;
      await ws.push(remote, commit, job.ref, false);
      created = true;
    }
    const nothing = created ? [] : ['the branch already holds this content; nothing to commit'];

    if (merged) {
      const applied = await applyMerged(deps, services, job, merged, {
        oid: commit,
        message: created ? message : merged.remoteMessage,
        created,
      });
      await recordSynced(deps, job, commit, applied.revisionId);
      return { commit, warnings: [...nothing, ...applied.warnings] };
    }
    if (created) await setRevisionGit(deps.db, current.revisionId, commitOf(job, commit, message, true));
    await recordSynced(deps, job, commit, current.revisionId);
    return { commit, warnings: nothing };
  });
}

/** Markdown of each document page and reusable content with a body, by id. */
async function bodiesOf(
  services: SyncContext,
  tx: Tx,
  content: RevisionContent,
): Promise<Map<string, string>> {
  const hashes = [
    ...[...content.pages.values()].flatMap((p) => (p.type === 'document' && p.body ? [p.body] : [])),
    ...[...content.reusableContents.values()].flatMap((r) => (r.body ? [r.body] : [])),
  ];
  const texts = await services.store.readBodies(tx, hashes);
  const bodies = new Map<string, string>();
  for (const page of content.pages.values())
    if (page.type === 'document' && page.body) bodies.set(page.id, texts.get(page.body)!);
  for (const reusable of content.reusableContents.values())
    if (reusable.body) bodies.set(reusable.id, texts.get(reusable.body)!);
  return bodies;
}

/** The texts the content's repository layout names (SUMMARY.md, kept format files), by hash. */
async function layoutTexts(
  services: SyncContext,
  tx: Tx,
  content: RevisionContent,
): Promise<Map<string, string>> {
  const layout = content.repository;
  if (!layout) return new Map();
  const hashes = [...Object.values(layout.files), ...(layout.summary ? [layout.summary.text] : [])];
  return services.store.readBodies(tx, hashes);
}

/** The `.gitbook.yaml` the space kept from the repository it was imported from, if it reads. */
function keptGitbookConfig(
  content: RevisionContent,
  texts: ReadonlyMap<string, string>,
): GitbookConfig | undefined {
  const files = content.repository?.files ?? {};
  const hash = files['.gitbook.yaml'] ?? files['.gitbook.yml'];
  const text = hash ? texts.get(hash) : undefined;
  if (text === undefined) return undefined;
  try {
    return parseGitbookConfig(text);
  } catch {
    return undefined;
  }
}

/** The `.gitbook.yaml` of the project at `commit`, when it has one. */
async function configAt(
  ws: GitWorkspace,
  commit: string,
  projectDir: string,
): Promise<GitbookConfig | undefined> {
  const configPath = projectDir ? `${projectDir}/.gitbook.yaml` : '.gitbook.yaml';
  const listed = await ws.git(['ls-tree', commit, '--', configPath]);
  if (listed.trim() === '') return undefined;
  try {
    return parseGitbookConfig(await ws.git(['show', `${commit}:${configPath}`]));
  } catch (error) {
    throw new SyncFailure((error as Error).message);
  }
}

/** The repository paths the pages and files of these contents were read from or written to. */
function gitPathsOf(contents: Array<RevisionContent | undefined>): Set<string> {
  const paths = new Set<string>();
  for (const content of contents) {
    if (!content) continue;
    for (const page of content.pages.values()) if (page.git?.path) paths.add(page.git.path);
    for (const file of content.files.values()) if (file.git?.path) paths.add(file.git.path);
    for (const reusable of content.reusableContents.values())
      if (reusable.git?.path) paths.add(reusable.git.path);
  }
  return paths;
}

/**
 * Writes the exported files into the checkout. A page or file the space had (at the last sync,
 * or now) and no longer has goes; other files of the repository stay, markdown included: a
 * CONTRIBUTING.md or `.gitbook/includes` page Quire did not import is not Quire's to delete.
 */
async function writeFiles(
  services: SyncContext,
  ws: GitWorkspace,
  job: SyncJob,
  config: GitbookConfig | undefined,
  files: ExportedFile[],
  known: ReadonlySet<string>,
): Promise<void> {
  const project = path.join(ws.repo, job.projectDir);
  const root = path.join(project, config?.root ?? '');
  const inside = (target: string) => {
    const relative = path.relative(ws.repo, target);
    if (relative.startsWith('..') || path.isAbsolute(relative) || relative.split(path.sep)[0] === '.git')
      throw new SyncFailure(`refusing to write outside the project directory: ${relative}`);
    return target;
  };
  const wanted = new Set(files.map((f) => path.join(project, f.path)));
  for (const existing of walk(root)) {
    const inRepo = path.relative(ws.repo, existing).split(path.sep).join('/');
    if (known.has(inRepo) && !wanted.has(existing)) rmSync(existing);
  }
  for (const file of files) {
    const target = inside(path.join(project, file.path));
    mkdirSync(path.dirname(target), { recursive: true });
    if (file.text !== undefined) writeFileSync(target, file.text);
    else if (file.file) {
      const data = await services.blobs.get(file.file.blob);
      if (!data)
        throw new SyncFailure(`the bytes of file "${file.file.name}" are missing from the blob store`);
      writeFileSync(target, data);
    }
  }
}

/** The three-way merge of the moved branch into the space, its tree written (no revision yet). */
interface Merged {
  remoteCommit: string;
  remoteMessage: string;
  lastRevision: string;
  oursRevision: string;
  oursTree: string;
  /** The branch's head as content (ids matched with the revision synced last). */
  theirsTree: string;
  treeHash: string;
  changedPages: Set<string>;
  content: RevisionContent;
  bodies: Map<string, string>;
  texts: Map<string, string>;
}

async function mergeRemote(
  deps: Deps,
  services: SyncContext,
  job: SyncJob,
  ws: GitWorkspace,
  at: {
    remoteCommit: string;
    remoteMessage: string;
    lastRevision: string;
    oursRevision: string;
    oursTree: string;
    config: GitbookConfig | undefined;
  },
): Promise<Merged> {
  // The assets of the revision synced last that the branch still has are not read again.
  const last = await snapshotOf(services, deps.db, at.lastRevision);
  const unchanged = unchangedIn(last.content, services.git.pageFiles);
  const files = await readRepo(ws, at.remoteCommit, job.projectDir, unchanged, services.git.pageFiles);
  const { remoteMessage } = at;
  // Everything written here is content-addressed (bodies, trees, blobs) and no revision points
  // at it yet; a conflict rolls it back.
  return deps.db.transaction().execute(async (tx) => {
    const base = await snapshotOf(services, tx, at.lastRevision);
    const ours = await services.store.snapshot(tx, at.oursTree);
    const now = deps.clock.now().toISOString();
    const imported = convert(
      services,
      files,
      job,
      withGitPaths(base.content, job, at.config),
      now,
      unchanged,
    );
    const { treeHash: theirsTree } = await writeImported(services, tx, base, imported);
    const theirs = await services.store.snapshot(tx, theirsTree);
    const result = await threeWayMerge(services.store, tx, base, ours, theirs);
    if (result.conflicts.length > 0)
      throw new SyncFailure(
        `the branch ${job.ref} moved since the last sync (now at ${at.remoteCommit.slice(0, 12)}) and its changes conflict with the space's (${result.conflicts.length} conflict${result.conflicts.length === 1 ? '' : 's'}, listed in the warnings); nothing was changed. Resolve them on either side, or export with force to overwrite the branch with the space's content`,
        result.conflicts.map((c) => c.message),
      );
    await storeFileData(services, imported.fileData.values());
    const snapshot = await services.store.snapshot(tx, result.treeHash!);
    return {
      remoteCommit: at.remoteCommit,
      remoteMessage,
      lastRevision: at.lastRevision,
      oursRevision: at.oursRevision,
      oursTree: at.oursTree,
      theirsTree,
      treeHash: result.treeHash!,
      changedPages: result.changedPages,
      content: snapshot.content,
      bodies: await bodiesOf(services, tx, snapshot.content),
      texts: await layoutTexts(services, tx, snapshot.content),
    };
  });
}

/**
 * Pages of the content gain the file they are exported to (when they came from Quire, not from
 * a file), so the branch's files match them by path when read back.
 */
function withGitPaths(
  content: RevisionContent,
  job: SyncJob,
  config: GitbookConfig | undefined,
): RevisionContent {
  const files = contentToRepo({
    content,
    bodies: new Map(),
    projectDir: job.projectDir,
    ...(config ? { config } : {}),
    writeConfig: false,
  });
  let pages: Map<string, PageNode> | undefined;
  for (const file of files) {
    const page = file.page ? content.pages.get(file.page) : undefined;
    if (!page || page.git) continue;
    pages ??= new Map(content.pages);
    pages.set(page.id, {
      ...page,
      git: { oid: '', path: job.projectDir ? `${job.projectDir}/${file.path}` : file.path },
    });
  }
  return pages ? { ...content, pages } : content;
}

/**
 * The merge as revisions of the space: the branch's head (not moving the space), then the
 * merge of it with the revision exported, the space moved to it with links and search following.
 */
async function applyMerged(
  deps: Deps,
  services: SyncContext,
  job: SyncJob,
  merged: Merged,
  pushed: { oid: string; message: string; created: boolean },
): Promise<{ revisionId: string; warnings: string[] }> {
  return deps.db.transaction().execute(async (tx) => {
    const space = await services.spaces.lockRow(tx, job.spaceId);
    if (!space || space.deleted_at) throw new SyncFailure('the space was deleted');
    const now = deps.clock.now().toISOString();
    const git = commitOf(job, pushed.oid, pushed.message, pushed.created);
    const unmoved = space.revision_id === merged.oursRevision;
    // The branch's changes were already in the space: the export is a plain one.
    if (merged.treeHash === merged.oursTree && unmoved) {
      await setRevisionGit(tx, merged.oursRevision, git);
      return { revisionId: merged.oursRevision, warnings: [] };
    }
    const theirs = await insertRevision(tx, {
      spaceId: job.spaceId,
      treeHash: merged.theirsTree,
      parents: [merged.lastRevision],
      type: 'edits',
      createdBy: job.actorId,
      createdAt: now,
      git: commitOf(job, merged.remoteCommit, merged.remoteMessage, false),
    });
    // The space had no changes of its own since the last sync: it takes the branch's head.
    const exported =
      merged.treeHash === merged.theirsTree && !pushed.created
        ? theirs
        : await insertRevision(tx, {
            spaceId: job.spaceId,
            treeHash: merged.treeHash,
            parents: [merged.oursRevision, theirs.id],
            type: 'merge',
            createdBy: job.actorId,
            createdAt: now,
            git,
          });
    let target = exported;
    let changedPages = merged.changedPages;
    if (!unmoved) {
      // Edited while exporting: those edits are merged with what was pushed.
      const snapshot = (hash: string) => services.store.snapshot(tx, hash);
      const current = await snapshotOf(services, tx, space.revision_id);
      const again = await threeWayMerge(
        services.store,
        tx,
        await snapshot(merged.oursTree),
        current,
        await snapshot(merged.treeHash),
      );
      if (again.conflicts.length > 0)
        return {
          revisionId: exported.id,
          warnings: [
            `the space was edited during the export and those edits conflict with the branch's changes; the merged content is revision ${exported.id}, the space was left as it is`,
            ...again.conflicts.map((c) => c.message),
          ],
        };
      target = await insertRevision(tx, {
        spaceId: job.spaceId,
        treeHash: again.treeHash!,
        parents: [space.revision_id, exported.id],
        type: 'merge',
        createdBy: job.actorId,
        createdAt: now,
      });
      changedPages = again.changedPages;
    }
    await services.spaces.moveHead(tx, { spaceId: job.spaceId, revisionId: target.id, by: job.actorId }, now);
    await services.links.reindex(
      tx,
      job.spaceId,
      (await services.store.snapshot(tx, target.tree_hash)).content,
      changedPages,
    );
    return { revisionId: exported.id, warnings: [] };
  });
}

async function recordSynced(deps: Deps, job: SyncJob, commit: string, revisionId: string): Promise<void> {
  await deps.db
    .updateTable('git_syncs')
    .set({
      last_commit: commit,
      last_revision: revisionId,
      ...(job.timestamp ? { last_timestamp: job.timestamp } : {}),
    })
    .where('space_id', '=', job.spaceId)
    .execute();
}

function* walk(dir: string): Generator<string> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === '.git') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}
