import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { isolatedStore } from '../../test/helpers/cli.js';
import { freePort, ROOT, serverArgs, startProcess, stop, waitFor200 } from '../lib.js';
import { prng } from '../search/corpus.js';
import { spacePages } from './content.js';
import { cpuReading, cpuSpent, pidsNamed } from './cpu-time.js';
import { Client } from './http.js';
import { figureRow, log } from './report.js';

/**
 * Part `processes`: mixed reads and writes at a fixed number of connections, spread round-robin
 * over three `quire serve` processes (the built dist/main.js) sharing one store (one PostgreSQL
 * schema, or one SQLite file), against the same load on one process alone. Each connection is a
 * loop of sequential requests: 90% reads (organization, space, page by id, page by path, list
 * of spaces), 10% writes (BENCH_WRITE_SHARE; half a space title update, half a change request with one page
 * update, merged: three requests). Every process runs its background worker (search indexing
 * after merges), as in production. The CPU time each request cost the servers, the database and
 * the load generator is read from /proc (cpu-time.ts): with every core busy, requests per second
 * only say how the cores were shared; CPU time a request says whether three processes do more
 * work than one for the same requests, which is what decides how they scale with more cores.
 */

const TOKEN = 'bench-scale-admin-token-0123456789abcdefghij';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 24);
/** The share of the loop's rounds that write (0 for reads only, to tell what writes cost). */
const WRITES = Math.min(1, Math.max(0, Number(process.env.BENCH_WRITE_SHARE ?? 0.1)));
const SPACES = 20;
const PAGES_PER_SPACE = 100;

interface Target {
  spaceId: string;
  pages: Array<{ id: string; path: string }>;
}

export async function processesPart(cores: number): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL ?? null;
  const dialect = databaseUrl ? 'postgres' : 'sqlite';
  log(
    `\n## processes: ${CONNECTIONS} connections of mixed reads and writes over 1 and over 3 \`quire serve\` processes on one ${dialect} store; ${cores} cores`,
  );
  if (process.env.BENCH_SKIP_BUILD !== '1') {
    log('building (npm run build)');
    try {
      execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    } catch {
      // tsc writes its output even when another file does not type-check (others may be
      // editing src/): run on what it wrote, as the CLI tests do.
      log('npm run build reported errors; running on what it wrote');
    }
  }
  if (!existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/main.js is missing');

  const store = await isolatedStore(databaseUrl);
  const servers: Array<{ url: string; pid: number; close: () => Promise<void> }> = [];
  const start = async () => {
    const port = await freePort();
    const profile = process.env.BENCH_CPU_PROF;
    const child = startProcess(
      process.execPath,
      [
        ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
        ...serverArgs(path.join(ROOT, 'dist/main.js')),
      ],
      {
        ...(databaseUrl ? {} : { DATABASE_URL: '' }),
        ...store.env,
        PORT: String(port),
        QUIRE_PUBLIC_URL: `http://127.0.0.1:${port}`,
        QUIRE_ADMIN_TOKEN: TOKEN,
        QUIRE_RATE_LIMIT: '0',
        QUIRE_SITE_RATE_LIMIT: '0',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      },
    );
    const logFile = process.env.BENCH_SERVER_LOG;
    if (logFile) {
      const write = (chunk: Buffer) => appendFileSync(logFile, chunk);
      child.stdout?.on('data', write);
      child.stderr?.on('data', write);
    }
    const url = `http://127.0.0.1:${port}`;
    await waitFor200(`${url}/healthz`, 120_000);
    servers.push({ url, pid: child.pid!, close: () => stop(child) });
  };
  try {
    await start();
    const admin = new Client(servers[0]!.url, TOKEN);
    const orgs = await admin.json<{ items: Array<{ id: string }> }>('GET', '/v1/orgs');
    const orgId = orgs.json.items[0]!.id;
    const targets = await seed(admin, orgId);
    admin.close();

    await warm(servers.slice(0, 1), targets);
    const one = await mixedLoad(servers.slice(0, 1), orgId, targets, 'one process', databaseUrl !== null);
    await start();
    await start();
    await warm(servers, targets);
    const three = await mixedLoad(servers, orgId, targets, 'three processes', databaseUrl !== null);
    const ratio = one.rps > 0 ? three.rps / one.rps : 0;
    const row = (label: string, r: LoadOutcome) =>
      figureRow({
        part: 'processes',
        operation: `mixed ${Math.round((1 - WRITES) * 100)}% reads / ${Math.round(WRITES * 100)}% writes, ${CONNECTIONS} connections, ${label}`,
        value: `${r.rps.toFixed(0)} req/s`,
        numbers: {
          requestsPerSec: r.rps,
          requests: r.requests,
          errors: r.errors,
          p50: r.p50,
          p99: r.p99,
          ...r.cpu,
        },
        target: '',
        pass: r.errors === 0 ? null : false,
        note: `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.errors ? `, ${r.errors} failed` : ''}; CPU a request: ${cpuNote(r.cpu)}`,
      });
    row('1 process', one);
    row('3 processes', three);
    // What more cores would buy: the servers' CPU time a request, three processes against one.
    // Equal, the three scale with the cores they get; higher, running three costs more work.
    const cpuRatio = one.cpu.serverMs > 0 ? three.cpu.serverMs / one.cpu.serverMs : 0;
    figureRow({
      part: 'processes',
      operation: 'server CPU time a request, 3 processes / 1 process',
      value: `${cpuRatio.toFixed(2)}x`,
      numbers: { ratio: cpuRatio },
      target: '',
      pass: null,
      note: `${one.cpu.serverMs.toFixed(2)} -> ${three.cpu.serverMs.toFixed(2)} ms`,
    });
    figureRow({
      part: 'processes',
      operation: '3 processes / 1 process',
      value: `${ratio.toFixed(2)}x`,
      numbers: { ratio, cores },
      target: '≥ 2x with enough cores',
      pass: cores >= 4 ? ratio >= 2 : null,
      note:
        cores >= 4
          ? `${cores} cores`
          : `${cores} cores: three processes, the database and the load generator share them, so the target cannot show here`,
    });
  } finally {
    for (const s of servers) await s.close();
    await store.cleanup();
  }
}

