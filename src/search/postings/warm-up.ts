import { PostingsCache } from './cache.js';
import {
  BODY_AT,
  CHUNK_BITS,
  encode,
  HEADING_AT,
  IN_HEADING,
  IN_TITLE,
  type Posting,
  type TermRows,
} from './codec.js';
import type { RankInput, ResolvedMatch } from './rank.js';

/**
 * Rankings of made-up postings that a ranking thread runs when it starts, in its idle time
 * (rank-threads.ts). V8 optimizes the ranking's functions only after they have run a while, on
 * what they ran on: until then a new thread's rankings of a 100,000-page space run unoptimized,
 * and the first searches after a start took 20-60 ms where they later take 4-12 ms. The made-up
 * rows take every path real ones do: a word in most pages (rows with page marks, counted
 * without decoding), words in titles and headings (the tiers), two words in one section and
 * side by side (the phrase test and its positions index), a word to exclude, a page number to
 * start after, hidden pages, and the halves of a ranking split over two threads.
 */

/** Chunks of made-up pages: enough rows for the marks, small enough to rank in about 1 ms. */
const CHUNKS = 3;
const PAGES = CHUNKS << CHUNK_BITS;

/** A deterministic draw in [0, 1) (xorshift): the same rows on every start. */
function draws(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

/** The made-up space: each word's rows as the postings cache keeps them, and its statistics. */
function madeUpSpace(): { rows: Map<string, TermRows[]>; sections: number; tokens: number } {
  const random = draws(0x5eed);
  const byTerm = new Map<string, Posting[][]>();
  const add = (term: string, posting: Posting) => {
    let chunks = byTerm.get(term);
    if (!chunks) {
      chunks = Array.from({ length: CHUNKS }, () => []);
      byTerm.set(term, chunks);
    }
    chunks[posting.page >>> CHUNK_BITS]!.push(posting);
  };
  let sections = 0;
  let tokens = 0;
  for (let page = 0; page < PAGES; page++) {
    const inTitle = random() < 0.05;
    const count = 1 + Math.floor(random() * 3);
    for (let position = 0; position < count; position++) {
      const length = 20 + Math.floor(random() * 60);
      sections++;
      tokens += length;
      const inHeading = random() < 0.1;
      // "common" in most sections, in a few titles and headings; "other" in a third, next to
      // "common" in some (the phrase); "rare" in a few; "left" to exclude.
      if (random() < 0.7 || inTitle) {
        const at = [...(inTitle ? [0] : []), ...(inHeading ? [HEADING_AT] : []), BODY_AT + 40];
        add('common', {
          page,
          position,
          weight: (inTitle ? 10 : 0) + (inHeading ? 4 : 0) + 1,
          flags: (inTitle ? IN_TITLE : 0) | (inHeading ? IN_HEADING : 0),
          length,
          at,
        });
        if (random() < 0.3) add('other', { page, position, weight: 1, flags: 0, length, at: [BODY_AT + 41] });
      } else if (random() < 0.3) {
        add('other', { page, position, weight: 1, flags: 0, length, at: [BODY_AT + 45] });
      }
      if (random() < 0.02) add('rare', { page, position, weight: 1, flags: 0, length, at: [BODY_AT + 50] });
      if (random() < 0.1) add('left', { page, position, weight: 1, flags: 0, length, at: [BODY_AT + 55] });
    }
  }
  const cache = new PostingsCache(Number.POSITIVE_INFINITY);
  const rows = new Map<string, TermRows[]>();
  for (const [term, chunks] of byTerm) {
    const encoded = chunks.flatMap((postings, chunk) => {
      if (postings.length === 0) return [];
      const { entries, positions } = encode(chunk, postings);
      return [{ chunk, entries, positions }];
    });
    rows.set(term, cache.put('warm-up', 1, term, true, encoded));
  }
  return { rows, sections, tokens };
}

/** The inputs a thread ranks to warm up, each as a real search would ask it. */
export function warmUpInputs(): RankInput[] {
  const { rows, sections, tokens } = madeUpSpace();
  const any = (...terms: string[]): ResolvedMatch => ({ kind: 'any', terms });
  const phrase = (...words: string[]): ResolvedMatch => ({ kind: 'phrase', steps: words.map((w) => [w]) });
  const base = { rows, sections, averageLength: tokens / sections, hidden: new Set<number>(), not: [] };
  const hidden = new Set(Array.from({ length: 50 }, (_, i) => i * 61));
  const inputs: RankInput[] = [];
  for (const count of [100, 10]) {
    inputs.push(
      { ...base, must: [any('common')], count },
      { ...base, must: [any('common', 'rare')], hidden, count },
      { ...base, must: [any('common'), any('other')], together: phrase('common', 'other'), count },
      { ...base, must: [phrase('common', 'other')], count },
      { ...base, must: [any('other')], not: [any('left')], count },
      { ...base, must: [any('common')], after: { score: 4, page: PAGES >> 1 }, count },
    );
  }
  // The halves of a split ranking: the whole's counts given, a part of the rows.
  const holding = new Map(
    [...rows].map(([term, list]) => [term, list.reduce((n, r) => n + (r.sections ?? 0), 0)]),
  );
  for (const input of inputs.slice(0, 3)) {
    const half = new Map([...rows].map(([term, list]) => [term, list.filter((row) => row.chunk > 0)]));
    inputs.push({ ...input, rows: half, holding });
  }
  return inputs;
}
