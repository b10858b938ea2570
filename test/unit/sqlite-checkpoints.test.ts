import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { WAL_FALLBACK_PAGES } from '../../src/db/sqlite-checkpoints.js';

// The write-ahead log copied back into the database file by a thread, not by commits.
let dir: string;
let file: string;
let database: Database | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-checkpoints-'));
  file = path.join(dir, 'quire.db');
});

afterEach(async () => {
  await database?.close();
  database = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** About 2,000 pages of 4 KB written in one commit: twice SQLite's automatic checkpoint. */
async function writeMegabytes(db: Database['db']): Promise<void> {
  await sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`.execute(db);
  await db.transaction().execute(async (tx) => {
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
      INSERT INTO blobs (id, data) SELECT i, randomblob(4000) FROM n`.execute(tx);
  });
}

describe('SQLite checkpoints', () => {
  it('leaves a commit its log, which the thread copies into the file when asked, and the log starts over', async () => {
    // The thread's own timer set out of the way: only `now()` checkpoints here.
    database = await openDatabase({ sqliteFile: file, sqliteCheckpointMs: 3_600_000 });
    const { db } = database;
    const { rows } = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(db);
    expect(rows[0]?.wal_autocheckpoint).toBe(WAL_FALLBACK_PAGES);

    await writeMegabytes(db);
    // SQLite's own checkpoint (1,000 pages) would have copied 8 MB into the file in the commit.
    expect(statSync(file).size).toBeLessThan(1_000_000);

    const done = await database.checkpoints!.now();
    expect(done!.log).toBeGreaterThan(2000);
    expect(done!.checkpointed).toBe(done!.log);
    expect(statSync(file).size).toBeGreaterThan(8_000_000);
    const count = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM blobs`.execute(db);
    expect(count.rows[0]?.n).toBe(2000);

    // The next commit starts the log over, from its first page.
    await sql`UPDATE blobs SET data = randomblob(10) WHERE id = 1`.execute(db);
    const next = await database.checkpoints!.now();
    expect(next!.log).toBeLessThan(20);
    expect(next!.checkpointed).toBe(next!.log);
  });

  it('checkpoints by itself after commits, and not without them', async () => {
    database = await openDatabase({ sqliteFile: file, sqliteCheckpointMs: 20 });
    await writeMegabytes(database.db);
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(8_000_000), { timeout: 10_000 });
    const first = await database.checkpoints!.now();
    // Asked again with no commit since, it reports the same checkpoint.
    expect(await database.checkpoints!.now()).toEqual(first);
  });

  it('has no thread for a database in memory', async () => {
    database = await openDatabase({ sqliteFile: ':memory:' });
    expect(database.checkpoints).toBeUndefined();
  });
});
