import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { acquireLock, tryLock } from './lock.js';
import { GitError, GitWorkspace, type Remote } from './runner.js';

/**
 * A bare repository per remote (and project directory) under `<dataDir>/git-cache`, kept
 * between syncs: each sync fetches into it, so a re-sync downloads only new objects, and reads
 * its files from it. Named by the SHA-256 of the URL (never holding credentials, which reach
 * git per command through its environment) and the project directory; its configuration is what
 * `git init --bare` writes, nothing more (no remote is recorded: the URL is given per fetch).
 *
 * One sync at a time uses a cache: a lock file beside it (lock.ts) is held from the fetch to the
 * end of the sync's git work, across every Quire process sharing the data directory. A sync that
 * waits too long for it works in a temporary repository instead. A cache that fails (damaged
 * objects, an interrupted write, a vanished directory) is deleted and made again, once, with a
 * log line; caches unused for `UNUSED_DAYS` are removed (`sweep`, at start-up and hourly after
 * syncs).
 *
 * Whole fetches, not partial clones: measured with git http-backend on loopback (bench/git's
 * 301-page, 1,000-asset, 20 MiB repository), a first fetch took 270 ms whole against 450–530 ms
 * as `--filter=blob:none` plus a second fetch of the project's 1,302 blobs; only in a monorepo
 * (the same docs under docs/ beside 80 MiB of other files) was the partial fetch faster (660–700
 * ms against 1.3–1.5 s). Every re-sync would pay the second round trip for the changed blobs,
 * servers must allow filters (uploadpack.allowFilter and allowAnySHA1InWant), and an export's
 * checkout needs every blob of the tree anyway; with the cache, a whole first fetch is paid once.
 */

export const CACHE_DIR = 'git-cache';
/** A cache not used for this long is removed. */
export const UNUSED_DAYS = 14;
/** How long a sync waits for another one using the same cache before working without it. */
const LOCK_WAIT_MS = 60_000;
/** A lock not refreshed for this long (its holder refreshes it every quarter of it) is stale. */
const LOCK_STALE_MS = 60_000;
const SWEEP_EVERY_MS = 60 * 60_000;
/** Temporary workspaces older than this are leftovers of a crash. */
const WORK_LEFTOVER_MS = 24 * 60 * 60_000;
const USED_MARK = 'quire-used';

/** The cache's name: SHA-256 of the URL (credentials, fragment and trailing slashes dropped) and the project directory. */
export function cacheKey(url: URL, projectDir: string): string {
  const normal = new URL(url.toString());
  normal.username = '';
  normal.password = '';
  normal.hash = '';
  normal.pathname = normal.pathname.replace(/\/+$/, '') || '/';
  return createHash('sha256').update(`${normal.toString()}\n${projectDir}`).digest('hex');
}

export type WorkspaceKind = 'bare' | 'checkout';

export class GitCache {
  private lastSweep = 0;

