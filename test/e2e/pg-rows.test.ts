import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { newId } from '../../src/ids.js';

/**
 * The rows a statement answers are ours alone: pg's result keeps none of them, so that its
 * objects, long dead in the old generation, do not keep them alive through minor collections
 * (see `ownRows` in pg-dialect.ts).
 */
const url = process.env.DATABASE_URL;
const schema = `rows_${newId(10).toLowerCase()}`;
let database: Database | undefined;

afterAll(async () => {
  if (!url) return;
  await database?.close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

describe.skipIf(!url)('PostgreSQL rows', () => {
  it("answers the rows and leaves none in pg's result", async () => {
    database = await openDatabase({ databaseUrl: url, pgSchema: schema, pgPoolSize: 1 });
    const results: pg.QueryResult[] = [];
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const answer = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (answer instanceof Promise) void answer.then((result: pg.QueryResult) => results.push(result));
      return answer;
    } as never);
    try {
      const { rows } = await sql<{ n: number }>`SELECT n FROM generate_series(1, 3) AS n`.execute(
        database.db,
      );
      expect(rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const theirs = results.find((result) => result.command === 'SELECT' && result.fields[0]?.name === 'n');
      expect(theirs).toBeDefined();
      expect(theirs!.rows).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });
});
