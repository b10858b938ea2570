import { hostname } from 'node:os';
import { newId } from '../ids.js';

/**
 * Who holds a job's lease: a worker of one process on one host. The name says which (a token of
 * the worker, a token of the process, its process id and its host), so a process can tell that a
 * holder on its own host is gone (no such process, or a previous incarnation that had the same
 * process id) and take its jobs back at once instead of waiting for the lease to lapse. Holders
 * on other hosts, and names it cannot read, are judged by their lease alone.
 */

const HOST = hostname();
/** Differs between incarnations of the server that got the same process id (a container's pid 1). */
const PROCESS_TOKEN = newId(12);

/** The lease-holder name of a worker of this process. */
export function holderName(workerToken: string): string {
  return `${workerToken}:${PROCESS_TOKEN}:${process.pid}:${HOST}`;
}

/** True when the holder's process is known to be gone; false when alive or when it cannot be known. */
export function holderIsDead(name: string): boolean {
  const parts = name.split(':');
  if (parts.length !== 4) return false;
  const [, token, pidText, host] = parts as [string, string, string, string];
  if (host !== HOST || !/^\d+$/.test(pidText)) return false;
  const pid = Number(pidText);
  // Our own process id: either this process, or an earlier one that had the same id.
  if (pid === process.pid) return token !== PROCESS_TOKEN;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists (another user's), so it may be ours still.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