  constructor(
    private readonly dataDir: string,
    private readonly timeoutMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  get root(): string {
    return path.join(this.dataDir, CACHE_DIR);
  }

  /**
   * Runs `work` on a workspace whose fetches go to the remote's cache: the cache itself
   * (`bare`: reading files), or a temporary checkout reading its objects from the cache
   * (`checkout`: exporting). When the cache fails with an error that is not the remote's, it is
   * made again and `work` runs once more (unless the workspace was `committed`).
   */
  async run<T>(
    remote: Remote,
    projectDir: string,
    kind: WorkspaceKind,
    work: (ws: GitWorkspace) => Promise<T>,
  ): Promise<T> {
    const key = cacheKey(remote.checked.url, projectDir);
    const dir = path.join(this.root, key);
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    const lock = await acquireLock(`${dir}.lock`, { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS });
    if (!lock) {
      this.log.warn({ gitCache: key }, 'git cache busy for too long; this sync works without it');
      return this.uncached(work);
    }
    try {
      for (let attempt = 1; ; attempt++) {
        let ws: GitWorkspace | undefined;
        try {
          await this.prepare(dir);
          ws = await this.workspace(dir, kind);
          const result = await work(ws);
          ws.dispose();
          ws = undefined;
          await this.maintain(dir, key);
          return result;
        } catch (error) {
          const committed = ws?.committed ?? false;
          ws?.dispose();
          if (attempt > 1 || committed || !cacheTrouble(error)) throw error;
          this.log.warn(
            { gitCache: key, reason: (error as Error).message },
            'git cache unusable; deleted and made again',
          );
          rmSync(dir, { recursive: true, force: true });
        }
      }
    } finally {
      lock.release();
    }
  }

  /** Without the cache: a temporary repository, as when no cache existed. */
  private async uncached<T>(work: (ws: GitWorkspace) => Promise<T>): Promise<T> {
    const ws = await GitWorkspace.create(this.dataDir, this.timeoutMs);
    try {
      return await work(ws);
    } finally {
      ws.dispose();
    }
  }

  private async workspace(dir: string, kind: WorkspaceKind): Promise<GitWorkspace> {
    if (kind === 'checkout') return GitWorkspace.create(this.dataDir, this.timeoutMs, dir);
    return GitWorkspace.inCache(dir, this.root, this.timeoutMs);
  }

  /**
   * The cache made when missing (initialized beside its name, then renamed: a crash leaves no
   * half-made cache under the name); what an interrupted git left behind removed (its lock files,
   * as no other git runs in the cache while we hold its lock, and temporary packs); marked used.
   */
  private async prepare(dir: string): Promise<void> {
    if (!isRepository(dir)) {
      rmSync(dir, { recursive: true, force: true });
      const fresh = `${dir}.new`;
      rmSync(fresh, { recursive: true, force: true });
      const ws = GitWorkspace.inCache(this.root, this.root, this.timeoutMs);
      await ws.git(['init', '-q', '--bare', '--template=', fresh]);
      renameSync(fresh, dir);
    } else removeLeftovers(dir);
    const mark = path.join(dir, USED_MARK);
    const now = new Date();
    try {
      utimesSync(mark, now, now);
    } catch {
      writeFileSync(mark, '');
    }
  }

  /** `git gc --auto`'s thresholds checked here (cheap), and gc run under our lock when they are passed. */
  private async maintain(dir: string, key: string): Promise<void> {
    let loose = 0;
    let packs = 0;
    try {
      loose = readdirSync(path.join(dir, 'objects', '17')).length;
    } catch {
      // none
    }
    try {
      packs = readdirSync(path.join(dir, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
    } catch {
      // none
    }
    // git's defaults: 6,700 loose objects (27 in one of the 256 folders) or 50 packs.
    if (loose <= 27 && packs <= 50) return;
    try {
      await GitWorkspace.inCache(dir, this.root, this.timeoutMs).git([
        '-c',
        'gc.autoDetach=false',
        'gc',
        '--auto',
        '--quiet',
      ]);
    } catch (error) {
      this.log.warn({ gitCache: key, reason: (error as Error).message }, 'git cache maintenance failed');
    }
  }

  /** At most hourly: `sweep`, in the background. */
  sweepSoon(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    setImmediate(() => {
      try {
        this.sweep();
      } catch (error) {
        this.log.warn({ reason: (error as Error).message }, 'git cache sweep failed');
      }
    });
  }

  /**
   * Removes caches not used for `UNUSED_DAYS` (of spaces whose sync was removed, or whose URL
   * changed) and that no sync holds, and temporary workspaces a crash left; answers how many.
   */
  sweep(now = Date.now()): number {
    this.lastSweep = now;
    let removed = 0;
    let entries: string[] = [];
    try {
      entries = readdirSync(this.root);
    } catch {
      // no cache yet
    }
    for (const name of entries) {
      const dir = path.join(this.root, name);
      if (/^[0-9a-f]{64}\.lock$/.test(name)) {
        // The lock of a cache removed otherwise, when nobody holds it.
        if (!existsSync(dir.slice(0, -'.lock'.length))) tryLock(dir, LOCK_STALE_MS)?.release();
        continue;
      }
      if (/\.new$/.test(name) || /\.stale$/.test(name)) {
        if (now - mtime(dir) > WORK_LEFTOVER_MS) rmSync(dir, { recursive: true, force: true });
        continue;
      }
      if (!/^[0-9a-f]{64}$/.test(name)) continue;
      const used = Math.max(mtime(path.join(dir, USED_MARK)), mtime(dir));
      if (now - used < UNUSED_DAYS * 24 * 60 * 60_000) continue;
      const lock = tryLock(`${dir}.lock`, LOCK_STALE_MS);
      if (!lock) continue;
      try {
        rmSync(dir, { recursive: true, force: true });
        removed++;
      } finally {
        lock.release();
      }
    }
    const work = path.join(this.dataDir, 'git-work');
    try {
      for (const name of readdirSync(work)) {
        const dir = path.join(work, name);
        if (name.startsWith('sync-') && now - mtime(dir) > WORK_LEFTOVER_MS)
          rmSync(dir, { recursive: true, force: true });
      }
    } catch {
      // none
    }
    if (removed > 0) this.log.info({ removed }, 'unused git caches removed');
    return removed;
  }
}

/** Errors of the cache rather than of the remote: git failing for a reason it does not name. */
function cacheTrouble(error: unknown): boolean {
  return error instanceof GitError && error.kind === 'git';
}

function isRepository(dir: string): boolean {
  return (
    existsSync(path.join(dir, 'HEAD')) &&
    existsSync(path.join(dir, 'objects')) &&
    existsSync(path.join(dir, 'refs')) &&
    existsSync(path.join(dir, 'config'))
  );
}

function removeLeftovers(dir: string): void {
  for (const name of ['HEAD.lock', 'config.lock', 'packed-refs.lock', 'shallow.lock', 'index.lock'])
    rmSync(path.join(dir, name), { force: true });
  const refs = (folder: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) refs(full);
      else if (entry.name.endsWith('.lock')) rmSync(full, { force: true });
    }
  };
  refs(path.join(dir, 'refs'));
  const objects = path.join(dir, 'objects');
  try {
    for (const name of readdirSync(objects))
      if (name.startsWith('incoming-') || name.startsWith('tmp_'))
        rmSync(path.join(objects, name), { recursive: true, force: true });
  } catch {
    // none
  }
  const packs = path.join(objects, 'pack');
  try {
    for (const name of readdirSync(packs))
      if (name.startsWith('tmp_') || name.startsWith('.tmp-'))
        rmSync(path.join(packs, name), { force: true });
  } catch {
    // none
  }
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
