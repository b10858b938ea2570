import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, tryLock } from '../../src/git/lock.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-lock-'));
  file = path.join(dir, 'cache.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const STALE = 60_000;
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('git cache lock', () => {
  it('is held by one holder at a time, in this process too, and removed on release', () => {
    const first = tryLock(file, STALE);
    expect(first).toBeDefined();
    expect(tryLock(file, STALE)).toBeUndefined();
    first!.release();
    expect(existsSync(file)).toBe(false);
    const second = tryLock(file, STALE);
    expect(second).toBeDefined();
    first!.release(); // a second release does not take the new holder's lock
    expect(existsSync(file)).toBe(true);
    second!.release();
  });

  it('waits for the holder, and gives up after waitMs', async () => {
    const held = tryLock(file, STALE)!;
    expect(await acquireLock(file, { waitMs: 100, staleMs: STALE })).toBeUndefined();
    setTimeout(() => held.release(), 100);
    const next = await acquireLock(file, { waitMs: 5_000, staleMs: STALE });
    expect(next).toBeDefined();
    next!.release();
  });

  it('breaks a lock whose process is gone (same host), or an earlier process of the same id', () => {
    writeFileSync(file, JSON.stringify({ host: hostname(), pid: deadPid(), token: 'gone:1' }));
    const a = tryLock(file, STALE);
    expect(a).toBeDefined();
    a!.release();
    writeFileSync(file, JSON.stringify({ host: hostname(), pid: process.pid, token: 'before-restart:1' }));
    const b = tryLock(file, STALE);
    expect(b).toBeDefined();
    b!.release();
  });

  it('keeps a fresh lock of another host or of a live process, and breaks it once not refreshed for staleMs', () => {
    writeFileSync(file, JSON.stringify({ host: 'elsewhere', pid: 1, token: 'x:1' }));
    expect(tryLock(file, STALE)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ host: hostname(), pid: process.ppid, token: 'parent:1' }));
    expect(tryLock(file, STALE)).toBeUndefined();
    writeFileSync(file, 'half-written');
    expect(tryLock(file, STALE)).toBeUndefined();
    const past = new Date(Date.now() - 2 * STALE);
    utimesSync(file, past, past);
    const lock = tryLock(file, STALE);
    expect(lock).toBeDefined();
    lock!.release();
  });

  it('is refreshed while held, so a long sync keeps it', async () => {
    const held = tryLock(file, 200)!;
    const past = new Date(Date.now() - 10_000);
    utimesSync(file, past, past);
    await new Promise((r) => setTimeout(r, 150));
    // Refreshed by its holder (every staleMs / 4): not stale for another process.
    expect(tryLock(file, 200)).toBeUndefined();
    held.release();
  });
});
