import { randomUUID } from 'node:crypto';
import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';

/**
 * An exclusive lock on a path shared by every process using the same data directory: a lock
 * file created with O_EXCL holding its owner (host, process id, and a token of this process, so
 * a restarted process that got the same id does not take its predecessor's lock for its own).
 * The owner refreshes its modification time while it holds it; a lock whose owner is gone (same
 * host, no such process) or that has not been refreshed for `staleMs` is broken. The same file
 * serializes the holders inside one process.
 */

const PROCESS_TOKEN = randomUUID();
const HOST = hostname();

interface Owner {
  host: string;
  pid: number;
  token: string;
}

export interface HeldLock {
  release(): void;
}

export interface LockOptions {
  /** How long to wait for another holder before giving up (answering undefined). */
  waitMs: number;
  /** A lock not refreshed for this long is stale. */
  staleMs: number;
}

export async function acquireLock(file: string, options: LockOptions): Promise<HeldLock | undefined> {
  const deadline = Date.now() + options.waitMs;
  let pause = 10;
  for (;;) {
    const held = tryLock(file, options.staleMs);
    if (held) return held;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
    pause = Math.min(pause * 2, 200);
  }
}

/** One attempt: the lock, or undefined while someone else holds it (a stale lock is broken first). */
export function tryLock(file: string, staleMs: number): HeldLock | undefined {
  const owner: Owner = { host: HOST, pid: process.pid, token: `${PROCESS_TOKEN}:${randomUUID()}` };
  const text = JSON.stringify(owner);
  if (!create(file, text)) {
    if (!breakIfStale(file, staleMs)) return undefined;
    if (!create(file, text)) return undefined;
  }
  const heartbeat = setInterval(
    () => {
      try {
        const now = new Date();
        if (readFileSync(file, 'utf8') === text) utimesSync(file, now, now);
      } catch {
        // gone: released meanwhile, or broken by someone who judged it stale
      }
    },
    Math.max(50, Math.floor(staleMs / 4)),
  );
  heartbeat.unref();
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        if (readFileSync(file, 'utf8') === text) unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
}

function create(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes the lock file when its owner is gone; answers whether it did (or found it gone). The
 * file is first renamed to a name of our own, so of two processes judging the same lock stale
 * only one removes it; if what was renamed turns out to be another, fresh lock (taken between
 * our read and the rename), it is put back.
 */
function breakIfStale(file: string, staleMs: number): boolean {
  let text: string;
  let mtime: number;
  try {
    text = readFileSync(file, 'utf8');
    mtime = statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (!isStale(text, mtime, staleMs)) return false;
  const aside = `${file}.${randomUUID()}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    // unreadable: treat as the stale one
  }
  if (moved !== text && moved !== '') {
    // A fresh lock was taken meanwhile: give it back unless yet another one exists now.
    if (create(file, moved)) {
      unlinkSync(aside);
      return false;
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
  return true;
}

function isStale(text: string, mtimeMs: number, staleMs: number): boolean {
  if (Date.now() - mtimeMs > staleMs) return true;
  let owner: Partial<Owner>;
  try {
    owner = JSON.parse(text) as Partial<Owner>;
  } catch {
    // Being written right now (created, not yet filled), or damaged: wait for the age test.
    return false;
  }
  if (owner.host !== HOST || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return !owner.token?.startsWith(`${PROCESS_TOKEN}:`);
  return !alive(owner.pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
