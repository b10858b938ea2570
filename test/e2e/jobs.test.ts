import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Deps } from '../../src/deps.js';
import { Urls } from '../../src/http/urls.js';
import { newId } from '../../src/ids.js';
import { JobLeaseLost, JobQueue, type QueueOptions } from '../../src/jobs/queue.js';

/**
 * The durable job queue against real databases: a file SQLite database, or a PostgreSQL schema
 * opened through separate connection pools, as separate server processes would.
 */

const dir = mkdtempSync(path.join(tmpdir(), 'quire-jobs-'));
const schema = `jobs_${newId(10).toLowerCase()}`;
const opened: Database[] = [];

async function open(): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    sqliteFile: path.join(dir, 'quire.db'),
    pgSchema: schema,
    pgPoolSize: 4,
  });
  await migrateToLatest(database);
  opened.push(database);
  return database;
}

function queue(
  database: Database,
  clock: ManualClock,
  options: { options?: QueueOptions; db?: Deps['db']; logs?: string[] } = {},
): JobQueue {
  const { logs } = options;
  const deps: Deps = {
    config: loadConfig({}),
    database,
    db: options.db ?? database.db,
    dialect: database.dialect,
    clock,
    urls: new Urls('http://127.0.0.1'),
    log: logs
      ? pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) })
      : pino({ level: 'silent' }),
  };
  return new JobQueue(deps, { backoffMs: 1000, leaseMs: 60_000, ...options.options });
}

