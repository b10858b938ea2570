import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { SERVER_NODE_FLAGS } from '../src/server-flags.js';

/** What a bench starts a server with: the flags `quire serve` runs with, then its script. */
export const serverArgs = (main: string): string[] => [...SERVER_NODE_FLAGS, main, 'serve'];

/**
 * Runs this bench again in a process with the flags a Quire server runs with, when this one lacks
 * them (a bench that builds its server in its own process measures it as it is deployed); answers
 * that run's exit status, or undefined when this process has them.
 */
export function rerunWithServerFlags(): number | undefined {
  const given = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const missing = SERVER_NODE_FLAGS.filter((flag) => !given.includes(flag));
  if (missing.length === 0) return undefined;
  const options = [process.env.NODE_OPTIONS, ...missing].filter(Boolean).join(' ');
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: options },
  });
  return run.status ?? 1;
}

export { freePort } from '../test/helpers/net.js';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Polls `url` until it answers 200; returns the milliseconds it took. */
export async function waitFor200(url: string, timeoutMs = 60_000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return performance.now() - start;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): ChildProcess {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, so that stop() reaches what it starts too (`npm start` runs node).
    detached: true,
  });
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  child.once('exit', (code, signal) => {
    if (code)
      process.stderr.write(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${stderr}\n`);
  });
  return child;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // the group is already gone
      child.kill('SIGTERM');
      setTimeout(resolve, 200);
    }
  });
}

export interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds, pipelining: 1 });
  return {
    requestsPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
