/**
 * bench/openapi: a real-world-sized specification (spec.ts: 500 operations, 1,000 schemas, an
 * entry YAML file and ten JSON schema files it reaches through relative `$ref`s), served by a
 * loopback node:http server, measured from processing to the reference page a reader sees.
 *
 * 1. Processing, in this process: Quire's engine (`processSpec` by URL through the guarded
 *    outbound client) against @scalar/json-magic `bundle` (its own loaders, global fetch) +
 *    @scalar/openapi-parser `validate` alone, alternating, medians. Target: ratio ≤ 1.5.
 *    Then, through the built server's API: `POST /v1/orgs/{org}/openapi` by URL until
 *    `processingState` is `complete` (the server's own job worker), once cold and a few times more.
 * 2. Rendering: a space of 100 pages (BENCH_PAGES), each drawing one operation of the spec
 *    (`{% openapi-operation %}`, operations spread over the whole spec), published. The first
 *    render of every page is timed (median, p99); then page views per second at 50 connections
 *    cycling over every page URL (A: full pages, B: revalidations answered 304), against a bare
 *    node:http server answering the same bytes (bench/site/baseline-server.ts). Target ≥ 0.9.
 * 3. A summary table with the ratios and whether the targets are met. A missed target does not
 *    fail the run; an error does.
 *
 *   npm run bench:openapi                               # SQLite (builds dist first)
 *   DATABASE_URL=postgres://... npm run bench:openapi   # PostgreSQL, in a schema of its own
 *
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (load rounds,
 * default 1), BENCH_PROCESS_ROUNDS (default 7), BENCH_E2E_ROUNDS (warm API runs after the cold
 * one, default 3), BENCH_PAGES (default 100), BENCH_TESTS (default `P,E,A,B`: processing, end to
 * end, page views, revalidations), BENCH_SKIP_BUILD=1 to reuse dist as it is, BENCH_CPU_PROF=<dir>
 * to run the server under `node --cpu-prof` (written when it stops).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { escapeHtml } from '../../src/html-escape.js';
import { median, ROOT } from '../lib.js';
import {
  type Api,
  api,
  fmt,
  log,
  progress,
  type Rendered,
  seconds,
  startBaseline,
  startQuire,
  warm,
} from '../site/harness.js';
import { loadPages, type PageRequest, type PagesLoadResult } from '../site/load.js';
import {
  baselineProcessor,
  measureProcessing,
  type ProcessingFigures,
  quireProcessor,
  type SpecServer,
  serveSpec,
} from './processing.js';
import { type SplitSpec, splitSpec } from './spec.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PROCESS_ROUNDS = Number(process.env.BENCH_PROCESS_ROUNDS ?? 7);
const E2E_ROUNDS = Number(process.env.BENCH_E2E_ROUNDS ?? 3);
const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const TESTS = (process.env.BENCH_TESTS ?? 'P,E,A,B').split(',');
const SLUG = 'bench';
const BATCH = 50;
const PROCESS_TARGET = 1.5;
const LOAD_TARGET = 0.9;
const ms = (value: number) => `${value.toFixed(0)} ms`;
/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

interface SpecState {
  processingState: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrorCount?: number;
  lastProcessedErrors?: Array<{ message: string }>;
}

/** Creates spec `slug` from the entry URL and polls it until processed; the milliseconds it took. */
async function createByUrl(call: Api, orgId: string, slug: string, url: string): Promise<number> {
  const started = performance.now();
  await call('POST', `/orgs/${orgId}/openapi`, { slug, source: { url } });
  for (;;) {
    const spec = await call<SpecState>('GET', `/orgs/${orgId}/openapi/${slug}`);
    if (spec.processingState === 'complete') {
      const elapsed = performance.now() - started;
      if (spec.lastProcessErrorCode || !spec.lastVersion)
        throw new Error(
          `spec ${slug} processed with ${spec.lastProcessErrorCode ?? 'no version'}: ${spec.lastProcessedErrors?.[0]?.message}`,
        );
      if (spec.lastProcessedErrorCount)
        throw new Error(
          `spec ${slug} has ${spec.lastProcessedErrorCount} issues: ${spec.lastProcessedErrors?.[0]?.message}`,
        );
      return elapsed;
    }
    if (performance.now() - started > 120_000) throw new Error(`spec ${slug} still ${spec.processingState}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Operation {
  path: string;
  method: string;
  summary: string;
}

/** `count` operations of the spec spread evenly over it, the spec's own sample first. */
function chosenOperations(spec: SplitSpec, count: number): Operation[] {
  const entry = parse(spec.files.get(spec.entry)!) as {
    paths: Record<string, Record<string, { summary: string }>>;
  };
  const all: Operation[] = [];
  for (const [p, item] of Object.entries(entry.paths))
    for (const [method, op] of Object.entries(item)) all.push({ path: p, method, summary: op.summary });
  const sample = all.findIndex((o) => o.path === spec.sample.path && o.method === spec.sample.method);
  const rest = all.filter((_, i) => i !== sample);
  const picked = [all[sample]!];
  for (let i = 0; picked.length < Math.min(count, all.length); i++)
    picked.push(rest[Math.floor((i * rest.length) / (count - 1))]!);
  return picked;
}

/** The space of one page per operation, written 50 inserts per change request, merged; published. */
async function seed(call: Api, orgId: string, operations: Operation[]) {
  const space = await call<{ id: string }>('POST', `/orgs/${orgId}/spaces`, { title: 'API reference' });
  const started = performance.now();
  let written = 0;
  for (let start = 0; start < operations.length; start += BATCH) {
    const batch = operations.slice(start, start + BATCH);
    const cr = await call<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, {
      subject: `Operations ${written + 1}-${written + batch.length}`,
    });
    await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      changes: batch.map((op, i) => ({
        operation: 'insert_page',
        title: `${op.summary} (${op.method.toUpperCase()} ${op.path})`,
        slug: `op-${start + i + 1}`,
        document: {
          markdown: `Reference of \`${op.method.toUpperCase()} ${op.path}\`.\n\n{% openapi-operation spec="${SLUG}" path="${op.path}" method="${op.method}" %}\n{% endopenapi-operation %}\n`,
        },
      })),
    });
    await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
    written += batch.length;
    progress(
      `  seeding: ${written}/${operations.length} pages in ${seconds(performance.now() - started)}`,
      written === operations.length,
    );
  }
  const seedMs = performance.now() - started;
  const site = await call<{ id: string }>('POST', `/orgs/${orgId}/sites`, {
    title: 'API reference',
    visibility: 'public',
    spaces: [space.id],
  });
  const published = await call<{ urls: { published?: string } }>(
    'POST',
    `/orgs/${orgId}/sites/${site.id}/publish`,
  );
  const root = published.urls.published;
  if (!root) throw new Error('the published site has no urls.published');
  type Page = { id: string; type: string; path: string; pages?: Page[] };
  const tree = await call<{ pages: Page[] }>('GET', `/spaces/${space.id}/content/pages`);
  const paths = tree.pages.filter((p) => p.type === 'document').map((p) => p.path);
  if (paths.length !== operations.length)
    throw new Error(`the space has ${paths.length} pages, not ${operations.length}`);
  const rootDir = root.endsWith('/') ? root : `${root}/`;
  // Page URLs in reading order (the first page is the site's root), each with its operation.
  const pages = paths.map((p, i) => ({
    url: i === 0 ? root : rootDir + p.split('/').map(encodeURIComponent).join('/'),
    operation: operations[Number(/^op-(\d+)$/.exec(p)?.[1] ?? 0) - 1]!,
  }));
  if (pages.some((p) => !p.operation))
    throw new Error(`unexpected page paths: ${paths.slice(0, 5).join(', ')}`);
  return { pages, seedMs };
}

