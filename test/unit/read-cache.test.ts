import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ReadCache } from '../../src/db/read-cache.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quire-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('read cache', () => {
  it('serves a hit only while the generation is unchanged', async () => {
    let generation = 'a';
    const cache = new ReadCache({ generation: () => generation });
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.read('k', load)).toEqual({ n: 1 });
    expect(await cache.read('k', load)).toEqual({ n: 1 });
    generation = 'b';
    expect(await cache.read('k', load)).toEqual({ n: 2 });
    const frozen = await cache.read('k', load);
    expect(() => {
      (frozen as { n: number }).n = 5;
    }).toThrow();
  });

  it('never caches without a generation', async () => {
    const cache = new ReadCache({ generation: () => undefined });
    let loads = 0;
    await cache.read('k', async () => ++loads);
    await cache.read('k', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('sees commits made by this process and by another connection to the same SQLite file', async () => {
    const file = path.join(dir, 'quire.db');
    const database = await openDatabase({ sqliteFile: file });
    await migrateToLatest(database);
    const read = () =>
      database.cache.read('users', () => database.db.selectFrom('users').select('email').execute());
    await nextTurn();
    expect(await read()).toEqual([]);

    await database.db
      .insertInto('users')
      .values({ id: 'u1', email: 'one@example.test', display_name: 'One', photo_url: null, created_at: 'x' })
      .execute();
    expect((await read()).map((r) => r.email)).toEqual(['one@example.test']);

    const other = new SQLite(file);
    other
      .prepare('insert into users (id, email, display_name, created_at) values (?, ?, ?, ?)')
      .run('u2', 'two@example.test', 'Two', 'x');
    other.close();
    await nextTurn();
    expect((await read()).map((r) => r.email).sort()).toEqual(['one@example.test', 'two@example.test']);
    await database.close();
  });
});
