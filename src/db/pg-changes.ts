import type pg from 'pg';

/** The sequence every committed write moves (migration 0023). */
export const CHANGE_COUNTER = 'quire_changes';

/**
 * How long a reading of the counter is trusted. A request reads it first, so its own lookups
 * fall well within this; background work (jobs) may see data this old, or none cached.
 */
const FRESH_FOR_MS = 50;

/**
 * Tells when a PostgreSQL database changed, for a read cache shared by several processes on it.
 *
 * Each write transaction moves a sequence right after its COMMIT, in the same round trip, and
 * before the writer answers. Each request first reads the sequence (`sync`): a reading sent
 * after the request arrived, shared by every request that arrived before it was sent. So a
 * request that follows a write, on any process, sees that write; the cache saves the token,
 * membership and organization queries, and what remains is one small read for all the requests
 * arriving together.
 *
 * LISTEN/NOTIFY was tried first and measured unfit: a notification reaches other listeners up to
 * a few milliseconds after the commit is acknowledged, so a request sent right after a write
 * often (109 of 200 times, on this machine) found the other process not yet told, and nothing
 * lets a process know it holds every notification sent so far.
 */
export class PgChanges {
  /** This process's own commits: its next read sees them without waiting for a reading. */
  private local = 0;
  private counter: string | undefined;
  private readAt = 0;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly pool: pg.Pool) {}

  generation(): string | undefined {
    if (this.counter === undefined || performance.now() - this.readAt > FRESH_FOR_MS) return undefined;
    return `${this.local}:${this.counter}`;
  }

  /**
   * Resolves once the counter has been read by a query sent after this call: a reading already
   * under way may have left before the caller's request arrived, so the caller waits for the next.
   */
  sync(): Promise<void> {
    if (!this.running) {
      this.running = this.read().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.sync();
    });
    return this.queued;
  }

  private async read(): Promise<void> {
    try {
      const result = await this.pool.query<{ last_value: string }>({
        name: 'quire_changes_read',
        text: `select last_value::text from ${CHANGE_COUNTER}`,
      });
      this.counter = result.rows[0]?.last_value;
      this.readAt = performance.now();
    } catch {
      // Not migrated yet, or the database is away: nothing is cached until a reading succeeds.
      this.counter = undefined;
    }
  }

  /**
   * Appended to a write transaction's COMMIT, in the same round trip. Through `to_regclass`, so
   * that before migration 0023 it moves nothing rather than fail after the commit is done.
   */
  readonly afterCommit = `select nextval(to_regclass('${CHANGE_COUNTER}'))`;

  /** After a write committed and the counter moved. */
  committed(): void {
    this.local++;
  }
}
