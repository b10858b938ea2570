/**
 * bench/api: GET /v1/orgs/{id} with a token at 50 connections against a bare node:http server
 * answering the same bytes, in the same run; then the time from `npm start` on an empty data
 * directory to the first 200 from /healthz.
 *
 *   npm run bench:api                      # SQLite
 *   DATABASE_URL=postgres://... npm run bench:api   # also PostgreSQL
 *
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 2).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isolatedStore } from '../../test/helpers/cli.js';
import {
  freePort,
  type LoadResult,
  load,
  median,
  ROOT,
  serverArgs,
  startProcess,
  stop,
  waitFor200,
} from '../lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TOKEN = 'bench-admin-token-0123456789abcdefghijkl';

function log(line: string) {
  process.stdout.write(`${line}\n`);
}

async function startQuire(databaseUrl: string | null) {
  const store = await isolatedStore(databaseUrl);
  const port = await freePort();
  const child = startProcess(process.execPath, serverArgs(path.join(ROOT, 'dist/main.js')), {
    DATABASE_URL: '',
    ...store.env,
    PORT: String(port),
    QUIRE_ADMIN_TOKEN: TOKEN,
    QUIRE_RATE_LIMIT: '10000000',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/healthz`);
  return {
    url,
    async close() {
      await stop(child);
      await store.cleanup();
    },
  };
}

async function startBaseline(body: string) {
  const port = await freePort();
  const child = startProcess(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'bench/api/baseline-server.ts')],
    {
      PORT: String(port),
      BASELINE_BODY: body,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(url);
  return { url, close: () => stop(child) };
}

function fmt(r: LoadResult): string {
  return `${r.requestsPerSec.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(3)} ms  non-2xx ${r.non2xx}  errors ${r.errors}`;
}

async function throughput(label: string, databaseUrl: string | null) {
  const quire = await startQuire(databaseUrl);
  const auth = { authorization: `Bearer ${TOKEN}` };
  const orgs = (await (await fetch(`${quire.url}/v1/orgs`, { headers: auth })).json()) as {
    items: Array<{ id: string }>;
  };
  const target = `${quire.url}/v1/orgs/${orgs.items[0]!.id}`;
  const body = await (await fetch(target, { headers: auth })).text();
  const baseline = await startBaseline(body);

  // Warm both up so neither pays for JIT compilation inside the measurement.
  await load(baseline.url, {}, CONNECTIONS, 2);
  await load(target, auth, CONNECTIONS, 2);

  const base: LoadResult[] = [];
  const ours: LoadResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    base.push(await load(baseline.url, {}, CONNECTIONS, SECONDS));
    ours.push(await load(target, auth, CONNECTIONS, SECONDS));
    log(`  round ${round}: baseline ${fmt(base.at(-1)!)}`);
    log(`  round ${round}: quire    ${fmt(ours.at(-1)!)}`);
  }
  await baseline.close();
  await quire.close();

  const baseRps = median(base.map((r) => r.requestsPerSec));
  const ourRps = median(ours.map((r) => r.requestsPerSec));
  log(
    `${label}: quire ${ourRps.toFixed(0)} req/s (p99 ${median(ours.map((r) => r.p99))} ms) vs node:http ${baseRps.toFixed(0)} req/s (p99 ${median(base.map((r) => r.p99))} ms): ratio ${(ourRps / baseRps).toFixed(2)}`,
  );
  if (ours.some((r) => r.non2xx > 0 || r.errors > 0)) log(`${label}: WARNING some requests failed`);
}

async function startupTime(runs = 3) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-start-'));
    const port = await freePort();
    const child = startProcess('npm', ['start', '--silent'], {
      PORT: String(port),
      QUIRE_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    });
    times.push(await waitFor200(`http://127.0.0.1:${port}/healthz`));
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  log(
    `startup: npm start on an empty data directory to the first 200 from /healthz: median ${median(times).toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`,
  );
}

log('building (npm run build)');
execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
log(`GET /v1/orgs/{id}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS}s each`);
await throughput('sqlite', null);
if (process.env.DATABASE_URL) await throughput('postgres', process.env.DATABASE_URL);
await startupTime();
