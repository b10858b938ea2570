/**
 * bench/pdf: what printing a space as PDF costs (getSpacePDF, then fetching its URL), against
 * Chromium printing the same HTML on its own.
 *
 * A server in this process (startTestServer, background worker on, SQLite in memory or a
 * PostgreSQL schema when DATABASE_URL is set) and the Chromium `findChromium` picks. For a space
 * of 10 pages and one of 200 (BENCH_SIZES), each page a few hundred words of GitBook markdown
 * (headings, paragraphs, a hint, a code block, a list, a table):
 * - Quire, first PDF: `fetch(url)` to the whole body, each run on a new revision (a one-sentence
 *   edit merged first, its follow-up jobs let finish); the first run of each size after closing
 *   the server's browser ("cold", launch included), then BENCH_RUNS warm runs (median). Where
 *   the time goes is read from the printer (wrapped) and from `pdf_renders.render_ms`.
 * - Quire, cached PDF: a newly minted URL for the unchanged content, BENCH_CACHED_RUNS times.
 * - Baseline: the print HTML of the same space fetched once, written to a file, printed by
 *   playwright-core with the same browser, options and header/footer as Quire: launch (cold),
 *   then per run a fresh context (JavaScript off), `goto(file://)`, `pdf()`, context closed.
 *   Quire's printer does the same steps (context, page, content, pdf, close), so they are timed.
 * Warm Quire and baseline runs alternate, so drift on the machine touches both. One untimed
 * launch comes first, so "cold" is a browser launch, not Chromium's first read from disk.
 *
 *   npm run bench:pdf
 *   BENCH_SIZES=10,500 BENCH_RUNS=3 npm run bench:pdf
 *
 * Progress goes to stderr, the tables to stdout.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GitBookAPI } from '@gitbook/api';
import { type Browser, chromium } from 'playwright-core';
import { getDocumentProxy } from 'unpdf';
import { findChromium } from '../../src/browser/chromium.js';
import { pdfOptions } from '../../src/browser/pdf-printer.js';
import { type Change, insert, newChangeRequest, write } from '../../test/helpers/content.js';
import { createOrg, createUser } from '../../test/helpers/factories.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { median } from '../lib.js';

const SIZES = (process.env.BENCH_SIZES ?? '10,200').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CACHED_RUNS = Number(process.env.BENCH_CACHED_RUNS ?? 20);
/** The most changes one content update takes. */
const BATCH = 50;

const log = (line: string) => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`${line}\n`);
const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

// --- Content ---------------------------------------------------------------------------------

const WORDS = (
  'the service scheduler queue worker cluster node replica request response token cache index ' +
  'deploy rollout config option value default limit timeout retry backoff metric alert dashboard ' +
  'storage volume bucket snapshot backup restore region zone network proxy gateway route header ' +
  'payload schema field record batch stream event handler plugin module release version upgrade ' +
  'migration database table column query transaction lock lease heartbeat session user team role ' +
  'permission audit log trace span latency throughput capacity quota budget secret key certificate'
).split(' ');

/** Deterministic words, so every run prints the same book. */
function wordsFrom(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
  const sentence = (length: number) => {
    const words = Array.from({ length }, () => WORDS[next() % WORDS.length]!);
    return `${words[0]!.charAt(0).toUpperCase()}${words[0]!.slice(1)} ${words.slice(1).join(' ')}.`;
  };
  const paragraph = (sentences: number) =>
    Array.from({ length: sentences }, () => sentence(8 + (next() % 9))).join(' ');
  return { sentence, paragraph, word: () => WORDS[next() % WORDS.length]! };
}

/** About 350 words of GitBook markdown. */
function pageMarkdown(i: number, edit = ''): string {
  const w = wordsFrom(i + 1);
  return [
    `# Topic ${i}`,
    '',
    `${w.paragraph(4)}${edit ? ` ${edit}` : ''}`,
    '',
    '## Overview',
    '',
    w.paragraph(5),
    '',
    '{% hint style="info" %}',
    `${w.sentence(12)} Set \`${w.word()}_${i}\` before you upgrade.`,
    '{% endhint %}',
    '',
    '## Configuration',
    '',
    w.paragraph(3),
    '',
    ...Array.from({ length: 4 }, () => `- **${w.word()}**: ${w.sentence(9)}`),
    '',
    '```yaml',
    `service: topic-${i}`,
    'replicas: 3',
    `${w.word()}:`,
    `  timeout: ${(i % 50) + 10}s`,
    `  ${w.word()}: true`,
    '```',
    '',
    '## Options',
    '',
    '| Option | Default | Description |',
    '| --- | --- | --- |',
    ...Array.from({ length: 5 }, (_, k) => `| \`${w.word()}.${w.word()}\` | ${k * 10} | ${w.sentence(8)} |`),
    '',
    '### Notes',
    '',
    w.paragraph(4),
    '',
    w.paragraph(3),
  ].join('\n');
}

