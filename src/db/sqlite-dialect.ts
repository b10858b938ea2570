import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { writesUncached } from './uncached-tables.js';

/**
 * Kysely's bundled SQLite driver has two costs that dominate a busy server: it prepares every
 * statement anew, and its connection mutex wakes every waiter on each release (with 50
 * concurrent requests, each query wakes 49 others that go back to sleep). This driver keeps
 * prepared statements by SQL text and hands the single connection over in FIFO order.
 */
export class QuireSqliteDialect implements Dialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly changes: SqliteChanges,
  ) {}

  createAdapter(): DialectAdapter {
    return new QuireSqliteAdapter();
  }
  createDriver(): Driver {
    return new QuireSqliteDriver(this.sqlite, this.changes);
  }
  // biome-ignore lint/suspicious/noExplicitAny: the introspector takes any database
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
}

/**
 * Kysely takes SQLite for a single-process database and migrates without a lock. Several
 * processes may open one file (replicas started together): the migrator's transaction, a
 * BEGIN IMMEDIATE on this driver, is the lock, so one process migrates while the others wait,
 * then find nothing left to do. SQLite's DDL is transactional, so this is sound.
 */
class QuireSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * Tells when the database changed: `PRAGMA data_version` moves when another connection (another
 * process) commits, and `localWrites` when this one runs any write. Read once per event-loop
 * turn, since the pragma itself costs a read lock.
 */
export class SqliteChanges {
  localWrites = 0;
  private readonly dataVersion: SQLite.Statement;
  private memo: string | undefined;
  private memoWrites = 0;

  constructor(sqlite: SQLite.Database) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  }

  generation(): string {
    if (this.memo === undefined) {
      this.memo = `${this.localWrites}:${this.dataVersion.get() as number}`;
      this.memoWrites = this.localWrites;
      setImmediate(() => {
        this.memo = undefined;
      });
    } else if (this.memoWrites !== this.localWrites) {
      this.memo = `${this.localWrites}:${this.memo.slice(this.memo.indexOf(':') + 1)}`;
      this.memoWrites = this.localWrites;
    }
    return this.memo;
  }
}

const STATEMENT_CACHE_SIZE = 500;

/** Statements that begin, end or mark a transaction: they change no row themselves. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

/** A statement that changes rows (and says how many), as opposed to schema and other statements. */
function isRowWrite(sql: string): boolean {
  if (/^\s*(insert|update|delete|replace)\b/i.test(sql)) return true;
  return /^\s*with\b/i.test(sql) && /\b(insert|update|delete|replace)\b/i.test(sql);
}

class QuireSqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly changes: SqliteChanges,
  ) {}

  private statement(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql } = compiledQuery;
    const statement = this.statement(sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (statement.reader) {
      const rows = statement.all(parameters) as R[];
      // A write with RETURNING answers a row for each row it changed.
      if (rows.length > 0 && isRowWrite(sql) && !writesUncached(sql)) this.changed();
      return Promise.resolve({ rows });
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    const control = TRANSACTION_CONTROL.exec(sql)?.[1]?.toLowerCase();
    if (control !== undefined) this.transactionStatement(control, sql);
    // A statement that changed no row changes nothing cached (the job worker's polls); schema
    // changes report none, so only row statements are taken at their word.
    else if ((changes > 0 || !isRowWrite(sql)) && !writesUncached(sql)) this.changed();
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
  }

  /** Whether this connection changed a row since its transaction began. */
  private dirty = false;

  private changed(): void {
    this.changes.localWrites++;
    this.dirty = true;
  }

  /**
   * A transaction's end moves the generation when it wrote (what was read inside it, before the
   * commit or the rollback, is no longer what the database holds), and only then: a transaction
   * that only read (the job worker's, a flush of site views with nothing to deliver) left every
   * cached read true. It used to count as a write, and a read cache on SQLite lasted until the
   * next such transaction.
   */
  private transactionStatement(control: string, sql: string): void {
    if (control === 'begin') this.dirty = false;
    else if (control === 'commit' || control === 'end' || control === 'rollback') {
      if (this.dirty) this.changes.localWrites++;
      // ROLLBACK TO a savepoint leaves the transaction open, and what it wrote before.
      if (!/^\s*rollback\s+(transaction\s+)?to\b/i.test(sql)) this.dirty = false;
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered on this connection
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite');
  }
}

class QuireSqliteDriver implements Driver {
  private readonly connection: QuireSqliteConnection;
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly sqlite: SQLite.Database,
    changes: SqliteChanges,
  ) {
    this.connection = new QuireSqliteConnection(sqlite, changes);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve(this.connection);
    }
    return new Promise((resolve) => this.waiting.push(() => resolve(this.connection)));
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}
