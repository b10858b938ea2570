import { log, progress } from './report.js';

/** How operations are sampled: warm-up, then the small size, then the large, within a time budget. */

export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
/** Requests each side runs before sampling (JIT, caches, connection). */
export const WARMUP = Number(process.env.BENCH_WARMUP ?? Math.min(20, SAMPLES));
/** Sampling (and warming up) one side of an operation stops after this many seconds. */
const BUDGET_MS = Number(process.env.BENCH_OP_BUDGET_S ?? 60) * 1000;
const MIN_SAMPLES = Math.min(20, SAMPLES);

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
  started = performance.now();
  for (let i = 0; i < samples; i++) {
    out.push(await op(i));
    progress(`  ${label}: ${i + 1}/${samples} samples`);
    if (performance.now() - started > BUDGET_MS && i + 1 >= MIN_SAMPLES && i + 1 < samples) {
      log(`  ${label}: stopped at ${i + 1} samples (budget of ${BUDGET_MS / 1000} s spent)`);
      break;
    }
  }
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
  /** Fewer samples and warm-up requests for the small size (it has only so many pages). */
  smallCounts?: { samples: number; warmup: number },
): Promise<{ large: number[]; small: number[] | undefined }> {
  const s = small
    ? await sample(`${label} (small)`, small, smallCounts?.samples, smallCounts?.warmup)
    : undefined;
  const l = await sample(label, large);
  return { large: l, small: s };
}
