import { sql } from 'kysely';
import type { Tx } from '../db/database.js';
import type { JobsTable } from '../db/tables.js';
import type { Deps } from '../deps.js';
import { newId } from '../ids.js';

/**
 * The durable job queue: jobs are rows in the database, so they survive restarts and several
 * server processes can share them. A worker claims a due job by leasing it (on PostgreSQL with
 * FOR UPDATE SKIP LOCKED, on SQLite under its single writer), renews the lease while it runs,
 * and records the outcome; failures are retried with exponential backoff up to `maxAttempts`.
 * A worker that dies loses its lease and the job becomes claimable again.
 */

export interface JobContext {
  jobId: string;
  attempt: number;
}

export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;

interface Registration {
  handler: JobHandler;
  maxAttempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction, so the job exists only if the command commits. */
  tx?: Tx;
}

export interface QueueOptions {
  pollMs?: number;
  leaseMs?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
}

export class JobQueue {
  readonly workerId = newId(12);
  private readonly handlers = new Map<string, Registration>();
  private readonly schedules = new Map<string, { intervalMs: number; kind: string; payload: unknown }>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(
    private readonly deps: Deps,
    options: QueueOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 10 * 60_000;
    this.backoffMs = options.backoffMs ?? 2000;
    this.maxBackoffMs = options.maxBackoffMs ?? 60 * 60_000;
  }

  register(kind: string, handler: JobHandler, options: { maxAttempts?: number } = {}): void {
    this.handlers.set(kind, { handler, maxAttempts: options.maxAttempts ?? 5 });
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

  /** Starts polling; jobs enqueued by this process also wake it at once. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private wake(): void {
    if (!this.timer || this.running) return;
    this.running = this.tick()
      .catch((error) => this.deps.log.error({ err: error }, 'job worker tick failed'))
      .finally(() => {
        this.running = undefined;
      });
  }

  private async tick(): Promise<void> {
    await this.enqueueDueSchedules();
    await this.runDue();
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
    for (;;) {
      const job = await this.claim();
      if (!job) return ran;
      await this.execute(job);
      ran++;
    }
  }

  private async claim(): Promise<JobsTable | undefined> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.leaseMs).toISOString();
    const nowIso = now.toISOString();
    const lock = this.deps.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const { rows } = await sql<JobsTable>`
      update jobs set status = 'running', locked_by = ${this.workerId}, locked_until = ${until},
        attempts = attempts + 1, updated_at = ${nowIso}
      where id = (
        select id from jobs
        where (status = 'queued' and run_at <= ${nowIso}) or (status = 'running' and locked_until < ${nowIso})
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
    const heartbeat = setInterval(() => void this.renewLease(job.id), Math.max(1000, this.leaseMs / 3));
    heartbeat.unref();
    try {
      if (!registration) throw new Error(`no handler for jobs of kind "${job.kind}"`);
      await registration.handler(JSON.parse(job.payload), { jobId: job.id, attempt: job.attempts });
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
      clearInterval(heartbeat);
    }
  }

  private async renewLease(jobId: string): Promise<void> {
    const until = new Date(this.deps.clock.now().getTime() + this.leaseMs).toISOString();
    await this.deps.db
      .updateTable('jobs')
      .set({ locked_until: until })
      .where('id', '=', jobId)
      .where('locked_by', '=', this.workerId)
      .where('status', '=', 'running')
      .execute();
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