interface Summary {
  processing?: ProcessingFigures;
  e2e?: { cold: number; warm: number[] };
  render?: { median: number; p99: number; slowest: Rendered; first: number; count: number; htmlKb: number };
  loads: Array<{ test: string; base: PagesLoadResult[]; ours: PagesLoadResult[] }>;
}

async function processing(spec: SplitSpec, server: SpecServer): Promise<ProcessingFigures> {
  log(`processing (in this process, ${PROCESS_ROUNDS} rounds after 2 warm-up runs each, order alternating):`);
  const figures = await measureProcessing(
    quireProcessor(spec, server),
    baselineProcessor(spec, server),
    PROCESS_ROUNDS,
    2,
    (round, q, b) => log(`  round ${round}: quire processSpec ${ms(q)}, scalar bundle + validate ${ms(b)}`),
  );
  log(
    `  median: quire ${ms(figures.quireMedian)}, baseline ${ms(figures.baselineMedian)}, ratio ${figures.ratio.toFixed(2)}`,
  );
  return figures;
}

async function run(label: string, databaseUrl: string | null, spec: SplitSpec, server: SpecServer) {
  const summary: Summary = { loads: [] };
  if (TESTS.includes('P')) summary.processing = await processing(spec, server);

  log(`${label}: server`);
  const quire = await startQuire(databaseUrl, { QUIRE_OUTBOUND_ALLOW: `127.0.0.1:${server.port}` });
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-openapi-'));
  try {
    const call = api(quire.url);
    const orgs = await call<{ items: Array<{ id: string }> }>('GET', '/orgs');
    const orgId = orgs.items[0]!.id;

    // The spec the pages draw, created first: the server's first processing run is the cold one.
    const cold = await createByUrl(call, orgId, SLUG, server.entryUrl);
    log(`  spec "${SLUG}" created by URL and processed through the API in ${ms(cold)} (cold server)`);
    if (TESTS.includes('E')) {
      const warm: number[] = [];
      for (let i = 1; i <= E2E_ROUNDS; i++) {
        const slug = `${SLUG}-e2e-${i}`;
        warm.push(await createByUrl(call, orgId, slug, server.entryUrl));
        await call('DELETE', `/orgs/${orgId}/openapi/${slug}`);
        log(`  spec "${slug}" created by URL and processed through the API in ${ms(warm.at(-1)!)}`);
      }
      summary.e2e = { cold, warm };
    }

    const operations = chosenOperations(spec, PAGES);
    const seeded = await seed(call, orgId, operations);
    log(
      `  seeded and published in ${seconds(seeded.seedMs)}: ${seeded.pages.length} page URLs under ${seeded.pages[0]!.url}`,
    );

    // Each page must draw its operation, not a notice.
    const pages = await warm(
      seeded.pages.map((page) => page.url),
      (index, body) => {
        const { url, operation: op } = seeded.pages[index]!;
        if (/is not available\.|is not in |Error while loading this API reference/.test(body))
          throw new Error(`GET ${url} drew a notice instead of ${op.method} ${op.path}`);
        if (!body.includes(escapeHtml(op.summary)) || !body.includes('curl'))
          throw new Error(`GET ${url} does not draw ${op.method} ${op.path} (“${op.summary}”, curl sample)`);
      },
    );
    const renderMs = pages.map((p) => p.ms);
    const slowest = pages.reduce((a, b) => (b.ms > a.ms ? b : a));
    const htmlKb = pages.reduce((n, p) => n + Buffer.byteLength(p.body), 0) / pages.length / 1024;
    summary.render = {
      median: median(renderMs),
      p99: percentile(renderMs, 99),
      slowest,
      first: pages[0]!.ms,
      count: pages.length,
      htmlKb,
    };
    log(
      `  first render: median ${median(renderMs).toFixed(1)} ms, p99 ${percentile(renderMs, 99).toFixed(1)} ms, slowest ${slowest.ms.toFixed(1)} ms (${slowest.path}), the very first (the site's root, reading the spec's version) ${pages[0]!.ms.toFixed(1)} ms; HTML ${htmlKb.toFixed(0)} KB per page on average`,
    );

    const pagesFile = path.join(dir, 'pages.jsonl');
    const file = openSync(pagesFile, 'w');
    for (const p of pages)
      writeSync(
        file,
        `${JSON.stringify({ path: p.path, etag: p.etag, body: p.body, headers: p.headers, notModified: p.notModified })}\n`,
      );
    closeSync(file);
    const baseline = await startBaseline(pagesFile, pages[0]!.path);
    try {
      const full: PageRequest[] = pages.map((p) => ({ path: p.path }));
      const revalidate: PageRequest[] = pages.map((p) => ({
        path: p.path,
        headers: { 'if-none-match': p.etag },
      }));
      for (const [test, requests, status] of [
        ['A: page views (200)', full, 200],
        ['B: revalidations (304)', revalidate, 304],
      ] as const) {
        if (!TESTS.includes(test[0]!)) continue;
        // Warm both up so neither pays for JIT compilation inside the measurement.
        await loadPages(baseline.url, requests, status, CONNECTIONS, 2);
        await loadPages(quire.url, requests, status, CONNECTIONS, 2);
        const base: PagesLoadResult[] = [];
        const ours: PagesLoadResult[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          base.push(await loadPages(baseline.url, requests, status, CONNECTIONS, SECONDS));
          ours.push(await loadPages(quire.url, requests, status, CONNECTIONS, SECONDS));
          log(`  ${test} round ${round}: baseline ${fmt(base.at(-1)!)}`);
          log(`  ${test} round ${round}: quire    ${fmt(ours.at(-1)!)}`);
        }
        summary.loads.push({ test, base, ours });
      }
    } finally {
      await baseline.close();
    }
  } finally {
    await quire.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return summary;
}

function report(label: string, summary: Summary) {
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const row = (figure: string, ours: string, base: string, ratio: string, target: string) =>
    log(
      `  ${label.padEnd(8)} ${figure.padEnd(32)} ${ours.padStart(13)} ${base.padStart(13)} ${ratio.padStart(6)}  ${target}`,
    );
  log(`  ${'-'.repeat(96)}`);
  row('figure', 'quire', 'baseline', 'ratio', 'target');
  const p = summary.processing;
  if (p)
    row(
      `processing (median of ${p.quire.length})`,
      ms(p.quireMedian),
      ms(p.baselineMedian),
      p.ratio.toFixed(2),
      `≤ ${PROCESS_TARGET} ${verdict(p.ratio <= PROCESS_TARGET)}`,
    );
  for (const { test, base, ours } of summary.loads) {
    const ourRps = median(ours.map((r) => r.requestsPerSec));
    const baseRps = median(base.map((r) => r.requestsPerSec));
    const ratio = ourRps / baseRps;
    row(
      test,
      `${ourRps.toFixed(0)} req/s`,
      `${baseRps.toFixed(0)} req/s`,
      ratio.toFixed(2),
      `≥ ${LOAD_TARGET} ${verdict(ratio >= LOAD_TARGET)}`,
    );
    log(
      `  ${label.padEnd(8)} ${''.padEnd(32)} ${`p99 ${median(ours.map((r) => r.p99))} ms`.padStart(13)} ${`p99 ${median(base.map((r) => r.p99))} ms`.padStart(13)}`,
    );
    if (ours.some((r) => r.unexpected > 0 || r.errors > 0))
      log(`  ${label} ${test}: WARNING some requests failed`);
  }
  const r = summary.render;
  if (r)
    log(
      `  ${label.padEnd(8)} first render of ${r.count} operation pages: median ${r.median.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (slowest ${r.slowest.ms.toFixed(1)} ms ${r.slowest.path}; the very first ${r.first.toFixed(1)} ms), ${r.htmlKb.toFixed(0)} KB of HTML each`,
    );
  const e = summary.e2e;
  if (e)
    log(
      `  ${label.padEnd(8)} through the API (create by URL → complete): ${ms(e.cold)} cold, median ${ms(median(e.warm))} of ${e.warm.length} warm (${e.warm.map(ms).join(', ')})`,
    );
}

if (process.env.BENCH_SKIP_BUILD !== '1') {
  log('building (npm run build)');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}
const spec = splitSpec();
const bytes = [...spec.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
log(
  `spec: ${spec.operations} operations, ${spec.schemas} schemas, ${spec.files.size} files (${spec.entry} + ${spec.files.size - 1} JSON), ${(bytes / 1024).toFixed(0)} KiB; ${PAGES} operation pages, ${CONNECTIONS} connections over every page URL, ${ROUNDS} round(s) of ${SECONDS}s per load test`,
);
const server = await serveSpec(spec);
try {
  const label = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  const summary = await run(label, process.env.DATABASE_URL ?? null, spec, server);
  report(label, summary);
} finally {
  await server.close();
}
