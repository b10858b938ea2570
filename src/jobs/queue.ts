import { sql } from 'kysely';
import type { Tx } from '../db/database.js';
import type { JobsTable } from '../db/tables.js';
import type { Deps } from '../deps.js';
import { newId } from '../ids.js';
import { keepLease } from './heartbeat.js';
import { holderIsDead, holderName } from './holder.js';

export { JobLeaseLost } from './heartbeat.js';

/**
 * The durable job queue: jobs are rows in the database, so they survive restarts and several
 * server processes can share them. A worker claims a due job by leasing it (on PostgreSQL with
 * FOR UPDATE SKIP LOCKED, on SQLite under its single writer), renews the short lease while it
 * runs (a heartbeat), and records the outcome; failures are retried with exponential backoff up
 * to `maxAttempts`.
 *
 * A worker that dies stops renewing: its jobs become claimable when their lease lapses (seconds),
 * or at once when its process is known to be gone (holder.ts: a previous incarnation on this
 * host). A run that died counts as an attempt: a job with attempts left runs again, and one
 * without is not run again but failed, after its kind's `onLost` recorded that where the user
 * sees it.
 */

/** The lease a worker takes on a job; renewed every third of it while the job runs. */
export const DEFAULT_LEASE_MS = 30_000;

export interface JobContext {
  jobId: string;
  attempt: number;
  /** When the job was enqueued (ISO). */
  enqueuedAt: string;
  /**
   * Aborted when this worker lost the job's lease (it could not be renewed in time, or another
   * worker took the job over): the handler should stop and write nothing more.
   */
  signal: AbortSignal;
}

export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;

export interface JobRegistration {
  maxAttempts?: number;
  /**
   * Called instead of the handler for a job whose last allowed attempt died with its worker
   * (the server stopped while it ran): record the failure where the user sees it. Must be
   * idempotent (it runs again if this worker dies too).
   */
  onLost?: JobHandler;
}

interface Registration {
  handler: JobHandler;
  maxAttempts: number;
  onLost: JobHandler | undefined;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction, so the job exists only if the command commits. */
  tx?: Tx;
}

export interface QueueOptions {
  pollMs?: number;
  /** How long a claim holds a job without being renewed (default 30 s). */
  leaseMs?: number;
  /** How often a running job's lease is renewed (default a third of the lease). */
  heartbeatMs?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * How many jobs the background worker runs at once, never two of one kind (default 3): a
   * PDF or a search reindex does not wait behind an hour-long git import, and each kind keeps
   * the one-at-a-time order it was written for.
   */
  concurrency?: number;
}