/** A space of `pages` pages, written 50 changes per update into one change request, merged. */
async function makeSpace(api: GitBookAPI, orgId: string, pages: number) {
  const title = `Handbook of ${pages} pages`;
  const spaceId = (await api.orgs.createSpace(orgId, { title })).data.id;
  const cr = await newChangeRequest(api, spaceId, 'Content');
  let firstPage = '';
  for (let start = 0; start < pages; start += BATCH) {
    const batch: Change[] = Array.from({ length: Math.min(BATCH, pages - start) }, (_, k) =>
      insert(`Topic ${start + k}`, pageMarkdown(start + k)),
    );
    const result = await write(api, spaceId, cr, batch);
    firstPage ||= (result.changes[0]!.page as { id: string }).id;
  }
  const merged = await api.spaces.mergeChangeRequest(spaceId, cr);
  if (merged.data.result !== 'merge') throw new Error(`seeding gave ${merged.data.result}`);
  return { spaceId, firstPage, title };
}

// --- Quire -----------------------------------------------------------------------------------

/** Waits until no job is due or running: a merge's follow-up jobs (search index) would share the CPU. */
async function quiet(server: TestServer): Promise<void> {
  const started = performance.now();
  for (;;) {
    const busy = await server.database.db
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('status', '=', 'running'),
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', new Date().toISOString())]),
        ]),
      )
      .executeTakeFirst();
    if (!busy) return;
    if (performance.now() - started > 120_000) throw new Error('jobs still running after 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A new revision: one sentence of the first page changed, merged. */
async function newRevision(api: GitBookAPI, spaceId: string, pageId: string, n: number) {
  const cr = await newChangeRequest(api, spaceId, `Edit ${n}`);
  await write(api, spaceId, cr, [
    { operation: 'update_page', page: pageId, document: { markdown: pageMarkdown(0, `Edit number ${n}.`) } },
  ]);
  const merged = await api.spaces.mergeChangeRequest(spaceId, cr);
  if (merged.data.result !== 'merge') throw new Error(`edit ${n} gave ${merged.data.result}`);
}

async function fetchPdf(url: string): Promise<{ ms: number; pdf: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, { redirect: 'manual' });
  const pdf = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - started;
  if (response.status !== 200 || response.headers.get('content-type') !== 'application/pdf')
    throw new Error(`${url} answered ${response.status} ${response.headers.get('content-type')}`);
  return { ms: elapsed, pdf };
}

interface QuireRun {
  ms: number;
  pdf: Buffer;
  /** The printer's call: context, page, content, pdf (and the launch when cold). */
  printMs: number;
  /** The job's render: content opened, book built, HTML rendered, printed (`pdf_renders.render_ms`). */
  renderMs: number;
  htmlBytes: number;
}

/** Records the printer's own time per print, without changing what it does. */
function instrument(server: TestServer) {
  const printer = server.app.quire.services.printer;
  if (!printer) throw new Error('the server found no Chromium (QUIRE_CHROMIUM_PATH, /usr/bin/chromium)');
  const last = { printMs: 0, htmlBytes: 0 };
  const print = printer.print.bind(printer);
  printer.print = async (request) => {
    const started = performance.now();
    try {
      return await print(request);
    } finally {
      last.printMs = performance.now() - started;
      last.htmlBytes = Buffer.byteLength(request.html);
    }
  };
  return { printer, last };
}

