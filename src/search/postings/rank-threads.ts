import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { TimeSlices } from '../../time-slices.js';
import type { TermRows } from './codec.js';
import { type PostingsRanking, type RankInput, rankPostings, rankSteps, sectionsHolding } from './rank.js';
import { pack } from './wire.js';

/**
 * Ranking from postings on threads of its own, for the rankings too long to run on the server's
 * thread, where every other request would wait for them (bench/scale on PostgreSQL, when a
 * common word of a 100,000-page space took 5-15 ms to rank: GET space beside back-to-back
 * searches, p99 7.1 -> 35.9 ms with the ranking there, 9.1 ms with these threads). The threads
 * are shared by the process's search indexes (they hold no state but their slots), start on
 * first use, warm up in their idle time (warm-up.ts), and keep the process alive only while a
 * ranking is on its way.
 */

/** Threads: searches of different requests rank side by side, as on the database's backends. */
const THREADS = 2;

/** When a ranking goes to a thread, and when it is split over both (`rankAside`). */
export interface RankingPlan {
  /** Postings of fewer bytes are ranked on the calling thread. */
  inlineBytes: number;
  /** Postings of more bytes are ranked in halves, one on each thread, when both are free. */
  splitBytes: number;
  /** How long a ranking on the calling thread runs before the event loop gets a turn. */
  sliceMs: number;
}

/**
 * The plan by default.
 *
 * - Up to 1 MiB of postings is ranked here: the common words of a 100,000-page space (bench/scale's
 *   queries, up to 709 KB) rank in 1-4 ms, as long as the rest of their 100-hit search takes on
 *   this thread (reading, highlighting and sending the hits). A word on every page's title
 *   ("page", 1.0 MB) takes 12 ms.
 * - On a machine of two cores, the trip to a thread cost more than it saved: the server's thread,
 *   the ranking threads and the network take turns on two cores, and a thread woken for a
 *   ranking often waited for one. The 100,000-page space's searches through the API (SQLite,
 *   alternating runs of 600 each, scratch probe): p99 21.1 and 19.0 ms with rankings of more
 *   than 128 KB on threads and split, 10.7 and 8.2 ms ranked here; the rankings' own p90 was
 *   4.0 ms here, 4.6 on threads (medians 1.7 and 2.0).
 * - Splitting needs a core for each half besides the server's thread: with two, the halves of a
 *   ranking and the server's thread took turns (the same probe, "page" at 1.0 MB through the API,
 *   timed to the probe's thread: median 18.1 ms ranked here, 28.8 on one thread, 34.2 split).
 */
const DEFAULT_PLAN: RankingPlan = {
  inlineBytes: 1024 * 1024,
  splitBytes: availableParallelism() > 2 ? 1024 * 1024 : Number.POSITIVE_INFINITY,
  // About as long as each other step of a 100-hit search on this thread (reading its hits,
  // highlighting them, sending them).
  sliceMs: 2,
};

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
 * larger and both are free (see `DEFAULT_PLAN`). A thread that fails ranks nothing: the ranking
 * is then done here, as it would be without threads.
 */
export async function rankAside(
  input: RankInput,
  plan: RankingPlan = DEFAULT_PLAN,
): Promise<PostingsRanking | undefined> {
  const bytes = bytesOf(input);
  if (bytes < plan.inlineBytes) return rankInSlices(input, plan.sliceMs);
  const free = THREADS - threads.filter((t) => t.pending.size > 0).length;
  if (bytes < plan.splitBytes || free < 2) return onThread(input);
  const answers = await Promise.all(halves(input).map(onThread));
  return merged(answers, input.count);
}

/**
 * A ranking on this thread, with a turn of the event loop every `sliceMs`: a request that
 * arrives meanwhile waits for the end of a slice, not of the ranking.
 */
async function rankInSlices(input: RankInput, sliceMs: number): Promise<PostingsRanking | undefined> {
  const steps = rankSteps(input);
  const slices = new TimeSlices(sliceMs);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slices.due()) await slices.next();
  }
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
