import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';

/**
 * Quire in one schema of a PostgreSQL cluster that other applications share: what they do in
 * their schemas does not reach our migrations.
 */
const url = process.env.DATABASE_URL;
const opened: Database[] = [];
const schemas: string[] = [];

async function open(): Promise<Database> {
  const schema = `own_${newId(10).toLowerCase()}`;
  schemas.push(schema);
  const database = await openDatabase({ databaseUrl: url, pgSchema: schema, pgPoolSize: 2 });
  opened.push(database);
  return database;
}

afterAll(async () => {
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  for (const database of opened) await database.close();
});

describe.skipIf(!url)('PostgreSQL schemas shared with others', () => {
  it('introspects only its own schema', async () => {
    const database = await open();
    await migrateToLatest(database);
    const other = await open();
    await sql`CREATE TABLE kysely_migration (name text)`.execute(other.db);
    await sql`CREATE TABLE someone_elses (id int)`.execute(other.db);
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((t) => t.schema)).toEqual(tables.map(() => database.schema));
    expect(tables.map((t) => t.name)).toContain('kysely_migration');
    expect(tables.map((t) => t.name)).not.toContain('someone_elses');
    const spaces = tables.find((t) => t.name === 'spaces')!;
    expect(spaces.columns.find((c) => c.name === 'id')).toMatchObject({ isNullable: false });
    // Without the internal tables, as Kysely's own introspector answers.
    const plain = await database.db.introspection.getTables();
    expect(plain.map((t) => t.name)).not.toContain('kysely_migration');
  });

  it('migrates while other connections create and drop their schemas', async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let churning = true;
    let dropped = 0;
    const churn = (async () => {
      while (churning) {
        const name = `churn_${newId(8).toLowerCase()}`;
        await admin.query(`CREATE SCHEMA ${name}; CREATE TABLE ${name}.t (id serial, v text)`);
        await admin.query(`DROP SCHEMA ${name} CASCADE`);
        dropped++;
      }
    })();
    try {
      for (let i = 0; i < 6; i++) {
        const database = await open();
        await migrateToLatest(database);
        // A second start finds its tables and applies nothing.
        expect((await migrateToLatest(database)).applied).toEqual([]);
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
    expect(dropped).toBeGreaterThan(0);
  });
});