async function quireFirst(
  server: TestServer,
  api: GitBookAPI,
  space: { spaceId: string; firstPage: string },
  n: number,
  last: { printMs: number; htmlBytes: number },
): Promise<QuireRun> {
  await newRevision(api, space.spaceId, space.firstPage, n);
  await quiet(server);
  const { url } = (await api.spaces.getSpacePdf(space.spaceId)).data;
  const fetched = await fetchPdf(url);
  const row = await server.database.db
    .selectFrom('pdf_renders')
    .select('render_ms')
    .where('space_id', '=', space.spaceId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return { ...fetched, printMs: last.printMs, renderMs: row.render_ms, htmlBytes: last.htmlBytes };
}

// --- Baseline --------------------------------------------------------------------------------

async function baselinePrint(browser: Browser, file: string, title: string) {
  const started = performance.now();
  const context = await browser.newContext({ javaScriptEnabled: false });
  let pdf: Buffer;
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    pdf = await page.pdf(pdfOptions(title));
  } finally {
    await context.close();
  }
  return { ms: performance.now() - started, pdf };
}

// --- The run ---------------------------------------------------------------------------------

interface Row {
  pages: number;
  quireCold: QuireRun;
  quireWarm: QuireRun[];
  cached: number[];
  baselineLaunchMs: number;
  baselineCold: number;
  baselineWarm: number[];
  htmlBytes: number;
  /** GET of the print HTML (no `.pdf`), median of 3. */
  htmlGetMs: number;
  quirePdf: { bytes: number; sheets: number };
  baselinePdf: { bytes: number; sheets: number };
}

async function sheets(pdf: Buffer): Promise<number> {
  return (await getDocumentProxy(new Uint8Array(pdf))).numPages;
}

async function measure(
  server: TestServer,
  api: GitBookAPI,
  orgId: string,
  pages: number,
  dir: string,
  edits: { n: number },
  probe: ReturnType<typeof instrument>,
): Promise<Row> {
  let started = performance.now();
  const space = await makeSpace(api, orgId, pages);
  await quiet(server);
  progress(`${pages} pages: space seeded in ${ms(performance.now() - started)}`);

  // The baseline's input: the print HTML of this space, as the print URL serves it.
  const { url: htmlUrl } = (await api.spaces.getSpacePdf(space.spaceId)).data;
  // Timed too: the same book building the render job does before it prints.
  let html = '';
  const htmlGets: number[] = [];
  for (let i = 0; i < 3; i++) {
    started = performance.now();
    html = await (await fetch(htmlUrl.replace(/\.pdf$/, ''))).text();
    htmlGets.push(performance.now() - started);
  }
  progress(
    `${pages} pages: print HTML GET ${htmlGets.map(ms).join(', ')} (the first on a revision not opened yet)`,
  );
  const file = path.join(dir, `print-${pages}.html`);
  writeFileSync(file, html);

  // Cold: the server's browser closed first, so this print launches it.
  await probe.printer.close();
  const quireCold = await quireFirst(server, api, space, ++edits.n, probe.last);
  progress(
    `${pages} pages: Quire cold ${ms(quireCold.ms)} (printer ${ms(quireCold.printMs)}, render job ${ms(quireCold.renderMs)})`,
  );

  const found = await findChromium();
  started = performance.now();
  const browser = await chromium.launch({ ...found, timeout: 60_000 });
  const baselineLaunchMs = performance.now() - started;
  try {
    const first = await baselinePrint(browser, file, space.title);
    const baselineCold = baselineLaunchMs + first.ms;
    progress(`${pages} pages: baseline cold ${ms(baselineCold)} (launch ${ms(baselineLaunchMs)})`);

    const quireWarm: QuireRun[] = [];
    const baselineWarm: number[] = [];
    let baselinePdf = first.pdf;
    for (let run = 1; run <= RUNS; run++) {
      quireWarm.push(await quireFirst(server, api, space, ++edits.n, probe.last));
      const printed = await baselinePrint(browser, file, space.title);
      baselineWarm.push(printed.ms);
      baselinePdf = printed.pdf;
      const q = quireWarm.at(-1)!;
      progress(
        `${pages} pages: warm run ${run}/${RUNS}: Quire ${ms(q.ms)} (printer ${ms(q.printMs)}, render job ${ms(q.renderMs)}), baseline ${ms(printed.ms)}`,
      );
    }

    const cached: number[] = [];
    const lastPdf = quireWarm.at(-1)?.pdf ?? quireCold.pdf;
    for (let run = 1; run <= CACHED_RUNS; run++) {
      const { url } = (await api.spaces.getSpacePdf(space.spaceId)).data;
      const fetched = await fetchPdf(url);
      if (!fetched.pdf.equals(lastPdf)) throw new Error('the cached PDF differs from the one printed');
      cached.push(fetched.ms);
    }
    progress(`${pages} pages: cached median ${ms(median(cached))} over ${CACHED_RUNS} runs`);

    return {
      pages,
      quireCold,
      quireWarm,
      cached,
      baselineLaunchMs,
      baselineCold,
      baselineWarm,
      htmlBytes: Buffer.byteLength(html),
      htmlGetMs: median(htmlGets),
      quirePdf: { bytes: lastPdf.length, sheets: await sheets(lastPdf) },
      baselinePdf: { bytes: baselinePdf.length, sheets: await sheets(baselinePdf) },
    };
  } finally {
    await browser.close();
  }
}

