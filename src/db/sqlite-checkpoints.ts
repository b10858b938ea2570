import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies the SQLite write-ahead log back into the database file on a thread of its own, so that
 * no request waits for it. With SQLite's automatic checkpoint, the commit that takes the log past
 * 1,000 pages copies them itself, with two fsyncs: that commit took 30-36 ms where the others took
 * 3-8 (creating spaces one after the other, about one in a hundred; 4-10 ms every one with the
 * automatic checkpoint off). The server's connection keeps a far larger automatic checkpoint
 * (`WAL_FALLBACK_PAGES`) so the log stays bounded if this thread falls behind or stops.
 *
 * The thread looks every `intervalMs` whether the database changed (`PRAGMA data_version`:
 * commits of any connection, this process's or another's) and then runs a PASSIVE checkpoint,
 * which waits for no reader and no writer and copies what they no longer need. The next writer
 * starts the log over once all of it is copied.
 */
export const WAL_FALLBACK_PAGES = 20_000;

export interface Checkpoint {
  /** Pages in the log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen;
let last;
function run() {
  try {
    const now = version.get();
    if (now === seen) return;
    seen = now;
    const row = checkpoint.get();
    last = { log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    // A busy or failing checkpoint is tried again at the next change; the server's own
    // automatic checkpoint bounds the log meanwhile.
    seen = undefined;
    // Another process's checkpoint running (several processes on one file) is no failure.
    if (!(error && error.code === 'SQLITE_BUSY')) parentPort.postMessage({ warning: String(error && error.message) });
  }
}
setInterval(run, workerData.intervalMs);
parentPort.on('message', ({ id }) => {
  run();
  parentPort.postMessage({ id, last });
});
`;

export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (last: Checkpoint | undefined) => void>();
  private next = 0;

  constructor(file: string, options: { intervalMs?: number | undefined } = {}) {
    this.worker = new Worker(SCRIPT, {
      eval: true,
      workerData: { file, intervalMs: options.intervalMs ?? 250, module: betterSqlite3 },
    });
    // Its timer must not keep the process alive.
    this.worker.unref();
    this.worker.on('message', (message: { id?: number; last?: Checkpoint; warning?: string }) => {
      if (message.warning !== undefined) {
        process.emitWarning(`SQLite checkpoint failed, tried again at the next change: ${message.warning}`);
        return;
      }
      const done = this.waiting.get(message.id!);
      this.waiting.delete(message.id!);
      if (this.waiting.size === 0) this.worker.unref();
      done?.(message.last);
    });
    this.worker.on('error', (error) => {
      process.emitWarning(`the SQLite checkpoint thread stopped: ${error.message}`);
    });
    this.worker.on('exit', () => {
      for (const done of this.waiting.values()) done(undefined);
      this.waiting.clear();
    });
  }

  /** Checkpoints now if the database changed since the last one; answers the last one's result. */
  now(): Promise<Checkpoint | undefined> {
    return new Promise((resolve) => {
      const id = this.next++;
      // Kept alive while it owes an answer.
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
