import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { PgChanges } from './pg-changes.js';
import { QuirePostgresDialect } from './pg-dialect.js';
import { ReadCache } from './read-cache.js';
import { SqliteCheckpointer, WAL_FALLBACK_PAGES } from './sqlite-checkpoints.js';
import { QuireSqliteDialect, SqliteChanges } from './sqlite-dialect.js';
import { SqliteReaders } from './sqlite-readers.js';
import type { Tables } from './tables.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Tables>;
export type Tx = Transaction<Tables>;
/** Either the database or a transaction: what read helpers accept. */
export type Queryable = Kysely<Tables>;

export interface Database {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema the connection uses (tests isolate each file in a fresh one). */
  schema: string | undefined;
  /** Request-path lookups, cached while the database is unchanged (by any process). */
  cache: ReadCache;
  /** SQLite in a file: read-only connections on threads of their own, for long reads (search). */
  readers?: SqliteReaders;
  /** SQLite in a file: the thread that checkpoints its write-ahead log. */
  checkpoints?: SqliteCheckpointer;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; SQLite when absent. */
  databaseUrl?: string | undefined;
  /** SQLite file, or ':memory:'. */
  sqliteFile?: string;
  /** PostgreSQL schema to create (if missing) and use as the search path. */
  pgSchema?: string;
  pgPoolSize?: number;
  /** How often SQLite's checkpoint thread looks for commits to copy (sqlite-checkpoints.ts). */
  sqliteCheckpointMs?: number;
}

// PostgreSQL returns int8 (count(*)) as strings; every count we read fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.pgSchema, options.pgPoolSize);
  return openSqlite(options.sqliteFile ?? ':memory:', options.sqliteCheckpointMs);
}

/**
 * How much of the SQLite file a connection maps, the server's and each reader's alike: as much as
 * SQLite allows (its build caps it at 2 GiB less 64 KiB), since the map costs address space, not
 * memory (the pages are the kernel's cache, shared by every connection). With 256 MiB, a
 * 100,000-page space's store (965 MB) was read past the map through read() into a page cache of
 * 2 MB: the rows of a search's 100 hits, at random places in it, took 8.7 ms against 1.8 ms
 * mapped whole (two statements, 50 random sets of hits), and 4.1 against 2.5 ms in the server.
 */
const SQLITE_MMAP_BYTES = 2 ** 31;

function openSqlite(file: string, checkpointMs: number | undefined): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const onFile = file !== ':memory:';
  // Commits leave the log to the checkpoint thread; this only bounds it (sqlite-checkpoints.ts).
  if (onFile) sqlite.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_PAGES}`);
  // Reads map the file instead of copying pages through read(): search reads many index and
  // text pages per query (measured: 10% off the search bench's query time).
  sqlite.pragma(`mmap_size = ${SQLITE_MMAP_BYTES}`);
  const changes = new SqliteChanges(sqlite);
  const db = new Kysely<Tables>({ dialect: new QuireSqliteDialect(sqlite, changes) });
  // A database in memory is this connection's alone: its long reads stay on it.
  const readers = onFile ? new SqliteReaders(file, { mmapBytes: SQLITE_MMAP_BYTES }) : undefined;
  const checkpoints = onFile ? new SqliteCheckpointer(file, { intervalMs: checkpointMs }) : undefined;
  return {
    db,
    dialect: 'sqlite',
    schema: undefined,
    cache: new ReadCache(changes),
    ...(readers ? { readers } : {}),
    ...(checkpoints ? { checkpoints } : {}),
    close: async () => {
      await checkpoints?.close();
      await readers?.close();
      await db.destroy();
    },
  };
}

async function openPostgres(url: string, schema: string | undefined, poolSize = 10): Promise<Database> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name "${schema}"`);
  }
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // The schema the connection really uses (the URL may set a search path). The migrator needs it
  // named: without it, migration tables in any other schema of the cluster count as ours.
  let effective: string | undefined;
  try {
    effective =
      schema ?? (await pool.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema;
  } catch (error) {
    await pool.end();
    throw error;
  }
  const changes = new PgChanges(pool);
  const db = new Kysely<Tables>({ dialect: new QuirePostgresDialect(pool, changes, effective) });
  return {
    db,
    dialect: 'postgres',
    schema: effective,
    cache: new ReadCache(changes),
    close: () => db.destroy(),
  };
}
