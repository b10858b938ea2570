import { CompiledQuery, type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { paginate, type SortKey } from '../../src/db/keyset.js';
import { newId } from '../../src/ids.js';

// Keyset pages walked to the end on the real database (SQLite, or PostgreSQL with
// DATABASE_URL): every row once, in the order of the whole list, with ties on the first key.
interface Row {
  k: string;
  n: number;
  id: string;
}
type Db = Kysely<{ t: Row }>;

const schema = process.env.DATABASE_URL ? `test_${newId(12).toLowerCase()}` : undefined;
let database: Database;
let db: Db;

// Three rows share each k, two share each (k, n): every page boundary falls inside a tie.
const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({
  k: `k${Math.floor(i / 3) % 4}`,
  n: Math.floor(i / 2) % 3,
  id: `r${String(i).padStart(2, '0')}`,
}));

beforeAll(async () => {
  database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    sqliteFile: ':memory:',
    ...(schema ? { pgSchema: schema } : {}),
  });
  db = database.db as unknown as Db;
  await sql`CREATE TABLE t (k TEXT NOT NULL, n INTEGER NOT NULL, id TEXT PRIMARY KEY)`.execute(db);
  await sql`CREATE INDEX t_k_id ON t (k, id)`.execute(db);
  await db.insertInto('t').values(rows).execute();
});

afterAll(async () => {
  if (schema) await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(database.db);
  await database.close();
});

async function walk(keys: SortKey<Row>[], limit: number): Promise<string[]> {
  const seen: string[] = [];
  let page: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const result = await paginate(
      database.db,
      db.selectFrom('t').selectAll() as never,
      keys,
      { page, limit },
      'test',
    );
    expect(result.count).toBe(rows.length);
    seen.push(...(result.items as Row[]).map((r) => r.id));
    if (!result.next) return seen;
    page = result.next.page;
  }
  throw new Error('the pages never ended');
}

function expected(compare: (a: Row, b: Row) => number): string[] {
  return [...rows].sort(compare).map((r) => r.id);
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const key = (field: keyof Row, dir: 'asc' | 'desc'): SortKey<Row> => ({
  ref: field,
  dir,
  value: (r) => r[field],
});

describe('keyset pagination', () => {
  it('walks keys of one direction, ascending and descending, through ties', async () => {
    for (const limit of [1, 2, 4, 7]) {
      expect(await walk([key('k', 'asc'), key('id', 'asc')], limit)).toEqual(
        expected((a, b) => cmp(a.k, b.k) || cmp(a.id, b.id)),
      );
      expect(await walk([key('k', 'desc'), key('n', 'desc'), key('id', 'desc')], limit)).toEqual(
        expected((a, b) => cmp(b.k, a.k) || b.n - a.n || cmp(b.id, a.id)),
      );
    }
  });

  it('walks keys of mixed directions through ties', async () => {
    for (const limit of [1, 3, 5]) {
      expect(await walk([key('k', 'asc'), key('n', 'desc'), key('id', 'asc')], limit)).toEqual(
        expected((a, b) => cmp(a.k, b.k) || b.n - a.n || cmp(a.id, b.id)),
      );
      expect(await walk([key('n', 'desc'), key('id', 'asc')], limit)).toEqual(
        expected((a, b) => b.n - a.n || cmp(a.id, b.id)),
      );
    }
  });

  it.skipIf(schema !== undefined)(
    'reads a later page of SQLite as a range of the index, not from its start',
    async () => {
      // The statements paginate runs, as compiled, captured on their way to the database.
      const compiled: CompiledQuery[] = [];
      const capture: KyselyPlugin = {
        transformQuery: (args) => {
          compiled.push(database.db.getExecutor().compileQuery(args.node, args.queryId));
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const keys = [key('k', 'asc'), key('id', 'asc')];
      const list = () => db.withPlugin(capture).selectFrom('t').selectAll() as never;
      const first = await paginate(database.db, list(), keys, { limit: 5 }, 'test');
      compiled.length = 0;
      await paginate(database.db, list(), keys, { page: first.next!.page, limit: 5 }, 'test');
      const next = compiled.find((q) => /order by/i.test(q.sql))!;
      const { rows: plan } = await database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${next.sql}`, [...next.parameters]),
      );
      expect(plan.map((r) => r.detail).join('; ')).toMatch(
        /USING (COVERING )?INDEX t_k_id \(k=\? AND id>\?\)|\(k,id\)>\(\?,\?\)/,
      );
    },
  );
});
