/**
 * bench/site: a published docs site of 2,000 pages (40 sections × 7 topics × 6 pages, ~1.5 KB of
 * markdown each), seeded through the HTTP API (change requests of 50 inserts, merged), served
 * by the built server. Measures the first render of every page (the slowest one is "the time to
 * render the slowest page"), then page views per second at 50 connections cycling over all
 * 2,000 URLs (A: full pages, B: revalidations with If-None-Match answered 304), against a bare
 * node:http server answering the same bytes from memory in the same run. Target: ratio ≥ 0.3.
 * While the site is seeded and its pages first rendered, another connection asks GET /healthz every
 * 10 ms: how long the server keeps a request waiting while it indexes the merges for search.
 *
 *   npm run bench:site                               # SQLite (builds dist first, like bench:api)
 *   DATABASE_URL=postgres://... npm run bench:site   # PostgreSQL instead, in a schema of its own
 *
 * Env: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (default 1),
 * BENCH_TESTS (default `A,B`; one alone while profiling), BENCH_SKIP_BUILD=1 to reuse dist as it
 * is, BENCH_CPU_PROF=<dir> to run the server under `node --cpu-prof` (written when it stops),
 * BENCH_NODE_FLAGS for more flags to the server's node (`--perf-basic-prof` for `perf record`),
 * BENCH_SERVER_LOG=<file> to append the server's log to it (at BENCH_LOG_LEVEL, default warn),
 * BENCH_FASTIFY=1 to load the same answers through bare Fastify too (the framework's own ceiling),
 * BENCH_OTHER_DIST=<dir> to load another build of Quire too (the `dist` of a worktree of an older
 * commit, built there), seeded alike and taking its turn in every round: a change's effect
 * measured in one run, whose machine is the same for both (the baseline swings from run to run).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, ROOT } from '../lib.js';
import { docsPages, type PageSpec } from './content.js';
import { api, fmt, log, probe, progress, seconds, startBaseline, startQuire, warm } from './harness.js';
import { loadPages, type PageRequest, type PagesLoadResult } from './load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** Which load tests to run. */
const TESTS = (process.env.BENCH_TESTS ?? 'A,B').split(',');
/** Whether bare Fastify answering the same bytes is measured too (see baseline-server.ts). */
const FASTIFY = process.env.BENCH_FASTIFY === '1';
/** Another build of Quire loaded in the same rounds (see above). */
const OTHER_DIST = process.env.BENCH_OTHER_DIST;
const BATCH = 50;
/** The space, written 50 inserts per change request, each merged; then the site, published. */
async function seed(base: string, specs: PageSpec[]) {
  const call = api(base);
  const orgs = await call<{ items: Array<{ id: string }> }>('GET', '/orgs');
  const orgId = orgs.items[0]!.id;
  const space = await call<{ id: string }>('POST', `/orgs/${orgId}/spaces`, { title: 'Product docs' });
  const ids = new Map<string, string>();
  const started = performance.now();
  let written = 0;
  for (const level of [0, 1, 2]) {
    const specsAt = specs.filter((s) => s.level === level);
    for (let start = 0; start < specsAt.length; start += BATCH) {
      const batch = specsAt.slice(start, start + BATCH);
      const cr = await call<{ id: string }>('POST', `/spaces/${space.id}/change-requests`, {
        subject: `Docs ${written + 1}-${written + batch.length}`,
      });
      const outcome = await call<{ changes: Array<{ object: string; ref?: string; page: { id: string } }> }>(
        'POST',
        `/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`,
        {
          changes: batch.map((s) => ({
            operation: 'insert_page',
            ref: s.ref,
            title: s.title,
            slug: s.slug,
            ...(s.parent ? { into: ids.get(s.parent)! } : {}),
            document: { markdown: s.markdown },
          })),
        },
      );
      for (const change of outcome.changes)
        if (change.object === 'created_page' && change.ref) ids.set(change.ref, change.page.id);
      await call('POST', `/spaces/${space.id}/change-requests/${cr.id}/merge`);
      written += batch.length;
      const elapsed = performance.now() - started;
      progress(
        `  seeding: ${written}/${specs.length} pages in ${seconds(elapsed)} (${((elapsed / written) * BATCH).toFixed(0)} ms per change request of ${BATCH})`,
        written === specs.length,
      );
    }
  }
  const seedMs = performance.now() - started;
  const site = await call<{ id: string }>('POST', `/orgs/${orgId}/sites`, {
    title: 'Product docs',
    visibility: 'public',
    spaces: [space.id],
  });
  const published = await call<{ urls: { published?: string } }>(
    'POST',
    `/orgs/${orgId}/sites/${site.id}/publish`,
  );
  const root = published.urls.published;
  if (!root) throw new Error('the published site has no urls.published');
  // Page paths as Quire answers them, in reading order (the first page is the site's root).
  type Page = { id: string; type: string; path: string; pages?: Page[] };
  const tree = await call<{ pages: Page[] }>('GET', `/spaces/${space.id}/content/pages`);
  const paths: string[] = [];
  const walk = (pages: Page[]) => {
    for (const p of pages) {
      if (p.type === 'document') paths.push(p.path);
      walk(p.pages ?? []);
    }
  };
  walk(tree.pages);
  const rootDir = root.endsWith('/') ? root : `${root}/`;
  const urls = paths.map((p, i) =>
    i === 0 ? root : rootDir + p.split('/').map(encodeURIComponent).join('/'),
  );
  return { urls, seedMs };
}

