/**
 * bench/search: 10,000 generated documentation pages (bench/search/corpus.ts) in one space,
 * indexed by the search indexer (pages per second, index size), the database settled as after
 * any bulk load (bench/settle.ts), then 200 mixed queries
 * (common words, rare words, quoted phrases, prefixes, two and three words) through
 * SearchService.inSpace - the method behind `GET /v1/spaces/{id}/search`, first page, default
 * limit (100 hits with their sections and snippets), without the HTTP layer - and the same
 * queries against MiniSearch over the same pages in memory, in the same process: the two
 * engines take turns query by query, three rounds (BENCH_ROUNDS), a query's time its median
 * over the rounds. Target on SQLite: median no slower than MiniSearch.
 *
 *   npm run bench:search                             # SQLite
 *   DATABASE_URL=postgres://... npm run bench:search  # PostgreSQL (an isolated schema, dropped after)
 *
 * BENCH_PAGES changes the number of pages (default 10,000). For work on the query path:
 * BENCH_DB=file.db keeps the SQLite database in that file and reuses it when it exists (no
 * seeding, the index brought up to date by a sync, pending migrations applied), and
 * BENCH_SCHEMA=name does the same with that PostgreSQL schema (kept, not dropped); BENCH_QUERIES=n
 * runs only the first n queries, BENCH_DUMP=out.json writes every query's full first page
 * (hits, sections, snippets, scores, count) for comparing two versions of the query path.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import MiniSearch from 'minisearch';
import { buildApp } from '../../src/app.js';
import type { Actor } from '../../src/auth/actor.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { median } from '../lib.js';
import { settle } from '../settle.js';
import { Corpus, toDocument, toMarkdown } from './corpus.js';
import { type BenchQuery, mixedQueries, type QueryKind } from './queries.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 10_000);
const BATCH = 50;
const PER_CHANGE_REQUEST = 10; // batches of 50 changes per change request, then a merge
const WARMUP = 30;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const log = (line: string) => process.stdout.write(`${line}\n`);

const KEEP = process.env.BENCH_DB ? path.resolve(process.env.BENCH_DB) : undefined;
const KEEP_SCHEMA = process.env.DATABASE_URL ? process.env.BENCH_SCHEMA : undefined;
const QUERIES = process.env.BENCH_QUERIES ? Number(process.env.BENCH_QUERIES) : undefined;
const DUMP = process.env.BENCH_DUMP;

const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-search-'));
const schema = KEEP_SCHEMA ?? `bench_${newId(8).toLowerCase()}`;
// Asked before opening: opening creates the file.
const KEPT_FILE = KEEP !== undefined && existsSync(KEEP);
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  sqliteFile: KEEP ?? path.join(dir, 'quire.db'),
  pgSchema: schema,
});
const db = database.db;
const dialect = database.dialect;
const REUSE =
  dialect === 'postgres'
    ? KEEP_SCHEMA !== undefined &&
      (await sql<{ t: string | null }>`SELECT to_regclass('spaces')::text AS t`.execute(db)).rows[0]?.t !==
        null
    : KEPT_FILE;

try {
  await migrateToLatest(database);
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    QUIRE_RATE_LIMIT: '0',
    QUIRE_DATA_DIR: dir,
    // Postings on or off for a run (unset: the default).
    ...(process.env.QUIRE_SEARCH_POSTINGS_PAGES
      ? { QUIRE_SEARCH_POSTINGS_PAGES: process.env.QUIRE_SEARCH_POSTINGS_PAGES }
      : {}),
  });
  const app = await buildApp({ config, database, logger: false, jobs: false });
  const { services } = app.quire;

  let actor: Actor;
  let spaceId: string;
  if (REUSE) {
    const owner = await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', 'owner@bench.test')
      .executeTakeFirstOrThrow();
    actor = { userId: owner.id, tokenId: 'bench', email: owner.email };
    spaceId = (
      await db.selectFrom('spaces').select('id').where('title', '=', 'Docs').executeTakeFirstOrThrow()
    ).id;
  } else {
    const owner = await services.users.create({ email: 'owner@bench.test', displayName: 'Owner' });
    actor = { userId: owner.id, tokenId: 'bench', email: owner.email };
    const org = await services.orgs.create(owner.id, { title: 'Bench org' });
    const space = await services.spaces.create(actor, org.row.id, { title: 'Docs', language: 'en' });
    spaceId = space.row.id;
  }

  // ---- content --------------------------------------------------------------------------
  let started = performance.now();
  const corpus = new Corpus(PAGES);
  const markdown = corpus.pages.map(toMarkdown);
  const textBytes = markdown.reduce((n, m) => n + Buffer.byteLength(m), 0);
  log(
    `search bench on ${dialect}: ${PAGES} pages, ${(textBytes / PAGES / 1024).toFixed(2)} KiB of markdown each (${(textBytes / 1024 / 1024).toFixed(1)} MiB), generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  started = performance.now();
  if (!REUSE) await seed();
  log(`seeded through the services in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  async function seed() {
    const ids: string[] = [];
    for (let start = 0; start < PAGES; start += BATCH * PER_CHANGE_REQUEST) {
      const cr = await services.changeRequests.create(actor, spaceId, { subject: `seed ${start}` });
      for (let from = start; from < Math.min(PAGES, start + BATCH * PER_CHANGE_REQUEST); from += BATCH) {
        const changes = corpus.pages.slice(from, from + BATCH).map((page) => {
          const parent = page.parent === null ? undefined : (ids[page.parent] ?? `p${page.parent}`);
          return {
            operation: 'insert_page' as const,
            title: page.title,
            ref: `p${page.index}`,
            ...(parent ? { into: parent } : {}),
            document: { markdown: markdown[page.index]! },
          };
        });
        const outcome = await services.contentWrites.apply(actor, spaceId, cr.row.id, changes);
        for (const change of outcome.changes)
          if (change.object === 'created_page' && change.ref) ids[Number(change.ref.slice(1))] = change.page;
      }
      await services.merges.merge(actor, spaceId, cr.row.id);
    }
  }

  // ---- indexing -------------------------------------------------------------------------
  const sizeBefore = await indexBytes();
  started = performance.now();
  const outcome = await services.searchEngine.indexer.sync(spaceId);
  const indexMs = performance.now() - started;
  if (outcome !== 'updated' && !REUSE) throw new Error(`indexing answered ${outcome}`);
  const sizes = await indexBytes();
  await settle(database, schema);
  const counts = await db
    .selectFrom('search_sections')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();

  // ---- queries --------------------------------------------------------------------------
  const queries = mixedQueries(corpus).slice(0, QUERIES);
  // What a request does first (src/http/request-hook.ts): bring the read cache up to date.
  const quire = async (q: BenchQuery) => {
    await database.cache.sync();
    return (await services.search.inSpace(actor, spaceId, { query: q.text })).count;
  };
  if (DUMP) {
    const answers = [];
    for (const q of queries)
      answers.push({ query: q.text, ...(await services.search.inSpace(actor, spaceId, { query: q.text })) });
    writeFileSync(DUMP, JSON.stringify(answers, null, 1));
    log(`wrote ${answers.length} answers to ${DUMP}`);
  }

  const mini = new MiniSearch({
    fields: ['title', 'headings', 'body'],
    searchOptions: { combineWith: 'AND', prefix: (_term, i, terms) => i === terms.length - 1 },
  });
  const heapBefore = process.memoryUsage().heapUsed;
  started = performance.now();
  mini.addAll(corpus.pages.map(toDocument));
  const miniIndexMs = performance.now() - started;
  const miniHeap = process.memoryUsage().heapUsed - heapBefore;
  const miniSearch = async (q: BenchQuery) =>
    q.kind === 'phrase'
      ? mini.search(q.text.replaceAll('"', ''), { prefix: false }).length
      : mini.search(q.text).length;
  const [quireRun, miniRun] = (await measure(queries, [quire, miniSearch])) as [Run, Run];

  // ---- report ---------------------------------------------------------------------------
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  log('');
  log(
    `indexing   ${PAGES} pages (${Number(counts.n)} sections) in ${(indexMs / 1000).toFixed(1)} s: ${Math.round((PAGES / indexMs) * 1000)} pages/s   (MiniSearch in memory: ${Math.round((PAGES / miniIndexMs) * 1000)} pages/s)`,
  );
  log(
    `index size ${mib(sizes.total - sizeBefore.total)} (${sizes.detail})   markdown ${mib(textBytes)}   (MiniSearch heap ~${mib(miniHeap)})`,
  );
  log('');
  log(
    `${`${queries.length} queries`.padEnd(20)} ${`Quire ${dialect}`.padStart(16)} ${'MiniSearch'.padStart(12)} ${'ratio'.padStart(7)}`,
  );
  const row = (label: string, a: number, b: number) =>
    log(`${label.padEnd(20)} ${ms(a).padStart(16)} ${ms(b).padStart(12)} ${(a / b).toFixed(2).padStart(7)}`);
  row('median', quireRun.median, miniRun.median);
  row('p99', quireRun.p99, miniRun.p99);
  const kinds: QueryKind[] = ['common', 'rare', 'phrase', 'prefix', 'two words', 'three words'];
  for (const kind of kinds) {
    const pick = (run: Run) => run.samples.filter((s) => s.query.kind === kind);
    row(`  median ${kind}`, median(pick(quireRun).map((s) => s.ms)), median(pick(miniRun).map((s) => s.ms)));
  }
  const hits = (run: Run) => Math.round(median(run.samples.map((s) => s.hits)));
  log(
    `median matches       ${String(hits(quireRun)).padStart(16)} ${String(hits(miniRun)).padStart(12)}   (Quire: pages with all words in one section, stemmed; first page of 100 hits with snippets. MiniSearch: all matching pages, ids and scores)`,
  );

  await app.close();
} finally {
  if (dialect === 'postgres' && !KEEP_SCHEMA)
    await sql
      .raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      .execute(db)
      .catch(() => {});
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}

interface Run {
  samples: Array<{ query: BenchQuery; ms: number; hits: number }>;
  median: number;
  p99: number;
}

/**
 * A warm-up on the first queries, then ROUNDS rounds of every query in order, each query run
 * by every engine in turn (so a slow spell of the machine hits both alike); a query's time is
 * its median over the rounds.
 */