/** SPACES spaces of PAGES_PER_SPACE pages each, through the HTTP API (50 inserts a write). */
async function seed(admin: Client, orgId: string): Promise<Target[]> {
  const started = performance.now();
  const targets: Target[] = [];
  const specs = spacePages(PAGES_PER_SPACE);
  for (let s = 0; s < SPACES; s++) {
    const space = await admin.json<{ id: string }>('POST', `/v1/orgs/${orgId}/spaces`, {
      title: `Space ${s + 1}`,
    });
    const cr = await admin.json<{ id: string }>('POST', `/v1/spaces/${space.json.id}/change-requests`, {
      subject: 'Seed',
    });
    const ids: string[] = [];
    for (let from = 0; from < specs.length; from += 50) {
      const out = await admin.json<{
        changes: Array<{ object: string; ref?: string; page: { id: string } }>;
      }>('POST', `/v1/spaces/${space.json.id}/change-requests/${cr.json.id}/content?compat=false`, {
        changes: specs.slice(from, from + 50).map((p) => ({
          operation: 'insert_page',
          ref: String(p.index),
          title: p.title,
          slug: p.slug,
          ...(p.parent === null ? {} : { into: ids[p.parent] ?? String(p.parent) }),
          document: { markdown: p.markdown },
        })),
      });
      for (const c of out.json.changes)
        if (c.object === 'created_page' && c.ref) ids[Number(c.ref)] = c.page.id;
    }
    await admin.json('POST', `/v1/spaces/${space.json.id}/change-requests/${cr.json.id}/merge`);
    type Page = { id: string; type: string; path: string; pages?: Page[] };
    const tree = await admin.json<{ pages: Page[] }>('GET', `/v1/spaces/${space.json.id}/content/pages`);
    const pages: Target['pages'] = [];
    const walk = (list: Page[]) => {
      for (const p of list) {
        if (p.type === 'document') pages.push({ id: p.id, path: p.path });
        walk(p.pages ?? []);
      }
    };
    walk(tree.json.pages);
    targets.push({ spaceId: space.json.id, pages });
  }
  log(
    `  seeded ${SPACES} spaces of ${specs.length} pages through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return targets;
}

/**
 * Every page read once through each server, by id and by path, as on a server that has run a
 * while: a process converts a page's markdown the first time it serves it, and the few seconds of
 * warm-up reached a third as many pages on each of three processes as on one, so the three were
 * measured converting pages the one had already converted.
 */
async function warm(servers: Array<{ url: string }>, targets: Target[]): Promise<void> {
  const started = performance.now();
  await Promise.all(
    servers.map(async ({ url }) => {
      const client = new Client(url, TOKEN);
      try {
        for (const target of targets)
          for (const page of target.pages) {
            await client.request('GET', `/v1/spaces/${target.spaceId}/content/page/${page.id}`);
            await client.request('GET', `/v1/spaces/${target.spaceId}/content/path/${page.path}`);
          }
      } finally {
        client.close();
      }
    }),
  );
  log(
    `  every page read once through each of ${servers.length} processes: ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

interface LoadOutcome {
  rps: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  cpu: CpuShare;
}

/** CPU milliseconds a request of the measured window, by who spent them, and the cores kept busy. */
interface CpuShare {
  serverMs: number;
  /** PostgreSQL's processes (on SQLite the servers do the database's work). */
  databaseMs: number;
  /** This process: the clients sending the load. */
  loadMs: number;
  coresBusy: number;
}

function cpuNote(cpu: CpuShare): string {
  return `servers ${cpu.serverMs.toFixed(2)} ms, database ${cpu.databaseMs.toFixed(2)} ms, load generator ${cpu.loadMs.toFixed(2)} ms; ${cpu.coresBusy.toFixed(2)} cores busy`;
}

/**
 * CONNECTIONS loops of sequential requests, connection i on server i mod n; a warm-up of a few
 * seconds, then SECONDS measured. Requests/s counts every HTTP request (a merged change request
 * is three).
 */
async function mixedLoad(
  servers: Array<{ url: string; pid: number }>,
  orgId: string,
  targets: Target[],
  label: string,
  postgres: boolean,
): Promise<LoadOutcome> {
  const urls = servers.map((s) => s.url);
  const serverPids = servers.map((s) => s.pid);
  const run = async (seconds: number) => {
    const deadline = performance.now() + seconds * 1000;
    const times: number[] = [];
    let errors = 0;
    const loops = Array.from({ length: CONNECTIONS }, async (_, c) => {
      const client = new Client(urls[c % urls.length]!, TOKEN);
      const random = prng(1000 + c);
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
      const timed = async (method: string, route: string, body?: unknown) => {
        const answer = await client.request(method, route, body);
        times.push(answer.ms);
        if (answer.status >= 300) {
          errors++;
          if (errors <= 3) log(`  ${method} ${route} -> ${answer.status}: ${answer.text.slice(0, 200)}`);
        }
        return answer;
      };
      try {
        while (performance.now() < deadline) {
          // Reads take [0, 0.9) of the roll and writes [0.9, 1), whatever their shares.
          const draw = random();
          const roll =
            draw < 1 - WRITES ? (draw / (1 - WRITES)) * 0.9 : 0.9 + ((draw - (1 - WRITES)) / WRITES) * 0.1;
          const target = pick(targets);
          const page = pick(target.pages);
          if (roll < 0.2) await timed('GET', `/v1/orgs/${orgId}`);
          else if (roll < 0.4) await timed('GET', `/v1/spaces/${target.spaceId}`);
          else if (roll < 0.6) await timed('GET', `/v1/spaces/${target.spaceId}/content/page/${page.id}`);
          else if (roll < 0.8) await timed('GET', `/v1/spaces/${target.spaceId}/content/path/${page.path}`);
          else if (roll < 0.9) await timed('GET', `/v1/orgs/${orgId}/spaces?limit=20`);
          else if (roll < 0.95)
            await timed('PATCH', `/v1/spaces/${target.spaceId}`, { title: `Space ${c}-${times.length}` });
          else {
            const cr = await timed('POST', `/v1/spaces/${target.spaceId}/change-requests`, {
              subject: `Edit by ${c}`,
            });
            if (cr.status !== 201 && cr.status !== 200) continue;
            const crId = (JSON.parse(cr.text) as { id: string }).id;
            await timed('POST', `/v1/spaces/${target.spaceId}/change-requests/${crId}/content`, {
              changes: [
                {
                  operation: 'update_page',
                  page: page.id,
                  document: { markdown: `# Edited by connection ${c}\n\nAt ${new Date().toISOString()}.` },
                },
              ],
            });
            await timed('POST', `/v1/spaces/${target.spaceId}/change-requests/${crId}/merge`);
          }
        }
      } finally {
        client.close();
      }
    });
    const started = performance.now();
    const serversBefore = cpuReading(serverPids);
    const databaseBefore = cpuReading(postgres ? pidsNamed('postgres') : []);
    const loadBefore = process.cpuUsage();
    await Promise.all(loops);
    const elapsed = performance.now() - started;
    const load = process.cpuUsage(loadBefore);
    const serverSeconds = cpuSpent(serversBefore, cpuReading(serverPids));
    const databaseSeconds = cpuSpent(databaseBefore, cpuReading(postgres ? pidsNamed('postgres') : []));
    const loadSeconds = (load.user + load.system) / 1e6;
    const perRequest = (seconds: number) => (times.length > 0 ? (seconds * 1000) / times.length : 0);
    times.sort((a, b) => a - b);
    return {
      rps: (times.length / elapsed) * 1000,
      requests: times.length,
      errors,
      p50: times[Math.floor(times.length / 2)] ?? 0,
      p99: times[Math.max(0, Math.ceil(times.length * 0.99) - 1)] ?? 0,
      cpu: {
        serverMs: perRequest(serverSeconds),
        databaseMs: perRequest(databaseSeconds),
        loadMs: perRequest(loadSeconds),
        coresBusy: (serverSeconds + databaseSeconds + loadSeconds) / (elapsed / 1000),
      },
    };
  };
  log(`  ${label}: warming up (3 s)`);
  await run(3);
  log(`  ${label}: measuring (${SECONDS} s)`);
  const outcome = await run(SECONDS);
  log(
    `  ${label}: ${outcome.rps.toFixed(0)} req/s, p50 ${outcome.p50.toFixed(1)} ms, p99 ${outcome.p99.toFixed(1)} ms, ${outcome.errors} failed of ${outcome.requests}; CPU a request: ${cpuNote(outcome.cpu)}`,
  );
  return outcome;
}
