import { appendFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { isolatedStore } from '../../test/helpers/cli.js';
import { freePort, ROOT, serverArgs, startProcess, stop, waitFor200 } from '../lib.js';
import type { PagesLoadResult } from './load.js';

/**
 * What the published-site benchmarks (bench/site, bench/openapi) share: the built server on an
 * isolated store, the node:http baseline answering the bytes Quire answered, the admin API
 * client, the timed first render of every page, and the report lines.
 */

export const TOKEN = 'bench-admin-token-0123456789abcdefghijkl';
/** Hop-by-hop and per-response headers the baseline writes itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export const log = (line: string) => process.stdout.write(`${line}\n`);
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let lastProgress = 0;
/** A progress line: rewritten in place on a terminal, else printed every few seconds. */
export function progress(line: string, done: boolean) {
  if (process.stdout.isTTY) process.stdout.write(`\r${line}   ${done ? '\n' : ''}`);
  else if (done || performance.now() - lastProgress > 5000) {
    lastProgress = performance.now();
    log(line);
  }
}

/** The built server (`dist/`), no limits, on SQLite or in a schema of its own on PostgreSQL. */
export async function startQuire(
  databaseUrl: string | null,
  env: Record<string, string> = {},
  /** Another build's `dist` to start instead of this one's (BENCH_OTHER_DIST in run.ts). */
  dist = path.join(ROOT, 'dist'),
) {
  const store = await isolatedStore(databaseUrl);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF;
  const child = startProcess(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      // e.g. --perf-basic-prof, for `perf record` on the server (the V8 profiler inflates small functions).
      ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
      ...serverArgs(path.join(dist, 'main.js')),
    ],
    {
      DATABASE_URL: '',
      ...store.env,
      PORT: String(port),
      QUIRE_PUBLIC_URL: url,
      QUIRE_ADMIN_TOKEN: TOKEN,
      QUIRE_RATE_LIMIT: '0',
      // Published-site requests are limited per visitor address on their own.
      QUIRE_SITE_RATE_LIMIT: '0',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...env,
    },
  );
  // The server's log lines, appended to that file (LOG_LEVEL from BENCH_LOG_LEVEL), as bench/scale's.
  const logFile = process.env.BENCH_SERVER_LOG;
  if (logFile) {
    const write = (chunk: Buffer) => appendFileSync(logFile, chunk);
    child.stdout?.on('data', write);
    child.stderr?.on('data', write);
  }
  try {
    await waitFor200(`${url}/healthz`);
  } catch (error) {
    await stop(child);
    await store.cleanup();
    throw error;
  }
  return {
    url,
    async close() {
      await stop(child);
      await store.cleanup();
    },
  };
}

/** bench/site/baseline-server.ts answering the pages of `pagesFile` (one JSON object a line). */
export async function startBaseline(pagesFile: string, probe: string, framework?: 'fastify') {
  const port = await freePort();
  const child = startProcess(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/site/baseline-server.ts')],
    {
      PORT: String(port),
      BASELINE_PAGES: pagesFile,
      ...(framework ? { BASELINE_FRAMEWORK: framework } : {}),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}${probe}`, 120_000);
  return { url, close: () => stop(child) };
}

/** The API as the admin, answering parsed JSON; anything but 2xx throws with the answer. */
export function api(base: string) {
  return async <T = Record<string, unknown>>(
    method: string,
    route: string,
    payload?: unknown,
  ): Promise<T> => {
    const res = await fetch(`${base}/v1${route}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route} -> ${res.status}: ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}
export type Api = ReturnType<typeof api>;

export interface Rendered {
  url: string;
  path: string;
  etag: string;
  body: string;
  headers: Record<string, string>;
  notModified: Record<string, string>;
  ms: number;
}

function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!OWN_HEADERS.has(name.toLowerCase())) kept[name] = value;
  });
  return kept;
}

/**
 * One GET of every page, in order, timed (each body handed to `check`, which throws when the
 * page is not what it should be); then one revalidation of each, which must be 304.
 */
export async function warm(
  urls: string[],
  check: (index: number, body: string) => void = () => {},
): Promise<Rendered[]> {
  const out: Rendered[] = [];
  const started = performance.now();
  for (const [index, url] of urls.entries()) {
    const t0 = performance.now();
    const res = await fetch(url, { redirect: 'manual' });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${url} -> ${res.status}`);
    const etag = res.headers.get('etag');
    if (!etag) throw new Error(`GET ${url} answered no ETag`);
    check(index, body);
    out.push({
      url,
      path: new URL(url).pathname,
      etag,
      body,
      headers: keptHeaders(res.headers),
      notModified: {},
      ms,
    });
    progress(
      `  first render: ${out.length}/${urls.length} pages in ${seconds(performance.now() - started)}`,
      out.length === urls.length,
    );
  }
  for (const page of out) {
    const res = await fetch(page.url, { redirect: 'manual', headers: { 'if-none-match': page.etag } });
    await res.arrayBuffer();
    if (res.status !== 304) throw new Error(`GET ${page.url} with its ETag -> ${res.status}`);
    page.notModified = keptHeaders(res.headers);
  }
  return out;
}

/** One load result as a report line. */
export function fmt(r: PagesLoadResult): string {
  return `${r.requestsPerSec.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms  ${(r.bytesPerSec / 1e6).toFixed(0).padStart(4)} MB/s  unexpected ${r.unexpected}  errors ${r.errors}`;
}

/** What a probe saw: each answer's time in ms. */
export interface ProbeResult {
  ms: number[];
  failed: number;
}

/**
 * GET /healthz every 10 ms on a connection of its own, until stopped: how long the server keeps
 * others waiting while it works (a sync parsing hundreds of pages, a long transaction).
 */
export function probe(base: string): { stop(): Promise<ProbeResult> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const result: ProbeResult = { ms: [], failed: 0 };
  let running = true;
  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      http
        .get(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) result.ms.push(performance.now() - started);
            else result.failed++;
            resolve();
          });
        })
        .on('error', () => {
          result.failed++;
          resolve();
        });
    });
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return result;
    },
  };
}
