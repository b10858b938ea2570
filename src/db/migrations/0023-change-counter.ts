import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The change counter of PostgreSQL (src/db/pg-changes.ts): a sequence every committed write moves,
 * which each process reads to know whether what it cached is still the database's. SQLite needs
 * none: `PRAGMA data_version` tells the same.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE SEQUENCE IF NOT EXISTS quire_changes`.execute(db);
  await sql`SELECT nextval('quire_changes')`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`DROP SEQUENCE IF EXISTS quire_changes`.execute(db);
}
