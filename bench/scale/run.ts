/**
 * bench/scale: Quire at the sizes of a large deployment, on the database of the run (SQLite by
 * default, PostgreSQL when DATABASE_URL is set; a store of its own, removed at the end).
 *
 *   pages      a space of 100,000 pages (100 groups x 10 sections x 100 pages, seeded through the
 *              services in change requests of 5 writes of 1,000 inserts) against one of 100
 *              pages, both published as sites: p50/p99 of GET space, GET page by id / by path,
 *              list pages, GET revision, space search, published page views (first view of a
 *              page, warm view, first view after a merge), and the three steps of a write
 *              (create a change request, update_page, merge). Target: p99 < 100 ms and at most
 *              2x the 100-page space.
 *   spaces     an organization of 10,000 spaces (in 100 collections, each space with two pages)
 *              against one of 100: list spaces (first and last page, keyset), GET space, create
 *              space, update space, organization search. Same targets.
 *   processes  mixed reads and writes (90/10) at a fixed number of connections, spread round-robin
 *              over three `quire serve` processes (the built dist/main.js) on one store, against
 *              one process alone: requests/s and the ratio (target >= 2x on a machine with
 *              enough cores; it cannot show on 2).
 *
 * Latency is measured with sequential requests over HTTP (one keep-alive connection, node:http)
 * from a client thread of this process (worker-client.ts: a heap of its own) to a server built
 * in this process (`buildApp`, as bench/content does) for `pages` and `spaces`; `processes` starts real server processes (as bench/api does). Every
 * operation is warmed up first, then sampled on the small size, then on the large.
 * Started without a Quire server's Node flags (src/server-flags.ts), it runs itself again with them.
 *
 *   npx tsx bench/scale/run.ts                             # SQLite
 *   DATABASE_URL=postgres://... npx tsx bench/scale/run.ts  # PostgreSQL
 *
 * Env: BENCH_PAGES (100000), BENCH_SPACES (10000), BENCH_SAMPLES per operation (1000),
 * BENCH_PARTS (pages,spaces,processes), BENCH_OUT=file.json (the rows as JSON, to merge the
 * SQLite and PostgreSQL runs), BENCH_SECONDS per throughput round (20), BENCH_CONNECTIONS (24),
 * BENCH_SKIP_BUILD=1 (reuse dist/ as it is), BENCH_OP_BUDGET_S (60: sampling of one side of an
 * operation stops after that, never under 20 samples; warming up after a quarter of it), BENCH_CPU_PROF=dir (server processes of
 * `processes` under --cpu-prof), BENCH_SERVER_LOG=file (their logs, appended to that file).
 */
import { availableParallelism, cpus } from 'node:os';
import { rerunWithServerFlags } from '../lib.js';
import { pagesPart } from './pages.js';
import { processesPart } from './processes.js';
import { log, rows, table, writeJson } from './report.js';
import { SAMPLES } from './sampling.js';
import { spacesPart } from './spaces.js';

// `pages` and `spaces` build their server in this process: it runs with a server's flags.
const rerun = rerunWithServerFlags();
if (rerun !== undefined) process.exit(rerun);

const PAGES = Number(process.env.BENCH_PAGES ?? 100_000);
const SPACES = Number(process.env.BENCH_SPACES ?? 10_000);
const PARTS = (process.env.BENCH_PARTS ?? 'pages,spaces,processes').split(',').map((p) => p.trim());
const dialect = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
const cores = availableParallelism();

log(
  `bench/scale on ${dialect}: ${PAGES.toLocaleString('en')} pages, ${SPACES.toLocaleString('en')} spaces, ${SAMPLES} samples per operation, parts ${PARTS.join(',')}; ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'})`,
);
const started = performance.now();
if (PARTS.includes('pages')) await pagesPart(PAGES);
if (PARTS.includes('spaces')) await spacesPart(SPACES);
if (PARTS.includes('processes')) await processesPart(cores);

const sizes = `${PAGES.toLocaleString('en')} pages vs 100, ${SPACES.toLocaleString('en')} spaces vs 100, ${cores} cores; small = the 100-page space / 100-space organization`;
log('');
log(table(dialect, sizes));
log('');
log(
  `${rows.filter((r) => r.pass === false).length} of ${rows.length} rows missed their target; ran ${((performance.now() - started) / 60_000).toFixed(1)} min`,
);
if (process.env.BENCH_OUT) {
  writeJson(process.env.BENCH_OUT, {
    database: dialect,
    pages: PAGES,
    spaces: SPACES,
    samples: SAMPLES,
    cores,
    date: new Date().toISOString(),
  });
  log(`wrote ${process.env.BENCH_OUT}`);
}
