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
  private memo: number | undefined;

  constructor(sqlite: SQLite.Database) {
    this.dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  }

  generation(): string {
    if (this.memo === undefined) {
      this.memo = this.dataVersion.get() as number;
      setImmediate(() => {
        this.memo = undefined;
      });
    }
    return `${this.localWrites}:${this.memo}`;
  }
}

const STATEMENT_CACHE_SIZE = 500;

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
    const statement = this.statement(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
    const { changes, lastInsertRowid } = statement.run(parameters);
    // A statement that changed no row changes nothing cached (the job worker's polls); schema
    // changes report none, so only row statements are taken at their word.
    if (changes > 0 || !/^\s*(insert|update|delete|replace)\b/i.test(compiledQuery.sql)) {
      this.changes.localWrites++;
    }
    return Promise.resolve({
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    });
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
