import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TermRows } from './codec.js';
import { type PostingsRanking, type RankInput, rankPostings, sectionsHolding } from './rank.js';
import { pack } from './wire.js';

/**
 * Ranking from postings on threads of its own. A common word of a 100,000-page space is 5-15 ms
 * of ranking in JS; on the server's thread every other request waited that long (bench/scale on
 * PostgreSQL: GET space beside back-to-back searches, p99 7.1 -> 35.9 ms once searches ranked
 * there, 9.1 ms with these threads). The threads are shared by the process's search indexes
 * (they hold no state but their slots), start on first use, warm up in their idle time
 * (warm-up.ts), and keep the process alive only while a ranking is on its way.
 */

/** Threads: searches of different requests rank side by side, as on the database's backends. */
const THREADS = 2;
/**
 * Postings smaller than this are ranked here: up to about 2 ms of ranking (a word of 128 KB of
 * postings in a 100,000-page space), the main-thread work a page of 100 hits does anyway to
 * highlight and send its answer, and less than the trip to a thread costs on a busy machine
 * (bench/search on 10,000 pages, alternating runs: median 4.10 and 3.65 ms a search with 32 KB
 * here, 3.52 and 2.93 with 128 KB).
 */
const INLINE_BYTES = 128 * 1024;
/**
 * Postings larger than this are ranked in halves of their chunks, one on each thread, when both
 * are free: a common word of a 100,000-page space is 5 ms of ranking on one.
 */
const SPLIT_BYTES = 128 * 1024;

const moduleUrl = new URL(`./wire${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * The thread's script, as text, as SqliteReaders': it loads wire.js from dist/, or wire.ts from
 * the sources through tsx (tests, `npm run dev`, benches), which only development installs.
 */
const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = workerData.tsx
  ? import(workerData.tsx).then((api) => api.tsImport(workerData.module, workerData.module))
  : import(workerData.module);
// The warm-up (warm-up.ts) in the thread's idle time: a ranking, then its messages, and again.
const warm = (wire) => {
  try {
    if (wire.warmUpStep() > 0) setImmediate(warm, wire);
    else parentPort.postMessage({ warmedUp: true });
  } catch (error) {
    parentPort.postMessage({ warmedUp: false, error: String((error && error.stack) || error) });
  }
};
loaded.then((wire) => setImmediate(warm, wire), () => {});
parentPort.on('message', ({ id, input }) => {
  loaded
    .then((wire) => parentPort.postMessage({ id, ranking: wire.rankPacked(input) }))
    .catch((error) => parentPort.postMessage({ id, error: String((error && error.stack) || error) }));
});
`;

/** Where tsx's ESM API is (its package's export; `require.resolve` finds the CommonJS one). */
function tsxApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return new URL(exports['./esm/api']!.import.default, pathToFileURL(manifest)).href;
}

interface Waiting {
  resolve: (ranking: PostingsRanking | undefined) => void;
  reject: (error: Error) => void;
}

interface ThreadMessage {
  id: number;
  ranking?: PostingsRanking;
  error?: string;
  /** The warm-up has ended: true when every ranking of it ran. */
  warmedUp?: boolean;
}

class RankThread {
  private readonly worker: Worker;
  readonly pending = new Map<number, Waiting>();
  /** Whether its warm-up ran to the end; undefined while it runs. */
  warmedUp: boolean | undefined;
  private next = 0;

