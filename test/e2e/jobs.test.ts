import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Deps } from '../../src/deps.js';
import { Urls } from '../../src/http/urls.js';
import { newId } from '../../src/ids.js';
import { JobQueue } from '../../src/jobs/queue.js';

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

function queue(database: Database, clock: ManualClock): JobQueue {
  const deps: Deps = {
    config: loadConfig({}),
    database,
    db: database.db,
    dialect: database.dialect,
    clock,
    urls: new Urls('http://127.0.0.1'),
    log: pino({ level: 'silent' }),
  };
  return new JobQueue(deps, { backoffMs: 1000, leaseMs: 60_000 });
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