async function measure(
  queries: BenchQuery[],
  engines: Array<(q: BenchQuery) => Promise<number>>,
): Promise<Run[]> {
  for (const run of engines) for (const q of queries.slice(0, WARMUP)) await run(q);
  const times = engines.map(() => queries.map((): number[] => []));
  const hits = engines.map(() => queries.map(() => 0));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, query] of queries.entries()) {
      for (const [e, run] of engines.entries()) {
        const started = performance.now();
        hits[e]![i] = await run(query);
        times[e]![i]!.push(performance.now() - started);
      }
    }
  }
  return engines.map((_run, e) => {
    const samples = queries.map((query, i) => ({ query, ms: median(times[e]![i]!), hits: hits[e]![i]! }));
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    return {
      samples,
      median: median(sorted),
      p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!,
    };
  });
}

/** Bytes of the search tables and their indexes. */
async function indexBytes(): Promise<{ total: number; detail: string }> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ name: string; bytes: string; idx: string }>`
      SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes, pg_indexes_size(c.oid)::text AS idx
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'search\\_%'`.execute(db);
    const total = rows.reduce((n, r) => n + Number(r.bytes), 0);
    // The GIN indexes of the sections' terms (0025: all terms, titles, headings).
    const gin = await sql<{ bytes: string }>`
      SELECT COALESCE(SUM(pg_relation_size(i.indexrelid)), 0)::text AS bytes
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
      WHERE i.indrelid = to_regclass('search_sections') AND a.amname = 'gin'`.execute(db);
    return {
      total,
      detail: `GIN ${mib(Number(gin.rows[0]?.bytes ?? 0))}, ${rows
        .filter((r) => Number(r.bytes) > 1024 * 1024)
        .map((r) => `${r.name} ${mib(Number(r.bytes))} incl. indexes ${mib(Number(r.idx))}`)
        .join(', ')}`,
    };
  }
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  const { rows } = await sql<{ name: string; bytes: number }>`
    SELECT d.name AS name, SUM(d.pgsize) AS bytes FROM dbstat d
    WHERE d.name LIKE 'search\\_%' ESCAPE '\\' OR d.name LIKE 'sqlite_autoindex_search\\_%' ESCAPE '\\'
    GROUP BY d.name`.execute(db);
  const total = rows.reduce((n, r) => n + Number(r.bytes), 0);
  const fts = rows.filter((r) => r.name.startsWith('search_fts')).reduce((n, r) => n + Number(r.bytes), 0);
  return {
    total,
    detail: `FTS5 terms ${mib(fts)}, stored sections, pages and vocabulary ${mib(total - fts)}`,
  };
}

function mib(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
