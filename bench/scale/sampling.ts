import { PerformanceObserver } from 'node:perf_hooks';
import { log, progress } from './report.js';

/** How operations are sampled: warm-up, then the small size, then the large, within a time budget. */

/**
 * Samples of each side. The p99 of 200 was the second slowest sample, and for answers of a
 * millisecond one scheduling hiccup decided it: the 100-page space's p99 of list pages was 4.1 ms
 * in one run and 2.2 ms in a run two days later, the list's code unchanged between them. Of
 * 1,000 it is the tenth slowest.
 */
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1000);
/** Requests each side runs before sampling (JIT, caches, connection). */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? Math.min(20, SAMPLES));
/** Sampling (and warming up) one side of an operation stops after this many seconds. */
const BUDGET_MS = Number(process.env.BENCH_OP_BUDGET_S ?? 60) * 1000;
const MIN_SAMPLES = Math.min(20, SAMPLES);

/**
 * Garbage-collection pauses of the server's thread (the clients have threads, and heaps, of their
 * own: worker-client.ts), to tell whether a slow sample waited on one: the slowest sample of each side is logged with the collection
 * time inside it.
 */
const pauses: Array<{ start: number; end: number; kind: string }> = [];
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const { detail } = entry as unknown as { detail?: { kind?: number } };
    const kind = GC_KINDS[detail?.kind ?? 0] ?? 'other';
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration, kind });
  }
  if (pauses.length > 100_000) pauses.splice(0, pauses.length - 100_000);
}).observe({ entryTypes: ['gc'] });

function collectedWithin(start: number, end: number): string {
  let ms = 0;
  const kinds = new Set<string>();
  for (const p of pauses) {
    const overlap = Math.max(0, Math.min(end, p.end) - Math.max(start, p.start));
    if (overlap > 0) kinds.add(p.kind);
    ms += overlap;
  }
  return `${ms.toFixed(1)} ms${kinds.size ? ` (${[...kinds].join(', ')})` : ''}`;
}

/** A timed operation: `i` is the sample's number (to vary the page read); answers milliseconds. */
export type Op = (i: number) => Promise<number>;

/**
 * Warms an operation up (WARMUP requests, fewer when they are slow), then samples it SAMPLES
 * times (fewer, never under 20, when the budget is spent).
 */
async function sample(label: string, op: Op, samples = SAMPLES, warmup = WARMUP): Promise<number[]> {
  let started = performance.now();
  for (let i = 0; i < warmup; i++) {
    await op(-1 - i);
    if (i >= 1 && performance.now() - started > BUDGET_MS / 4) break;
  }
  const out: number[] = [];
  let slowest = { ms: -1, start: 0, end: 0 };
  started = performance.now();
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    out.push(await op(i));
    const end = performance.now();
    if (out[i]! > slowest.ms) slowest = { ms: out[i]!, start, end };
    progress(`  ${label}: ${i + 1}/${samples} samples`);
    if (performance.now() - started > BUDGET_MS && i + 1 >= MIN_SAMPLES && i + 1 < samples) {
      log(`  ${label}: stopped at ${i + 1} samples (budget of ${BUDGET_MS / 1000} s spent)`);
      break;
    }
  }
  // Observers hear of collections after the turn they happened in.
  await new Promise((resolve) => setTimeout(resolve, 0));
  log(
    `  ${label}: slowest sample ${slowest.ms.toFixed(1)} ms, ${collectedWithin(slowest.start, slowest.end)} of it collecting garbage`,
  );
  return out;
}

/**
 * The small size first, then the large: samples of one size are not slowed by the garbage the
 * other leaves (a 100,000-page answer is tens of MB), which alternating them would do.
 */
export async function compare(
  label: string,
  large: Op,
  small?: Op,
  /**
   * Fewer samples and warm-up requests for the small size (it has only so many pages); `both`:
   * as many for the large size (first reads compared with first reads: a p99 of as many samples
   * on either side).
   */
  smallCounts?: { samples: number; warmup: number; both?: boolean },
): Promise<{ large: number[]; small: number[] | undefined }> {
  const s = small
    ? await sample(`${label} (small)`, small, smallCounts?.samples, smallCounts?.warmup)
    : undefined;
  const l = smallCounts?.both
    ? await sample(label, large, smallCounts.samples, smallCounts.warmup)
    : await sample(label, large);
  return { large: l, small: s };
}
