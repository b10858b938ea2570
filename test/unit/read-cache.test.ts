import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { prepared } from '../../src/db/prepared.js';
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

  it('on SQLite, moves for a transaction or statement that changed rows, not for one that only read', async () => {
    const database = await openDatabase({ sqliteFile: path.join(dir, 'transactions.db') });
    await migrateToLatest(database);
    const { db } = database;
    let loads = 0;
    // The number of the load whose answer is kept: the same while the database is unchanged.
    const kept = async () => {
      await nextTurn();
      return database.cache.read('k', async () => ++loads);
    };
    const user = (id: string) => ({
      id,
      email: `${id}@example.test`,
      display_name: id,
      photo_url: null,
      created_at: 'x',
    });
    let before = await kept();
    // Only read, in a transaction (the job worker's, a flush of views with nothing to send).
    await db.transaction().execute((tx) => tx.selectFrom('users').selectAll().execute());
    expect(await kept()).toBe(before);
    // An update of no row, and one with RETURNING of no row.
    await db.updateTable('users').set({ display_name: 'none' }).where('id', '=', 'nobody').execute();
    await db
      .updateTable('users')
      .set({ display_name: 'none' })
      .where('id', '=', 'nobody')
      .returningAll()
      .execute();
    expect(await kept()).toBe(before);

    await db.transaction().execute((tx) => tx.insertInto('users').values(user('a')).execute());
    expect(await kept()).not.toBe(before);
    before = await kept();
    // RETURNING answers the rows it changed: a change.
    await db.updateTable('users').set({ display_name: 'A' }).where('id', '=', 'a').returningAll().execute();
    expect(await kept()).not.toBe(before);
    before = await kept();
    // A transaction that wrote, then rolled back: what was read inside it is gone.
    let inside = 0;
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('users').values(user('b')).execute();
        inside = await database.cache.read('k', async () => ++loads);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(inside).not.toBe(before);
    expect(await kept()).not.toBe(inside);
    expect(await db.selectFrom('users').select('id').execute()).toEqual([{ id: 'a' }]);
    await database.close();
  });

  it('keeps the answers of a prepared query apart by every parameter, whatever order they are given in', async () => {
    const database = await openDatabase({ sqliteFile: path.join(dir, 'prepared.db') });
    await migrateToLatest(database);
    const { db } = database;
    const echo = prepared(
      db,
      (p: { a: string | number | null; b: string | number | null }) =>
        db.selectNoFrom((eb) => [eb.val(p.a).as('a'), eb.val(p.b).as('b')]),
      database.cache,
    );
    await nextTurn();
    expect(await echo.first({ a: 'x', b: 'y' })).toEqual({ a: 'x', b: 'y' });
    expect(await echo.first({ b: 'x', a: 'y' })).toEqual({ a: 'y', b: 'x' });
    expect(await echo.first({ a: '1', b: null })).toEqual({ a: '1', b: null });
    expect(await echo.first({ a: 1, b: null })).toEqual({ a: 1, b: null });
    expect(await echo.first({ a: 1, b: 'null' })).toEqual({ a: 1, b: 'null' });
    expect(await echo.first({ b: 'y', a: 'x' })).toEqual({ a: 'x', b: 'y' });
    await database.close();
  });
});
