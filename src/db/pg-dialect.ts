import { createHash } from 'node:crypto';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import type { PgChanges } from './pg-changes.js';
import { OwnSchemaIntrospector } from './pg-introspector.js';
import { writesUncached } from './uncached-tables.js';

/**
 * SQL texts run often enough to keep parsed and planned on each connection (PreparedQuery
 * registers the request-path lookups). Only these: a named statement lives as long as its
 * connection, and ordinary queries vary (list lengths) without bound.
 */
const named = new Map<string, string>();

export function keepPrepared(sql: string): void {
  if (!named.has(sql)) named.set(sql, `q_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`);
}

/**
 * The rows of a result in an array of our own, pg's emptied. pg's objects that held the rows
 * reach the old generation and stay there, dead, until the next full collection; until then
 * every minor collection counts the rows they point to as alive, copies them and then promotes
 * them, though nothing uses them. A loop reading 100 hit pages (300 rows) over and over: 35% of
 * the young generation survived each minor collection, 17-24 ms each, 19 MB promoted at every
 * other one; with pg's array emptied, 8 KB survived, 0.7-1.6 ms each (scratch, --trace-gc-nvp).
 * In a server, those pauses land on every request.
 */
function ownRows(result: pg.QueryResult): unknown[] {
  if (!result.rows) return [];
  const rows = result.rows.slice();
  result.rows.length = 0;
  return rows;
}

/**
 * Statements that cannot change data; anything else counts as a write (a conservative guess). A
 * WITH is a read unless one of its parts writes: a word like `update` anywhere makes it a write.
 */
function isRead(sql: string): boolean {
  if (/^\s*(select|show|explain)\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && !/\b(insert|update|delete|merge)\b/i.test(sql);
}

/**
 * Kysely's PostgreSQL driver, plus what a cache shared by several processes needs: it knows
 * which connections wrote and moves the change counter after each committed write (PgChanges),
 * and runs the request-path lookups as named prepared statements.
 */
export class QuirePostgresDialect implements Dialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly changes: PgChanges,
    /** The schema the connections use: introspection (the migrator's) looks only there. */
    private readonly schema?: string,
  ) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new QuirePostgresDriver(this.pool, this.changes);
  }
  // biome-ignore lint/suspicious/noExplicitAny: the introspector takes any database
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.schema ? new OwnSchemaIntrospector(db, this.schema) : new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class QuirePostgresConnection implements DatabaseConnection {
  /** Inside a transaction: whether it wrote (and so must announce its commit). */
  inTransaction = false;
  wrote = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly changes: PgChanges,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql } = compiledQuery;
    const name = named.get(sql);
    const values = [...compiledQuery.parameters];
    const result = await this.client.query(name ? { name, text: sql, values } : { text: sql, values });
    const { command, rowCount } = result;
    const rows = ownRows(result);
    const dml = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    // A statement that changed no row changes nothing cached: the job worker's polls (an insert
    // that conflicts, a claim that finds nothing) must not empty every process's cache.
    if (!isRead(sql) && !writesUncached(sql) && (!dml || (rowCount ?? 0) > 0)) {
      if (this.inTransaction) this.wrote = true;
      else await this.announce();
    }
    return {
      numAffectedRows: dml ? BigInt(rowCount ?? 0) : undefined,
      rows: rows as R[],
    };
  }

  /** A write outside a transaction has committed already: move the counter on its own. */
  private async announce(): Promise<void> {
    await this.client.query(this.changes.afterCommit);
    this.changes.committed();
  }

  /** Commits, moving the change counter if the transaction wrote: one round trip either way. */
  async commit(): Promise<void> {
    const wrote = this.wrote;
    this.inTransaction = false;
    this.wrote = false;
    if (!wrote) {
      await this.client.query('commit');
      return;
    }
    // Without parameters pg sends the simple protocol, which takes both statements at once; the
    // counter moves only once the commit is done, and before the writer can answer anyone.
    await this.client.query(`commit; ${this.changes.afterCommit}`);
    this.changes.committed();
  }

  async rollback(): Promise<void> {
    this.inTransaction = false;
    this.wrote = false;
    await this.client.query('rollback');
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered on this connection
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported');
  }
}

class QuirePostgresDriver implements Driver {
  private readonly connections = new WeakMap<pg.PoolClient, QuirePostgresConnection>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly changes: PgChanges,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new QuirePostgresConnection(client, this.changes);
      this.connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const own = connection as QuirePostgresConnection;
    let sql = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      sql = 'start transaction';
      if (settings.isolationLevel) sql += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) sql += ` ${settings.accessMode}`;
    }
    await own.client.query(sql);
    own.inTransaction = true;
    own.wrote = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as QuirePostgresConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as QuirePostgresConnection).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as QuirePostgresConnection).client.query(`savepoint ${quoteName(name)}`);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as QuirePostgresConnection).client.query(`rollback to savepoint ${quoteName(name)}`);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await (connection as QuirePostgresConnection).client.query(`release savepoint ${quoteName(name)}`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as QuirePostgresConnection).client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