  constructor(onExit: () => void) {
    const tsx = moduleUrl.endsWith('.ts') ? tsxApi() : undefined;
    this.worker = new Worker(SCRIPT, { eval: true, workerData: { module: moduleUrl, tsx } });
    this.worker.unref();
    this.worker.on('message', (answer: ThreadMessage) => {
      if (answer.warmedUp !== undefined) {
        this.warmedUp = answer.warmedUp;
        // Only slower first searches: said, not thrown.
        if (!answer.warmedUp) process.emitWarning(`a ranking thread's warm-up failed: ${answer.error}`);
        return;
      }
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.worker.unref();
      if (answer.error !== undefined)
        waiting.reject(new Error(`ranking on a thread failed: ${answer.error}`));
      else waiting.resolve(answer.ranking);
    });
    const fail = (error: Error) => {
      onExit();
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the ranking thread stopped (exit code ${code})`)));
  }

  rank(input: RankInput): Promise<PostingsRanking | undefined> {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, input: pack(input) });
    });
  }
}

const threads: RankThread[] = [];

/** How many ranking threads are running. */
export function rankingThreads(): number {
  return threads.length;
}

/** Each running thread's warm-up: true once it ran to the end, undefined while it runs. */
export function rankingWarmUps(): Array<boolean | undefined> {
  return threads.map((thread) => thread.warmedUp);
}

function bytesOf(input: RankInput): number {
  let bytes = 0;
  for (const rows of input.rows.values())
    for (const row of rows) bytes += row.entries.length + (row.positions?.length ?? 0);
  return bytes;
}

/**
 * `rankPostings(input)`, on a thread when the postings are large, split over both when they are
 * larger and both are free. A thread that fails ranks nothing: the ranking is then done here,
 * as it would be without threads.
 */
export async function rankAside(input: RankInput): Promise<PostingsRanking | undefined> {
  const bytes = bytesOf(input);
  if (bytes < INLINE_BYTES) return rankPostings(input);
  const free = THREADS - threads.filter((t) => t.pending.size > 0).length;
  if (bytes < SPLIT_BYTES || free < 2) return onThread(input);
  const answers = await Promise.all(halves(input).map(onThread));
  return merged(answers, input.count);
}

async function onThread(input: RankInput): Promise<PostingsRanking | undefined> {
  let thread = threads.find((t) => t.pending.size === 0);
  if (!thread && threads.length < THREADS) {
    const added: RankThread = new RankThread(() => {
      const at = threads.indexOf(added);
      if (at >= 0) threads.splice(at, 1);
    });
    threads.push(added);
    thread = added;
  }
  thread ??= threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  try {
    return await thread.rank(input);
  } catch (error) {
    process.emitWarning(`${(error as Error).message}; ranked on the server's thread instead`);
    return rankPostings(input);
  }
}

/**
 * The input in two, each with the rows of about half the bytes, in chunk order. A page's
 * sections are all in its chunk, so each half ranks and counts its pages as the whole would;
 * the terms' weights come from the whole.
 */
function halves(input: RankInput): RankInput[] {
  const byChunk = new Map<number, number>();
  for (const rows of input.rows.values())
    for (const row of rows)
      byChunk.set(
        row.chunk,
        (byChunk.get(row.chunk) ?? 0) + row.entries.length + (row.positions?.length ?? 0),
      );
  const chunks = [...byChunk.keys()].sort((a, b) => a - b);
  const total = [...byChunk.values()].reduce((a, b) => a + b, 0);
  let seen = 0;
  let split = chunks.at(-1)!;
  for (const chunk of chunks) {
    seen += byChunk.get(chunk)!;
    if (seen >= total / 2) {
      split = chunk;
      break;
    }
  }
  const holding =
    input.holding ?? new Map([...input.rows].map(([term, rows]) => [term, sectionsHolding(rows)]));
  const part = (keep: (chunk: number) => boolean): RankInput => {
    const rows = new Map<string, TermRows[]>();
    for (const [term, list] of input.rows) {
      const kept = list.filter((row) => keep(row.chunk));
      if (kept.length > 0) rows.set(term, kept);
    }
    return { ...input, rows, holding };
  };
  return [part((chunk) => chunk <= split), part((chunk) => chunk > split)];
}

/** Two halves' rankings as the whole's: the best `count`, ties by page number. */
function merged(answers: Array<PostingsRanking | undefined>, count: number): PostingsRanking | undefined {
  if (answers.some((answer) => answer === undefined)) return undefined;
  const all = answers as PostingsRanking[];
  const pages = all.flatMap((answer) => answer.pages).sort((a, b) => b.score - a.score || a.page - b.page);
  return {
    pages: pages.slice(0, count),
    more: pages.length > count || all.some((answer) => answer.more),
    total: all.reduce((sum, answer) => sum + answer.total, 0),
  };
}