function table(headers: string[], rows: string[][]) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  log(line(headers));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) log(line(row));
}

function report(rows: Row[]) {
  log('');
  log(
    `Quire: fetch(url) to the whole PDF; first = new revision, median of ${RUNS} warm runs; cached = new URL, same content, median of ${CACHED_RUNS}.`,
  );
  log('Baseline: playwright-core, same Chromium and print options: context + goto(file://) + pdf + close.');
  log('');
  table(
    [
      'pages',
      'Quire first (warm median)',
      'baseline warm median',
      'ratio',
      'Quire cold',
      'baseline cold',
      'Quire cached median',
      'cached / baseline warm',
    ],
    rows.map((r) => {
      const quire = median(r.quireWarm.map((q) => q.ms));
      const base = median(r.baselineWarm);
      const cached = median(r.cached);
      return [
        String(r.pages),
        ms(quire),
        ms(base),
        (quire / base).toFixed(2),
        ms(r.quireCold.ms),
        ms(r.baselineCold),
        ms(cached),
        (cached / base).toFixed(3),
      ];
    }),
  );
  log('');
  table(
    ['pages', 'print HTML', 'Quire PDF', 'Quire sheets', 'baseline PDF', 'baseline sheets'],
    rows.map((r) => [
      String(r.pages),
      kb(r.htmlBytes),
      kb(r.quirePdf.bytes),
      String(r.quirePdf.sheets),
      kb(r.baselinePdf.bytes),
      String(r.baselinePdf.sheets),
    ]),
  );
  log('');
  for (const line of [
    "Where Quire's first-PDF time goes (warm medians):",
    '- book + HTML: the render job less the printer (content opened, book built, HTML rendered);',
    '- rest: fetch less the render job (URL checked, job queued and claimed, result polled every',
    '  150 ms, PDF stored and read back, response);',
    '- print HTML GET: /print/{token} without .pdf, median of 3.',
  ])
    log(line);
  table(
    [
      'pages',
      'fetch',
      'printer (Chromium)',
      'book + HTML',
      'rest',
      'printer - baseline',
      'cold printer',
      'print HTML GET',
    ],
    rows.map((r) => {
      const fetchMs = median(r.quireWarm.map((q) => q.ms));
      const printMs = median(r.quireWarm.map((q) => q.printMs));
      const renderMs = median(r.quireWarm.map((q) => q.renderMs));
      return [
        String(r.pages),
        ms(fetchMs),
        ms(printMs),
        ms(renderMs - printMs),
        ms(fetchMs - renderMs),
        ms(printMs - median(r.baselineWarm)),
        ms(r.quireCold.printMs),
        ms(r.htmlGetMs),
      ];
    }),
  );
  for (const r of rows)
    log(
      `${r.pages} pages, all runs: Quire warm ${r.quireWarm.map((q) => q.ms.toFixed(0)).join(', ')} ms; baseline warm ${r.baselineWarm.map((b) => b.toFixed(0)).join(', ')} ms; baseline launch ${ms(r.baselineLaunchMs)}; cached min/max ${ms(Math.min(...r.cached))}/${ms(Math.max(...r.cached))}`,
    );
}

async function main() {
  const server = await startTestServer({ worker: true, env: { QUIRE_RATE_LIMIT: '0' } });
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-pdf-'));
  try {
    const probe = instrument(server);
    // Untimed: the first launch reads Chromium from disk, which neither cold run should pay for.
    await (await chromium.launch({ ...(await findChromium()), timeout: 60_000 })).close();
    const admin = await createUser(server);
    const orgId = await createOrg(admin, 'Bench');
    const edits = { n: 0 };
    const rows: Row[] = [];
    for (const pages of SIZES) rows.push(await measure(server, admin.api, orgId, pages, dir, edits, probe));
    report(rows);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