afterAll(async () => {
  if (process.env.DATABASE_URL && opened[0]) {
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(opened[0].db);
  }
  for (const database of opened) await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('job queue', () => {
  it('retries a failing job with exponential backoff, then records the outcome', async () => {
    const clock = new ManualClock('2026-05-01T00:00:00.000Z');
    const q = queue(await open(), clock);
    let calls = 0;
    q.register('flaky', async () => {
      calls++;
      if (calls < 3) throw new Error(`boom ${calls}`);
    });
    const id = await q.enqueue('flaky', { n: 1 });
    expect(await q.runDue()).toBe(1);
    let job = await q.get(id);
    expect(job).toMatchObject({
      status: 'queued',
      attempts: 1,
      last_error: 'boom 1',
      run_at: '2026-05-01T00:00:01.000Z',
    });
    expect(await q.runDue()).toBe(0);
    clock.advance(1000);
    expect(await q.runDue()).toBe(1);
    job = await q.get(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 2, run_at: '2026-05-01T00:00:03.000Z' });
    clock.advance(2000);
    await q.runDue();
    expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 3, last_error: null });
    expect(calls).toBe(3);
  });

  it('gives up after the last attempt', async () => {
    const clock = new ManualClock('2026-05-02T00:00:00.000Z');
    const q = queue(await open(), clock);
    q.register(
      'doomed',
      async () => {
        throw new Error('always');
      },
      { maxAttempts: 2 },
    );
    const id = await q.enqueue('doomed', {});
    await q.runDue();
    clock.advance(10_000);
    await q.runDue();
    expect(await q.get(id)).toMatchObject({ status: 'failed', attempts: 2, last_error: 'always' });
  });

  it('keeps a job across a restart', async () => {
    const clock = new ManualClock('2026-05-03T00:00:00.000Z');
    const first = await open();
    const before = queue(first, clock);
    const id = await before.enqueue('later', { value: 42 });
    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const after = queue(await open(), clock);
    const seen: unknown[] = [];
    after.register('later', async (payload) => {
      seen.push(payload);
    });
    expect(await after.runDue()).toBeGreaterThanOrEqual(1);
    expect(seen).toContainEqual({ value: 42 });
    expect((await after.get(id))?.status).toBe('done');
  });

  it('runs each job once when several workers share the database', async () => {
    const clock = new ManualClock('2026-05-04T00:00:00.000Z');
    const workers = [queue(await open(), clock), queue(await open(), clock), queue(await open(), clock)];
    const runs = new Map<string, number>();
    for (const w of workers) {
      w.register('count', async (_payload, { jobId }) => {
        runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 2));
      });
    }
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await workers[i % 3]!.enqueue('count', { i }));
    const ran = await Promise.all(workers.map((w) => w.runDue()));
    expect(ran.reduce((a, b) => a + b, 0)).toBe(60);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(runs.keys())).toEqual(new Set(ids));
    if (process.env.DATABASE_URL) expect(ran.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('stops after the job in hand, leaving the rest of the queue to the next worker', async () => {
    const clock = new ManualClock('2026-05-04T12:00:00.000Z');
    const database = await open();
    const worker = queue(database, clock);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    const ran: string[] = [];
    worker.register('step', async (_payload, { jobId }) => {
      started();
      await held;
      ran.push(jobId);
    });
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push(await worker.enqueue('step', { n }));
    worker.start();
    await running;
    const stopped = worker.stop();
    release();
    await stopped;
    expect(ran).toHaveLength(1);
    const statuses = await Promise.all(ids.map(async (id) => (await worker.get(id))?.status));
    expect(statuses.sort()).toEqual(['done', 'queued', 'queued']);

    const next = queue(database, clock);
    next.register('step', async (_payload, { jobId }) => void ran.push(jobId));
    expect(await next.runDue()).toBe(2);
    expect(new Set(ran)).toEqual(new Set(ids));
  });

  it('reclaims a job whose worker stopped renewing its lease', async () => {
    const clock = new ManualClock('2026-05-05T00:00:00.000Z');
    const database = await open();
    const q = queue(database, clock);
    const id = await q.enqueue('abandoned', {});
    // a worker that died holding the job
    await database.db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: 'dead-worker',
        locked_until: '2026-05-05T00:00:30.000Z',
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    let ran = 0;
    q.register('abandoned', async () => {
      ran++;
    });
    expect(await q.runDue()).toBe(0);
    clock.advance(60_000);
    expect(await q.runDue()).toBe(1);
    expect(ran).toBe(1);
    expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('enqueues a scheduled job once per interval across workers', async () => {
    const clock = new ManualClock('2026-05-06T00:00:00.000Z');
    const a = queue(await open(), clock);
    const b = queue(await open(), clock);
    let runs = 0;
    for (const w of [a, b]) {
      w.register('tick', async () => {
        runs++;
      });
      w.schedule('tick-every-hour', 3_600_000, 'tick');
    }
    expect(
      (await Promise.all([a.enqueueDueSchedules(), b.enqueueDueSchedules()])).reduce((x, y) => x + y),
    ).toBe(1);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    clock.advance(1_800_000);
    expect(await a.enqueueDueSchedules()).toBe(0);
    clock.advance(1_800_000);
    expect(
      (await Promise.all([b.enqueueDueSchedules(), a.enqueueDueSchedules()])).reduce((x, y) => x + y),
    ).toBe(1);
  });
});

/** Marks a job as held by `holder` (a worker that died while running it). */
async function hold(database: Database, id: string, holder: string, until: string, attempts = 1) {
  await database.db
    .updateTable('jobs')
    .set({ status: 'running', locked_by: holder, locked_until: until, attempts })
    .where('id', '=', id)
    .execute();
}

/** A holder on this host whose process has exited. */
function exitedProcessHolder(): string {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  return `w0rker:0therProcess:${pid}:${hostname()}`;
}

/** A holder that had this process's id: an earlier incarnation of the server (a container's pid 1). */
const earlierIncarnation = `w0rker:Earl1erToken:${process.pid}:${hostname()}`;

/** The shared database, emptied of the jobs earlier tests left. */
async function fresh(): Promise<Database> {
  const database = await open();
  await database.db.deleteFrom('jobs').execute();
  return database;
}

describe('crash recovery', () => {
  it('renews the lease of a running job while it runs (heartbeat)', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00.000Z');
    const database = await fresh();
    const q = queue(database, clock, { options: { leaseMs: 30_000, heartbeatMs: 10 } });
    const other = queue(database, clock, { options: { leaseMs: 30_000 } });
    q.register('long', async (_payload, { jobId }) => {
      expect((await q.get(jobId))?.locked_until).toBe('2026-06-01T00:00:30.000Z');
      clock.advance(20_000);
      await vi.waitFor(async () =>
        expect((await q.get(jobId))?.locked_until).toBe('2026-06-01T00:00:50.000Z'),
      );
      // Past the first lease: held all the same, no other worker takes the job.
      clock.advance(20_000);
      await vi.waitFor(async () =>
        expect((await q.get(jobId))?.locked_until).toBe('2026-06-01T00:01:10.000Z'),
      );
      expect(await q.isLive(jobId)).toBe(true);
      expect(await other.runDue()).toBe(0);
    });
    const id = await q.enqueue('long', {});
    expect(await q.runDue()).toBe(1);
    expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 1, locked_by: null });
    expect(await q.isLive(id)).toBe(false);
  });

  it('takes back at once the jobs of a gone process of this host; others when their short lease lapses', async () => {
    const clock = new ManualClock('2026-06-02T00:00:00.000Z');
    const database = await fresh();
    const q = queue(database, clock, { options: { leaseMs: 30_000 } });
    const runs: string[] = [];
    q.register('work', async (payload) => {
      runs.push((payload as { name: string }).name);
    });
    const exited = await q.enqueue('work', { name: 'exited' });
    const earlier = await q.enqueue('work', { name: 'earlier' });
    const elsewhere = await q.enqueue('work', { name: 'elsewhere' });
    const leased = '2026-06-02T00:00:30.000Z';
    await hold(database, exited, exitedProcessHolder(), leased);
    await hold(database, earlier, earlierIncarnation, leased);
    // Another host: whether its process lives cannot be known here, its lease decides.
    await hold(database, elsewhere, 'w0rker:0therHost:1:some-other-host.example', leased);
    expect(await q.isLive(exited)).toBe(false);
    expect(await q.isLive(elsewhere)).toBe(true);

    expect(await q.runDue()).toBe(2);
    expect(runs.sort()).toEqual(['earlier', 'exited']);
    clock.advance(30_001);
    expect(await q.isLive(elsewhere)).toBe(false);
    expect(await q.runDue()).toBe(1);
    expect(runs).toContain('elsewhere');
    for (const id of [exited, earlier, elsewhere])
      expect(await q.get(id)).toMatchObject({ status: 'done', attempts: 2, last_error: null });
  });

  it('never runs a job again past its attempts: a run that died counts, and its kind records the failure', async () => {
    const clock = new ManualClock('2026-06-03T00:00:00.000Z');
    const database = await fresh();
    const q = queue(database, clock, { options: { leaseMs: 30_000 } });
    let ran = 0;
    const lost: unknown[] = [];
    q.register(
      'once',
      async () => {
        ran++;
      },
      { maxAttempts: 1, onLost: async (payload) => void lost.push(payload) },
    );
    const dead = await q.enqueue('once', { space: 'a' });
    const lapsed = await q.enqueue('once', { space: 'b' });
    await hold(database, dead, exitedProcessHolder(), '2026-06-03T00:10:00.000Z');
    await hold(database, lapsed, 'w0rker:0therHost:1:some-other-host.example', '2026-06-03T00:00:30.000Z');
    expect(await q.runDue()).toBe(1);
    clock.advance(31_000);
    expect(await q.runDue()).toBe(1);
    expect(ran).toBe(0);
    expect(lost).toEqual([{ space: 'a' }, { space: 'b' }]);
    for (const id of [dead, lapsed]) {
      const job = await q.get(id);
      expect(job).toMatchObject({ status: 'failed', attempts: 1, locked_by: null });
      expect(job?.last_error).toMatch(/^interrupted: the server running this job stopped .*not run again/);
    }
    clock.advance(3_600_000);
    expect(await q.runDue()).toBe(0);

    // With attempts left, the interrupted run counts as one and the job runs again.
    q.register('twice', async () => {
      ran++;
    });
    const again = await q.enqueue('twice', {}, { maxAttempts: 2 });
    await hold(database, again, earlierIncarnation, '2026-06-03T02:00:00.000Z');
    expect(await q.runDue()).toBe(1);
    expect(ran).toBe(1);
    expect(await q.get(again)).toMatchObject({ status: 'done', attempts: 2, last_error: null });
  });

  it('logs a database error while renewing a lease, never rejects unhandled, and stops the job once the lease lapsed', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const clock = new ManualClock('2026-06-04T00:00:00.000Z');
      const database = await fresh();
      let failing = false;
      // The same database, except that while `failing`, updates of the jobs table hit a table
      // that does not exist: a real database error, in the heartbeat.
      const db = new Proxy(database.db, {
        get(target, prop) {
          if (prop === 'updateTable' && failing)
            return (table: string) =>
              // biome-ignore lint/suspicious/noExplicitAny: a table the types do not know, on purpose
              (target as any).updateTable(table === 'jobs' ? 'jobs_gone' : table);
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const logs: string[] = [];
      const q = queue(database, clock, { db, logs, options: { leaseMs: 30_000, heartbeatMs: 10 } });
      let reason: unknown;
      q.register('fragile', async (_payload, { signal }) => {
        failing = true;
        await vi.waitFor(() => expect(logs.join('\n')).toContain('job lease renewal failed'));
        expect(signal.aborted).toBe(false);
        clock.advance(30_001);
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        reason = signal.reason;
        failing = false;
      });
      const id = await q.enqueue('fragile', {});
      expect(await q.runDue()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reason).toBeInstanceOf(JobLeaseLost);
      expect(String((reason as Error).message)).toContain('could not be renewed');
      expect(logs.join('\n')).toContain('job lease lost; the job stops');
      expect(unhandled).toEqual([]);
      // Nobody took the job meanwhile: what it did is recorded.
      expect((await q.get(id))?.status).toBe('done');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('the background worker', () => {
  it('runs jobs of different kinds at once, up to its bound, and never two of one kind', async () => {
    const clock = new ManualClock('2026-05-01T00:00:00.000Z');
    const q = queue(await open(), clock, { options: { pollMs: 20, concurrency: 2 } });
    const running = new Map<string, number>();
    let most = 0;
    let mostOfOneKind = 0;
    const releases: Array<() => void> = [];
    const started: string[] = [];
    const handler = (kind: string) => async () => {
      running.set(kind, (running.get(kind) ?? 0) + 1);
      started.push(kind);
      const total = [...running.values()].reduce((a, b) => a + b, 0);
      most = Math.max(most, total);
      mostOfOneKind = Math.max(mostOfOneKind, running.get(kind)!);
      await new Promise<void>((resolve) => releases.push(resolve));
      running.set(kind, running.get(kind)! - 1);
    };
    for (const kind of ['slow', 'quick', 'third']) q.register(kind, handler(kind));
    await q.enqueue('slow', {});
    await q.enqueue('slow', {});
    await q.enqueue('quick', {});
    await q.enqueue('third', {});
    q.start();
    try {
      // A long job of one kind does not hold back a job of another (equal run times: any two kinds).
      await vi.waitFor(() => expect(new Set(started).size).toBe(2), { timeout: 5000 });
      // The bound holds: the third kind waits for a free slot, the second "slow" for the first.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(started).toHaveLength(2);
      while (started.length < 4 || releases.length > 0) {
        await vi.waitFor(() => expect(releases.length).toBeGreaterThan(0), { timeout: 5000 });
        releases.shift()!();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(most).toBe(2);
      expect(mostOfOneKind).toBe(1);
      expect(started.filter((k) => k === 'slow')).toHaveLength(2);
    } finally {
      for (const release of releases) release();
      await q.stop();
    }
  });
});
