import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';

/**
 * After a bulk load the database is busy for minutes on its own (autovacuum analysing the new
 * rows, checkpoints writing them out, SQLite's WAL holding every new page); the samples are of
 * Quire, so that is done first, as it soon is without asking: VACUUM ANALYZE of the schema's
 * tables and a CHECKPOINT on PostgreSQL, a WAL checkpoint on SQLite.
 */
export async function settle(database: Database, schema: string): Promise<void> {
  if (database.dialect === 'postgres') {
    const tables = await sql<{ tablename: string }>`
      SELECT tablename FROM pg_tables WHERE schemaname = ${schema}`.execute(database.db);
    for (const { tablename } of tables.rows)
      await sql.raw(`VACUUM (ANALYZE) ${schema}.${tablename}`).execute(database.db);
    await sql.raw('CHECKPOINT').execute(database.db);
  } else await sql.raw('PRAGMA wal_checkpoint(TRUNCATE)').execute(database.db);
}