export class JobQueue {
  /** This worker's lease-holder name (holder.ts). */
  readonly workerId = holderName(newId(12));
  private readonly handlers = new Map<string, Registration>();
  private readonly schedules = new Map<string, { intervalMs: number; kind: string; payload: unknown }>();
  private timer: NodeJS.Timeout | undefined;
  /** The background worker's jobs in hand, with their kinds. */
  private readonly inFlight = new Map<Promise<void>, string>();
  /** A pass of the background worker is claiming jobs (one pass at a time). */
  private pumping: Promise<void> | undefined;
  private again = false;
  private readonly concurrency: number;
  /** Set by stop: the worker finishes the job in hand and claims no other. */
  private stopping = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly deps: Deps,
    options: QueueOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.heartbeatMs = options.heartbeatMs ?? Math.max(10, Math.floor(this.leaseMs / 3));
    this.backoffMs = options.backoffMs ?? 2000;
    this.maxBackoffMs = options.maxBackoffMs ?? 60 * 60_000;
    this.concurrency = Math.max(1, options.concurrency ?? 3);
  }

  register(kind: string, handler: JobHandler, options: JobRegistration = {}): void {
    this.handlers.set(kind, { handler, maxAttempts: options.maxAttempts ?? 5, onLost: options.onLost });
  }

  /** A recurring job: enqueued every `intervalMs`, once across all server processes. */
  schedule(name: string, intervalMs: number, kind: string, payload: unknown = {}): void {
    this.schedules.set(name, { intervalMs, kind, payload });
  }

  async enqueue(kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
    const id = newId();
    await this.insertJob(id, kind, payload, options);
    this.wake();
    return id;
  }

  /** Inserts a job unless one with this id exists; answers whether it did. */
  private async insertJob(
    id: string,
    kind: string,
    payload: unknown,
    options: EnqueueOptions,
  ): Promise<boolean> {
    const registration = this.handlers.get(kind);
    const now = this.deps.clock.now().toISOString();
    const result = await (options.tx ?? this.deps.db)
      .insertInto('jobs')
      .values({
        id,
        kind,
        payload: JSON.stringify(payload ?? {}),
        status: 'queued',
        run_at: (options.runAt ?? this.deps.clock.now()).toISOString(),
        attempts: 0,
        max_attempts: options.maxAttempts ?? registration?.maxAttempts ?? 5,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(jobId: string): Promise<JobsTable | undefined> {
    return this.deps.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  }

  /**
   * Whether a job is running under a lease that still holds (not lapsed, holder not known to be
   * gone). Areas that serialize work behind a job (one git sync per space) take over from a job
   * that is not: its worker died, or it ended without letting go.
   */
  async isLive(jobId: string): Promise<boolean> {
    const job = await this.get(jobId);
    if (job?.status !== 'running' || !job.locked_by || !job.locked_until) return false;
    if (job.locked_until < this.deps.clock.now().toISOString()) return false;
    return !holderIsDead(job.locked_by);
  }

  /** Starts polling; jobs enqueued by this process also wake it at once. */
  start(): void {
    if (this.timer) return;
    this.stopping = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    await this.pumping;
    await Promise.all(this.inFlight.keys());
  }

  private wake(): void {
    if (!this.timer || this.stopping) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error) => this.deps.log.error({ err: error }, 'job worker tick failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * One pass of the background worker: enqueues due schedules, then claims due jobs while it has
   * room, of kinds it is not running already. Each job ends by waking the worker again.
   */
  private async pump(): Promise<void> {
    await this.enqueueDueSchedules();
    const dead = await this.deadHolders();
    while (!this.stopping && this.inFlight.size < this.concurrency) {
      const job = await this.claim(dead, [...new Set(this.inFlight.values())]);
      if (!job) return;
      const run: Promise<void> = this.execute(job)
        .catch((error) => this.deps.log.error({ err: error, jobId: job.id }, 'job worker failed'))
        .finally(() => {
          this.inFlight.delete(run);
          this.wake();
        });
      this.inFlight.set(run, job.kind);
    }
  }

  /**
   * Enqueues every schedule whose time has come. Each occurrence becomes a job whose id is
   * derived from the schedule and the time it was due, so however many processes see it due at
   * once, one job is inserted; the schedule then moves on to its next time.
   */
  async enqueueDueSchedules(): Promise<number> {
    let enqueued = 0;
    const now = this.deps.clock.now();
    for (const [name, schedule] of this.schedules) {
      await this.deps.db
        .insertInto('schedules')
        .values({ name, interval_ms: schedule.intervalMs, next_run_at: now.toISOString() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await this.deps.db
        .selectFrom('schedules')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      if (row.next_run_at > now.toISOString()) continue;
      const inserted = await this.insertJob(
        `schedule:${name}:${row.next_run_at}`,
        schedule.kind,
        schedule.payload,
        {},
      );
      if (inserted) enqueued++;
      await this.deps.db
        .updateTable('schedules')
        .set({
          next_run_at: new Date(now.getTime() + schedule.intervalMs).toISOString(),
          interval_ms: schedule.intervalMs,
        })
        .where('name', '=', name)
        .where('next_run_at', '=', row.next_run_at)
        .execute();
    }
    if (enqueued > 0) this.wake();
    return enqueued;
  }

  /** Runs due jobs until none is left; answers how many ran. Tests call it directly. */
  async runDue(): Promise<number> {
    let ran = 0;
    const dead = await this.deadHolders();
    for (;;) {
      // A stopping server must not drain the whole queue first: what is left waits for the next
      // worker, which claims it at once.
      if (this.stopping) return ran;
      const job = await this.claim(dead);
      if (!job) return ran;
      await this.execute(job);
      ran++;
    }
  }

  /** Holders of running jobs whose process is known to be gone (their jobs are claimable at once). */
  private async deadHolders(): Promise<string[]> {
    const rows = await this.deps.db
      .selectFrom('jobs')
      .select('locked_by')
      .distinct()
      .where('status', '=', 'running')
      .where('locked_by', 'is not', null)
      .where('locked_by', '!=', this.workerId)
      .execute();
    return rows.map((r) => r.locked_by!).filter(holderIsDead);
  }

  /**
   * Leases the next due job: a queued one whose time has come, or a running one whose worker
   * died (lease lapsed, or holder gone). The claim counts an attempt; a job claimed back from a
   * dead worker with no attempt left then reads `attempts > max_attempts` (see execute).
   */
  private async claim(deadHolders: string[], busyKinds: string[] = []): Promise<JobsTable | undefined> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.leaseMs).toISOString();
    const nowIso = now.toISOString();
    const lock = this.deps.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const busy = busyKinds.length > 0 ? sql`and kind not in (${sql.join(busyKinds)})` : sql``;
    const dead =
      deadHolders.length > 0
        ? sql`or (status = 'running' and locked_by in (${sql.join(deadHolders)}))`
        : sql``;
    const { rows } = await sql<JobsTable>`
      update jobs set
        last_error = case when status = 'running' then ${INTERRUPTED} else last_error end,
        status = 'running', locked_by = ${this.workerId}, locked_until = ${until},
        attempts = attempts + 1, updated_at = ${nowIso}
      where id = (
        select id from jobs
        where ((status = 'queued' and run_at <= ${nowIso}) or (status = 'running' and locked_until < ${nowIso})
          ${dead}) ${busy}
        order by run_at, id
        limit 1
        ${lock}
      )
      returning *`.execute(this.deps.db);
    return rows[0];
  }

  private async execute(job: JobsTable): Promise<void> {
    const registration = this.handlers.get(job.kind);
    const log = this.deps.log.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
    const lease = keepLease({
      db: this.deps.db,
      clock: this.deps.clock,
      log,
      jobId: job.id,
      holder: this.workerId,
      heldUntil: job.locked_until,
      leaseMs: this.leaseMs,
      everyMs: this.heartbeatMs,
    });
    const context: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      enqueuedAt: job.created_at,
      signal: lease.signal,
    };
    try {
      if (job.attempts > job.max_attempts) {
        await this.abandon(job, registration, context, log);
        return;
      }
      if (!registration) throw new Error(`no handler for jobs of kind "${job.kind}"`);
      await registration.handler(JSON.parse(job.payload), context);
      await this.finish(job.id, { status: 'done', last_error: null });
      log.info('job done');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts >= job.max_attempts) {
        await this.finish(job.id, { status: 'failed', last_error: message });
        log.error({ err: error }, 'job failed for good');
      } else {
        const delay = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (job.attempts - 1));
        const runAt = new Date(this.deps.clock.now().getTime() + delay).toISOString();
        await this.finish(job.id, { status: 'queued', last_error: message, run_at: runAt });
        log.warn({ err: error, retryAt: runAt }, 'job failed, will retry');
      }
    } finally {
      lease.stop();
    }
  }

  /**
   * A job whose last allowed attempt died with its worker: not run again. Its kind records the
   * failure where the user sees it (onLost), and the job fails with the attempts it was allowed.
   */
  private async abandon(
    job: JobsTable,
    registration: Registration | undefined,
    context: JobContext,
    log: Deps['log'],
  ): Promise<void> {
    const allowed = job.max_attempts;
    let message = `${INTERRUPTED} during its last allowed attempt (${allowed} of ${allowed}); it was not run again`;
    try {
      await registration?.onLost?.(JSON.parse(job.payload), context);
    } catch (error) {
      log.error({ err: error }, 'recording the failure of an interrupted job failed');
      message += `, and recording that failure failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    await this.finish(job.id, { status: 'failed', attempts: allowed, last_error: message });
    log.warn('job interrupted for good (its worker stopped during the last allowed attempt)');
  }

  private async finish(jobId: string, outcome: Partial<JobsTable>): Promise<void> {
    await this.deps.db
      .updateTable('jobs')
      .set({
        ...outcome,
        locked_by: null,
        locked_until: null,
        updated_at: this.deps.clock.now().toISOString(),
      })
      .where('id', '=', jobId)
      .where('locked_by', '=', this.workerId)
      .execute();
  }
}

const INTERRUPTED = 'interrupted: the server running this job stopped';
