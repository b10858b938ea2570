import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GitSyncsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { contentToRepo } from '../../git/content-to-repo.js';
import type { Credentials } from '../../git/credentials.js';
import { DEFAULT_CONFIG, type GitbookConfig, parseGitbookConfig } from '../../git/gitbook-yaml.js';
import { ASSETS_DIR } from '../../git/repo-to-content.js';
import { GitWorkspace } from '../../git/runner.js';
import type { Services } from '../../services.js';
import type { SyncJob } from './service.js';
import {
  commitOf,
  GIT_TIMEOUT_MS,
  remoteOf,
  SyncFailure,
  type SyncOutcome,
  snapshotOf,
} from './sync-import.js';

/**
 * Export: the space's current revision written as files in GitBook's format on top of the
 * branch (only files that differ change), committed and pushed. When the branch moved since
 * the last sync the export is refused unless `force` (then the space's content wins).
 */
export async function runExport(
  deps: Deps,
  services: Services,
  job: SyncJob,
  credentials: Credentials | undefined,
  row: GitSyncsTable | undefined,
): Promise<SyncOutcome> {
  const remote = await remoteOf(services, job, credentials);
  const { content, bodies, revisionId } = await deps.db.transaction().execute(async (tx) => {
    const space = await tx
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', job.spaceId)
      .executeTakeFirstOrThrow();
    const snapshot = await snapshotOf(services, tx, space.revision_id);
    const hashes = [...snapshot.content.pages.values()].flatMap((p) =>
      p.type === 'document' && p.body ? [p.body] : [],
    );
    const texts = await services.store.readBodies(tx, hashes);
    const bodies = new Map<string, string>();
    for (const page of snapshot.content.pages.values())
      if (page.type === 'document' && page.body) bodies.set(page.id, texts.get(page.body)!);
    return { content: snapshot.content, bodies, revisionId: space.revision_id };
  });

  const ws = await GitWorkspace.create(deps.config.dataDir, GIT_TIMEOUT_MS);
  try {
    const head = await ws.lsRemote(remote, job.ref);
    let parent: string | undefined;
    let config: GitbookConfig | undefined;
    if (head) {
      parent = await ws.fetch(remote, job.ref);
      const moved = row?.last_commit && row.last_commit !== parent;
      if (moved && !job.force)
        throw new SyncFailure(
          `the branch ${job.ref} moved since the last sync (now at ${parent.slice(0, 12)}, last synced ${row!.last_commit!.slice(0, 12)}); import it first, or export with force to overwrite it`,
        );
      await ws.git(['checkout', '-q', '-f', '--detach', parent]);
      const configPath = job.projectDir ? `${job.projectDir}/.gitbook.yaml` : '.gitbook.yaml';
      const listed = await ws.git(['ls-tree', parent, '--', configPath]);
      if (listed.trim() !== '') {
        try {
          config = parseGitbookConfig(await ws.git(['show', `${parent}:${configPath}`]));
        } catch (error) {
          throw new SyncFailure((error as Error).message);
        }
      }
    }
    if (!config && row?.redirects) config = { ...DEFAULT_CONFIG, redirects: JSON.parse(row.redirects) };
    const files = contentToRepo({
      content,
      bodies,
      projectDir: job.projectDir,
      ...(config ? { config } : {}),
      writeConfig: !head || !config,
    });

    const project = path.join(ws.repo, job.projectDir);
    const root = path.join(project, config?.root ?? '');
    const inside = (target: string) => {
      const relative = path.relative(ws.repo, target);
      if (relative.startsWith('..') || path.isAbsolute(relative) || relative.split(path.sep)[0] === '.git')
        throw new SyncFailure(`refusing to write outside the project directory: ${relative}`);
      return target;
    };
    // Files the format owns and the content no longer has go: page files and assets.
    const wanted = new Set(files.map((f) => path.join(project, f.path)));
    for (const existing of walk(root)) {
      const relative = path.relative(root, existing).split(path.sep).join('/');
      const owned = /\.md$/i.test(relative) || relative.startsWith(`${ASSETS_DIR}/`);
      if (owned && !wanted.has(existing)) rmSync(existing);
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
    await ws.git(['add', '-A', '--', job.projectDir || '.']);
    const staged = await ws.git(['diff', '--cached', '--name-only', ...(parent ? [] : ['--root'])]);
    if (parent && staged.trim() === '') {
      await recordSynced(deps, job, parent, revisionId);
      return { commit: parent, warnings: ['the branch already holds this content; nothing to commit'] };
    }
    const message = job.commitMessage ?? 'Export from Quire';
    await ws.git(['commit', '-q', '--no-verify', '-F', '-'], { input: message });
    const commit = (await ws.git(['rev-parse', 'HEAD'])).trim();
    // On top of the branch's head: a fast-forward, never a forced push.
    await ws.push(remote, commit, job.ref, false);
    await deps.db
      .updateTable('revisions')
      .set({ git: JSON.stringify(commitOf(job, commit, message, true)) })
      .where('id', '=', revisionId)
      .execute();
    await recordSynced(deps, job, commit, revisionId);
    return { commit, warnings: [] };
  } finally {
    ws.dispose();
  }
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
