import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { Deps } from '../deps.js';

/** Why a job's signal was aborted: this worker no longer holds its lease. */
export class JobLeaseLost extends Error {
  constructor(reason: string) {
    super(`this server lost its hold on the job: ${reason}`);
    this.name = 'JobLeaseLost';
  }
}

export interface LeaseKeeping {
  db: Db;
  clock: Clock;
  log: Deps['log'];
  jobId: string;
  /** The lease holder's name (the worker). */
  holder: string;
  /** Until when the claim leased the job (ISO). */
  heldUntil: string | null;
  leaseMs: number;
  everyMs: number;
}

/**
 * Keeps a running job's lease: renews it every `everyMs` for another `leaseMs`. A renewal that
 * fails (a database error) is logged and tried again at the next beat, never thrown; once the
 * lease has lapsed without being renewed, or the job is found no longer held by this worker,
 * the signal is aborted so the handler stops, and the lease is left to lapse.
 */
export function keepLease(options: LeaseKeeping): { signal: AbortSignal; stop(): void } {
  const { db, clock, log, jobId, holder, leaseMs } = options;
  const controller = new AbortController();
  let heldUntil = new Date(options.heldUntil ?? 0).getTime();
  let stopped = false;
  let beating = false;
  const lose = (reason: string) => {
    if (stopped || controller.signal.aborted) return;
    log.warn({ reason }, 'job lease lost; the job stops');
    controller.abort(new JobLeaseLost(reason));
  };
  const beat = async () => {
    const until = clock.now().getTime() + leaseMs;
    const result = await db
      .updateTable('jobs')
      .set({ locked_until: new Date(until).toISOString() })
      .where('id', '=', jobId)
      .where('locked_by', '=', holder)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) heldUntil = until;
    else lose('the job is no longer held by this worker (its lease lapsed and it was taken over)');
  };
  const timer = setInterval(() => {
    if (stopped || beating) return;
    beating = true;
    beat()
      .catch((error) => {
        if (stopped) return;
        log.error({ err: error }, 'job lease renewal failed');
        if (clock.now().getTime() >= heldUntil)
          lose('the lease lapsed: it could not be renewed (database error)');
      })
      .catch(() => {})
      .finally(() => {
        beating = false;
      });
  }, options.everyMs);
  timer.unref();
  return {
    signal: controller.signal,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