async function run(label: string, databaseUrl: string | null) {
  log(`${label}:`);
  const quire = await startQuire(databaseUrl);
  let other: Awaited<ReturnType<typeof startQuire>> | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-site-'));
  try {
    const specs = docsPages();
    const avg = specs.reduce((n, s) => n + Buffer.byteLength(s.markdown), 0) / specs.length;
    log(`  space of ${specs.length} pages, ${(avg / 1024).toFixed(1)} KB of markdown each on average`);
    // Seeding merges 50 pages at a time, and each merge is indexed for search in the background.
    const probing = probe(quire.url);
    const { urls, seedMs } = await seed(quire.url, specs);
    log(`  seeded and published in ${seconds(seedMs)}: ${urls.length} page URLs under ${urls[0]}`);

    const pages = await warm(urls);
    const probed = await probing.stop();
    const waits = [...probed.ms].sort((a, b) => a - b);
    const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(waits.length * q))]!.toFixed(1);
    log(
      `  GET /healthz every 10 ms on another connection while seeding and rendering: ${waits.length} answers, median ${at(0.5)} ms, p99 ${at(0.99)} ms, p99.9 ${at(0.999)} ms, slowest ${waits.at(-1)!.toFixed(1)} ms, ${waits.filter((ms) => ms > 250).length} over 250 ms${probed.failed ? `, ${probed.failed} failed` : ''}`,
    );
    const slowest = pages.reduce((a, b) => (b.ms > a.ms ? b : a));
    const renderMs = pages.map((p) => p.ms);
    const htmlKb = pages.reduce((n, p) => n + Buffer.byteLength(p.body), 0) / pages.length / 1024;
    log(
      `  first render: median ${median(renderMs).toFixed(1)} ms, slowest ${slowest.ms.toFixed(1)} ms (${slowest.path}), the very first (the site's root, reading the revision) ${pages[0]!.ms.toFixed(1)} ms; HTML ${htmlKb.toFixed(0)} KB per page on average`,
    );

    const bytes = pages.map((p) => Buffer.byteLength(p.body));
    log(
      `  page size: median ${median(bytes)} bytes (${(median(bytes) / 1024).toFixed(1)} KB), largest ${Math.max(...bytes)} bytes`,
    );
    // Pages of a large space send a trimmed tree and name the whole one, served once per revision.
    const treeUrl = /data-tree="([^"]+)"/.exec(pages[0]!.body)?.[1]?.replace(/&amp;/g, '&');
    if (treeUrl) {
      const res = await fetch(treeUrl);
      const tree = await res.arrayBuffer();
      log(
        `  whole tree (one fetch per revision): ${(tree.byteLength / 1024).toFixed(0)} KB, ${res.status}, Cache-Control: ${res.headers.get('cache-control')}`,
      );
    }

    // The other build: its own store, seeded and warmed alike (its ids and ETags are its own).
    other = OTHER_DIST ? await startQuire(databaseUrl, {}, path.resolve(OTHER_DIST)) : undefined;
    const otherPages = other ? await warm((await seed(other.url, specs)).urls) : undefined;
    if (other) log(`  the other build (${OTHER_DIST}) seeded and warmed: ${otherPages!.length} pages`);

    const pagesFile = path.join(dir, 'pages.jsonl');
    // One page a line: all of them in one string would pass V8's limit on string length.
    const file = openSync(pagesFile, 'w');
    for (const p of pages)
      writeSync(
        file,
        `${JSON.stringify({ path: p.path, etag: p.etag, body: p.body, headers: p.headers, notModified: p.notModified })}\n`,
      );
    closeSync(file);
    const results: Array<{
      test: string;
      base: PagesLoadResult[];
      ours: PagesLoadResult[];
      framework: PagesLoadResult[];
      others: PagesLoadResult[];
    }> = [];
    const baseline = await startBaseline(pagesFile, pages[0]!.path);
    const fastify = FASTIFY ? await startBaseline(pagesFile, pages[0]!.path, 'fastify') : undefined;
    try {
      const full: PageRequest[] = pages.map((p) => ({ path: p.path }));
      const revalidate: PageRequest[] = pages.map((p) => ({
        path: p.path,
        headers: { 'if-none-match': p.etag },
      }));
      const otherFull: PageRequest[] = (otherPages ?? []).map((p) => ({ path: p.path }));
      const otherRevalidate: PageRequest[] = (otherPages ?? []).map((p) => ({
        path: p.path,
        headers: { 'if-none-match': p.etag },
      }));
      for (const [test, requests, status, otherRequests] of [
        ['A: page views (200)', full, 200, otherFull],
        ['B: revalidations (304)', revalidate, 304, otherRevalidate],
      ] as const) {
        if (!TESTS.includes(test[0]!)) continue;
        // Warm both up so neither pays for JIT compilation inside the measurement.
        await loadPages(baseline.url, requests, status, CONNECTIONS, 2);
        await loadPages(quire.url, requests, status, CONNECTIONS, 2);
        if (fastify) await loadPages(fastify.url, requests, status, CONNECTIONS, 2);
        if (other) await loadPages(other.url, otherRequests, status, CONNECTIONS, 2);
        const others: PagesLoadResult[] = [];
        const base: PagesLoadResult[] = [];
        const ours: PagesLoadResult[] = [];
        const framework: PagesLoadResult[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          base.push(await loadPages(baseline.url, requests, status, CONNECTIONS, SECONDS));
          ours.push(await loadPages(quire.url, requests, status, CONNECTIONS, SECONDS));
          log(`  ${test} round ${round}: baseline ${fmt(base.at(-1)!)}`);
          log(`  ${test} round ${round}: quire    ${fmt(ours.at(-1)!)}`);
          if (fastify) {
            framework.push(await loadPages(fastify.url, requests, status, CONNECTIONS, SECONDS));
            log(`  ${test} round ${round}: fastify  ${fmt(framework.at(-1)!)}`);
          }
          if (other) {
            others.push(await loadPages(other.url, otherRequests, status, CONNECTIONS, SECONDS));
            log(`  ${test} round ${round}: other    ${fmt(others.at(-1)!)}`);
          }
        }
        results.push({ test, base, ours, framework, others });
      }
    } finally {
      await baseline.close();
      await fastify?.close();
    }

    log(`  ${'-'.repeat(86)}`);
    log(
      `  ${label.padEnd(8)} ${'test'.padEnd(24)} ${'quire req/s'.padStart(11)} ${'p99'.padStart(6)} ${'node:http'.padStart(10)} ${'p99'.padStart(6)} ${'ratio'.padStart(6)}  target`,
    );
    for (const { test, base, ours, framework, others } of results) {
      const ourRps = median(ours.map((r) => r.requestsPerSec));
      const baseRps = median(base.map((r) => r.requestsPerSec));
      const ratio = ourRps / baseRps;
      log(
        `  ${label.padEnd(8)} ${test.padEnd(24)} ${ourRps.toFixed(0).padStart(11)} ${`${median(ours.map((r) => r.p99))}ms`.padStart(6)} ${baseRps.toFixed(0).padStart(10)} ${`${median(base.map((r) => r.p99))}ms`.padStart(6)} ${ratio.toFixed(2).padStart(6)}  ≥ 0.3 ${ratio >= 0.3 ? 'ok' : 'MISSED'}`,
      );
      if (framework.length > 0) {
        const frameworkRps = median(framework.map((r) => r.requestsPerSec));
        log(
          `  ${label.padEnd(8)} ${'  bare Fastify, same bytes'.padEnd(24)} ${frameworkRps.toFixed(0).padStart(11)} ${`${median(framework.map((r) => r.p99))}ms`.padStart(6)} ${baseRps.toFixed(0).padStart(10)} ${''.padStart(6)} ${(frameworkRps / baseRps).toFixed(2).padStart(6)}  (the framework's own ceiling; Quire at ${(ourRps / frameworkRps).toFixed(2)} of it)`,
        );
      }
      if (others.length > 0) {
        const otherRps = median(others.map((r) => r.requestsPerSec));
        log(
          `  ${label.padEnd(8)} ${'  the other build'.padEnd(24)} ${otherRps.toFixed(0).padStart(11)} ${`${median(others.map((r) => r.p99))}ms`.padStart(6)} ${baseRps.toFixed(0).padStart(10)} ${''.padStart(6)} ${(otherRps / baseRps).toFixed(2).padStart(6)}  (this build at ${(ourRps / otherRps).toFixed(2)} of it)`,
        );
      }
      if ([...ours, ...others].some((r) => r.unexpected > 0 || r.errors > 0))
        log(`  ${label} ${test}: WARNING some requests failed`);
    }
    log(
      `  ${label.padEnd(8)} slowest first render: ${slowest.ms.toFixed(1)} ms (${slowest.path}), median ${median(renderMs).toFixed(1)} ms over ${pages.length} pages`,
    );
  } finally {
    await other?.close();
    await quire.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_SKIP_BUILD !== '1') {
  log('building (npm run build)');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
}
log(
  `published site of ${docsPages().length} pages: ${CONNECTIONS} connections over every page URL, ${ROUNDS} round(s) of ${SECONDS}s per test`,
);
if (process.env.DATABASE_URL) await run('postgres', process.env.DATABASE_URL);
else await run('sqlite', null);
