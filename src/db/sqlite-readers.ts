import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

/**
 * Read-only connections to the SQLite file, each on a thread of its own, for the reads long
 * enough to hold up every other request: better-sqlite3 runs a statement on the calling thread,
 * so a search ranking a common word in a 100,000-page space (12-20 ms) stopped the server for
 * that long. On a reader it runs beside the server's other work, and beside a second reader
 * (a search's count beside its ranking: they took one after the other 12 + 8 ms).
 *
 * A reader's connection sees what was committed when its statement starts (WAL), as the server's
 * own connection does outside a transaction; it never sees another connection's open
 * transaction. The threads start on first use and keep the process alive only while a read is
 * on its way.
 */
export class SqliteReaders {
  private readonly readers: Reader[] = [];
  private closed = false;

  private readonly size: number;

  constructor(
    private readonly file: string,
    private readonly options: { mmapBytes: number; size?: number },
  ) {
    this.size = options.size ?? 2;
  }

  /** The rows of a read-only statement, read on the least busy reader. */
  all<R>(query: CompiledQuery): Promise<R[]> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    let reader = this.readers.find((r) => r.pending.size === 0);
    if (!reader && this.readers.length < this.size) {
      const added = new Reader(this.file, this.options.mmapBytes, () => {
        // A thread that stopped (it should not) is replaced on the next read.
        const at = this.readers.indexOf(added);
        if (at >= 0) this.readers.splice(at, 1);
      });
      this.readers.push(added);
      reader = added;
    }
    reader ??= this.readers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    return reader.run<R>(query.sql, query.parameters as unknown[]);
  }

  /** How many reads would start at once: the threads owing nothing, and those not started yet. */
  idle(): number {
    if (this.closed) return 0;
    return this.readers.filter((r) => r.pending.size === 0).length + this.size - this.readers.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.readers.splice(0).map((reader) => reader.stop()));
  }
}

interface Answer {
  id: number;
  rows?: unknown[];
  error?: { message: string; code?: string };
}

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * The thread's script, as text: it then runs the same from the sources (tests, tsx) and from
 * dist/, with no file of its own to resolve. Statements are prepared once per text, as the
 * server's connection does (sqlite-dialect.ts), and must be reads: the connection is read-only.
 */
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('mmap_size = ' + Number(workerData.mmapBytes));
const statements = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 200) statements.clear();
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
`;

class Reader {
  readonly pending = new Map<number, { resolve(rows: unknown[]): void; reject(error: Error): void }>();
  private readonly worker: Worker;
  private next = 0;

  constructor(file: string, mmapBytes: number, onExit: () => void) {
    this.worker = new Worker(SCRIPT, { eval: true, workerData: { file, mmapBytes, module: betterSqlite3 } });
    this.worker.unref();
    this.worker.on('message', (answer: Answer) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.worker.unref();
      if (answer.error) {
        job.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      } else {
        job.resolve(answer.rows!);
      }
    });
    const fail = (error: Error) => {
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => {
      onExit();
      fail(new Error(`a SQLite reader thread stopped (exit code ${code})`));
    });
  }

  run<R>(sql: string, parameters: unknown[]): Promise<R[]> {
    const id = this.next++;
    // Kept alive while it owes an answer (a script awaiting a search must not exit under it),
    // not while idle.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<R[]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      this.worker.postMessage({ id, sql, parameters });
    });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
