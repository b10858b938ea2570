import { ProviderError, type TranslateRequest, type TranslationProvider } from './providers/provider.js';

/** A request holds at most this many segments and characters (DeepL takes 128 KiB a request). */
const MAX_SEGMENTS = 50;
const MAX_CHARS = 30_000;
/** Tries of one batch when the service is down or slow to answer (rate limits wait as told). */
const UNAVAILABLE_TRIES = 3;
const RATE_LIMITED_TRIES = 6;
/** The longest wait a `Retry-After` gets; a longer one ends the run (it is tried again later). */
const MAX_WAIT_MS = 120_000;

export interface SegmentOutcome {
  /** The translation, or undefined when the service's answer for it could not be used. */
  text: string | undefined;
  /** Why not, when it could not. */
  problem?: string;
}

export interface TranslateOptions {
  /** Why a translation cannot replace its source (placeholders), or undefined. */
  check(source: string, translated: string): string | undefined;
  sleep?: (ms: number) => Promise<void>;
  backoffMs?: number;
  /** Told of each request sent (segments and time spent in the service), for stats and figures. */
  onRequest?: (segments: number, ms: number) => void;
  /**
   * Given each batch's outcomes (by segment index) as soon as it is done: a run keeps them at
   * once, so a run that stops later does not ask for them again.
   */
  onBatch?: (done: Array<[number, SegmentOutcome]>) => Promise<void>;
}

/**
 * Translates segments in batches. A service that is down is tried again with backoff and one
 * that asks to slow down is waited for (its `Retry-After`); if it stays so, the error is
 * thrown and the run ends, changing nothing. An answer with the wrong count, or segments whose
 * placeholders do not match, is asked again once (segment by segment, for the bad ones); what is
 * still wrong comes back without text, for its page to keep its previous translation.
 */
export async function translateSegments(
  provider: TranslationProvider,
  request: Omit<TranslateRequest, 'segments'>,
  segments: readonly string[],
  options: TranslateOptions,
): Promise<SegmentOutcome[]> {
  const outcomes: SegmentOutcome[] = new Array(segments.length);
  for (const batch of batches(segments)) {
    const texts = batch.map((i) => segments[i]!);
    let answer: string[] | undefined;
    try {
      answer = await send(provider, { ...request, segments: texts }, options);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.failure !== 'bad-answer') throw error;
    }
    const retry: number[] = [];
    batch.forEach((index, at) => {
      const problem = answer ? options.check(segments[index]!, answer[at]!) : 'the answer could not be read';
      if (problem) retry.push(index);
      else outcomes[index] = { text: answer![at]! };
    });
    // A second chance, one segment at a time: a model that garbled one of fifty usually gets it alone.
    for (const index of retry) {
      const source = segments[index]!;
      let text: string | undefined;
      let problem: string | undefined;
      try {
        [text] = await send(provider, { ...request, segments: [source] }, options);
        problem = options.check(source, text!);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.failure !== 'bad-answer') throw error;
        problem = error.message;
      }
      outcomes[index] = problem ? { text: undefined, problem } : { text };
    }
    await options.onBatch?.(batch.map((index) => [index, outcomes[index]!]));
  }
  return outcomes;
}

async function send(
  provider: TranslationProvider,
  request: TranslateRequest,
  options: TranslateOptions,
): Promise<string[]> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  let unavailable = 0;
  let limited = 0;
  for (;;) {
    const started = performance.now();
    try {
      const answer = await provider.translate(request);
      options.onRequest?.(request.segments.length, performance.now() - started);
      return answer;
    } catch (error) {
      options.onRequest?.(request.segments.length, performance.now() - started);
      if (!(error instanceof ProviderError)) throw error;
      if (error.failure === 'rate-limited' && ++limited < RATE_LIMITED_TRIES) {
        const wait = error.retryAfterMs ?? (options.backoffMs ?? 1000) * 2 ** limited;
        if (wait > MAX_WAIT_MS) throw error;
        await sleep(wait);
        continue;
      }
      if (error.failure === 'unavailable' && ++unavailable < UNAVAILABLE_TRIES) {
        await sleep((options.backoffMs ?? 1000) * 2 ** (unavailable - 1));
        continue;
      }
      throw error;
    }
  }
}

/** Indexes of the segments, grouped into requests under the count and size limits. */
function batches(segments: readonly string[]): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let chars = 0;
  segments.forEach((segment, index) => {
    if (current.length > 0 && (current.length >= MAX_SEGMENTS || chars + segment.length > MAX_CHARS)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(index);
    chars += segment.length;
  });
  if (current.length > 0) out.push(current);
  return out;
}
