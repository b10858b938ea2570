import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes, read from /proc (Linux), to tell what a request costs whoever runs it:
 * on a machine whose cores are all busy, requests per second only say how the cores were shared,
 * while CPU time per request says what more cores would buy.
 */

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU seconds of one process, threads included; 0 when it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted from the state field (3).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Pids of the running processes whose command name is `name` (PostgreSQL's: `postgres`). */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return pids;
}

/** CPU seconds of each process by pid, now: subtract two readings to get what a window cost. */
export function cpuReading(pids: number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuOf(pid)]));
}

/** CPU seconds spent between two readings by the processes of the later one. */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  // A process that started within the window counts from zero.
  for (const [pid, now] of after) seconds += now - (before.get(pid) ?? 0);
  return seconds;
}
