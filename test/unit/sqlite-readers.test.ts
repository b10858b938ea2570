import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';

// Reader threads against a real database file, beside the server's own connection.
let dir: string;
let database: Database;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-readers-'));
  database = await openDatabase({ sqliteFile: path.join(dir, 'quire.db') });
  await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`.execute(database.db);
  await sql`INSERT INTO t (id, name) VALUES (1, 'one'), (2, 'two')`.execute(database.db);
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const read = <R>(query: ReturnType<typeof sql<R>>) => database.readers!.all<R>(query.compile(database.db));

describe('SQLite readers', () => {
  it('has none for a database in memory, whose rows no other connection sees', async () => {
    const memory = await openDatabase({ sqliteFile: ':memory:' });
    expect(memory.readers).toBeUndefined();
    await memory.close();
  });

  it('reads with parameters what the server committed, and what it commits next', async () => {
    expect(await read(sql<{ name: string }>`SELECT name FROM t WHERE id = ${2}`)).toEqual([{ name: 'two' }]);
    await sql`UPDATE t SET name = 'deux' WHERE id = 2`.execute(database.db);
    expect(await read(sql<{ name: string }>`SELECT name FROM t WHERE id = ${2}`)).toEqual([{ name: 'deux' }]);
  });

  it('does not see a transaction the server has not committed', async () => {
    await database.db.transaction().execute(async (tx) => {
      await sql`INSERT INTO t (id, name) VALUES (3, 'three')`.execute(tx);
      expect(await read(sql<{ n: number }>`SELECT COUNT(*) AS n FROM t`)).toEqual([{ n: 2 }]);
    });
    expect(await read(sql<{ n: number }>`SELECT COUNT(*) AS n FROM t`)).toEqual([{ n: 3 }]);
  });

  it('runs reads side by side, each answered with its own rows', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => (i % 2) + 1);
    const answers = await Promise.all(
      ids.map((id) => read(sql<{ id: number }>`SELECT id FROM t WHERE id = ${id}`)),
    );
    expect(answers).toEqual(ids.map((id) => [{ id }]));
  });

  it('answers a failing statement with its error and goes on reading', async () => {
    await expect(read(sql`SELECT nope FROM t`)).rejects.toThrow(/no such column: nope/);
    await expect(read(sql`UPDATE t SET name = 'x' RETURNING id`)).rejects.toThrow(/readonly/);
    expect(await read(sql<{ n: number }>`SELECT COUNT(*) AS n FROM t WHERE name = 'x'`)).toEqual([{ n: 0 }]);
  });

  it('refuses reads once the database is closed', async () => {
    const readers = database.readers!;
    await database.close();
    await expect(readers.all(sql`SELECT 1`.compile(database.db))).rejects.toThrow(/closed/);
    database = await openDatabase({ sqliteFile: path.join(dir, 'quire.db') });
  });
});
