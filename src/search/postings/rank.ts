import { BODY_AT, HEADING_AT, IN_HEADING, IN_TITLE, POSITION_SPAN, type TermPostings } from './codec.js';

/**
 * Ranking from a space's postings, in the server's process: the same rules as the engines'
 * ranking (search-index.ts), scored with bm25 over the space's own statistics.
 *
 * - Every must match is in one section (title, heading and text together); a phrase's terms
 *   follow each other there.
 * - A section's score is its tier (the title has every match 4, its heading has them 2, the
 *   query's words are together 1, added up) plus its relevance below 1; a page's is its best
 *   section's. So a page with a tier outscores every page without one, as the engines rank.
 * - Pages holding a match left out, and hidden pages, are neither ranked nor counted.
 * - Ties are ordered by page number, so a cursor (score, page number) continues exactly.
 */

/** A match with its terms known: any of `terms`, or a phrase whose i-th word is any of `steps[i]`. */
export type ResolvedMatch = { kind: 'any'; terms: string[] } | { kind: 'phrase'; steps: string[][] };

export interface RankInput {
  must: ResolvedMatch[];
  not: ResolvedMatch[];
  together?: ResolvedMatch | undefined;
  postings: ReadonlyMap<string, TermPostings>;
  /** The space's sections, and their average length in terms. */
  sections: number;
  averageLength: number;
  hidden: ReadonlySet<number>;
  /** Where the previous page of results ended: its score and page number. */
  after?: { score: number; page: number } | undefined;
  count: number;
}

export interface PostingsRanking {
  pages: Array<{ page: number; score: number }>;
  more: boolean;
  total: number;
}

const K1 = 1.2;
const B = 0.75;

/** Sections matching one match, in key order: their relevance so far and where the match is. */
interface Matched {
  keys: Float64Array;
  bm: Float64Array;
  /** IN_TITLE when the match is in the title, IN_HEADING in the heading. */
  flags: Uint8Array;
}

export function rankPostings(input: RankInput): PostingsRanking {
  const score = scorer(input);
  const lists = input.must.map((match) => matchedBy(match, input, score));
  lists.sort((a, b) => a.keys.length - b.keys.length);
  let found = lists[0] ?? empty();
  for (const list of lists.slice(1)) found = intersect(found, list);
  const excluded = new Set<number>();
  for (const match of input.not) {
    const { keys } = matchedBy(match, input, score);
    for (let i = 0; i < keys.length; i++) excluded.add(Math.floor(keys[i]! / POSITION_SPAN));
  }
  const together = input.together
    ? phraseWhere(input.together, input.postings, found.keys)
    : new Uint8Array(found.keys.length);
  const top = new TopPages(input.count + 1, input.after);
  let total = 0;
  let page = -1;
  let best = -1;
  const offer = () => {
    if (page < 0 || best < 0) return;
    total++;
    top.offer(page, best);
  };
  const all = IN_TITLE | IN_HEADING;
  for (let i = 0; i < found.keys.length; i++) {
    const at = Math.floor(found.keys[i]! / POSITION_SPAN);
    if (at !== page) {
      offer();
      page = at;
      best = -1;
    }
    if (input.hidden.has(at) || excluded.has(at)) continue;
    const flags = found.flags[i]! & all;
    const tier =
      (flags & IN_TITLE ? 4 : 0) + (flags & IN_HEADING ? 2 : 0) + (together[i]! > 0 ? 1 : 0);
    const bm = found.bm[i]!;
    const value = tier + bm / (1 + bm);
    if (value > best) best = value;
  }
  offer();
  const pages = top.sorted();
  return { pages: pages.slice(0, input.count), more: pages.length > input.count, total };
}

function empty(): Matched {
  return { keys: new Float64Array(0), bm: new Float64Array(0), flags: new Uint8Array(0) };
}

/** bm25 of one term's posting at index i, with the space's IDF for the term. */
function scorer(input: RankInput) {
  const norms = (length: number) => K1 * (1 - B + (B * length) / (input.averageLength || 1));
  return (term: TermPostings, i: number, idf: number) => {
    const weight = term.weights[i]!;
    return (idf * weight * (K1 + 1)) / (weight + norms(term.lengths[i]!));
  };
}

function idfOf(sections: number, holding: number): number {
  return Math.log(1 + (sections - holding + 0.5) / (holding + 0.5));
}

type Score = ReturnType<typeof scorer>;

/** The sections holding any of these terms, each term's bm25 added where several are. */
function anyOf(terms: readonly string[], postings: ReadonlyMap<string, TermPostings>, score: Score, sections: number): Matched {
  let out = empty();
  for (const term of new Set(terms)) {
    const list = postings.get(term);
    if (!list || list.size === 0) continue;
    const idf = idfOf(sections, list.size);
    const bm = new Float64Array(list.size);
    for (let i = 0; i < list.size; i++) bm[i] = score(list, i, idf);
    const own: Matched = { keys: list.keys, bm, flags: list.flags };
    out = out.keys.length === 0 ? own : union(out, own);
  }
  return out;
}

function matchedBy(match: ResolvedMatch, input: RankInput, score: Score): Matched {
  const { postings, sections } = input;
  if (match.kind === 'any') return anyOf(match.terms, postings, score, sections);
  const steps = match.steps.map((alternatives) => anyOf(alternatives, postings, score, sections));
  steps.sort((a, b) => a.keys.length - b.keys.length);
  let found = steps[0] ?? empty();
  for (const step of steps.slice(1)) found = intersect(found, step);
  if (match.steps.length < 2) return found;
  // Where the phrase is: the title, the heading or the text of each section.
  const where = phraseWhere(match, postings, found.keys);
  const keep: number[] = [];
  for (let i = 0; i < found.keys.length; i++) if (where[i]! > 0) keep.push(i);
  const out: Matched = {
    keys: new Float64Array(keep.length),
    bm: new Float64Array(keep.length),
    flags: new Uint8Array(keep.length),
  };
  keep.forEach((i, j) => {
    out.keys[j] = found.keys[i]!;
    out.bm[j] = found.bm[i]!;
    out.flags[j] = where[i]! & (IN_TITLE | IN_HEADING);
  });
  return out;
}

const PHRASE_ANYWHERE = 4;

/**
 * For each of `keys`, where the phrase is in that section: PHRASE_ANYWHERE when it is, with
 * IN_TITLE and IN_HEADING when it is there; 0 when it is not.
 */
function phraseWhere(match: ResolvedMatch, postings: ReadonlyMap<string, TermPostings>, keys: Float64Array): Uint8Array {
  const out = new Uint8Array(keys.length);
  const steps = match.kind === 'any' ? [match.terms] : match.steps;
  if (steps.length === 0) return out;
  const lists = steps.map((alternatives) =>
    [...new Set(alternatives)].map((term) => postings.get(term)).filter((list) => list !== undefined),
  );
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    // Each step's positions in this section (any of its alternatives).
    const positions: Array<Set<number>> = [];
    let missing = false;
    for (const alternatives of lists) {
      const here = new Set<number>();
      for (const list of alternatives) {
        const at = list.find(key);
        if (at >= 0) for (const position of list.at(at)) here.add(position);
      }
      if (here.size === 0) {
        missing = true;
        break;
      }
      positions.push(here);
    }
    if (missing) continue;
    let where = 0;
    for (const start of positions[0]!) {
      let whole = true;
      for (let s = 1; s < positions.length && whole; s++) whole = positions[s]!.has(start + s);
      if (!whole) continue;
      where |= PHRASE_ANYWHERE;
      if (start < HEADING_AT) where |= IN_TITLE;
      else if (start < BODY_AT) where |= IN_HEADING;
    }
    out[i] = where;
  }
  return out;
}

function union(a: Matched, b: Matched): Matched {
  const keys: number[] = [];
  const bm: number[] = [];
  const flags: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.keys.length || j < b.keys.length) {
    const ka = i < a.keys.length ? a.keys[i]! : Number.POSITIVE_INFINITY;
    const kb = j < b.keys.length ? b.keys[j]! : Number.POSITIVE_INFINITY;
    if (ka === kb) {
      keys.push(ka);
      bm.push(a.bm[i]! + b.bm[j]!);
      flags.push(a.flags[i++]! | b.flags[j++]!);
    } else if (ka < kb) {
      keys.push(ka);
      bm.push(a.bm[i]!);
      flags.push(a.flags[i++]!);
    } else {
      keys.push(kb);
      bm.push(b.bm[j]!);
      flags.push(b.flags[j++]!);
    }
  }
  return { keys: Float64Array.from(keys), bm: Float64Array.from(bm), flags: Uint8Array.from(flags) };
}

/** Sections in both, their relevance added, flags kept where both matches have them. */
function intersect(a: Matched, b: Matched): Matched {
  const keys: number[] = [];
  const bm: number[] = [];
  const flags: number[] = [];
  let j = 0;
  for (let i = 0; i < a.keys.length; i++) {
    const key = a.keys[i]!;
    while (j < b.keys.length && b.keys[j]! < key) j++;
    if (j >= b.keys.length) break;
    if (b.keys[j] !== key) continue;
    keys.push(key);
    bm.push(a.bm[i]! + b.bm[j]!);
    flags.push(a.flags[i]! & b.flags[j]!);
  }
  return { keys: Float64Array.from(keys), bm: Float64Array.from(bm), flags: Uint8Array.from(flags) };
}

/** The best `size` pages after the cursor, best first, ties by page number. */
class TopPages {
  private readonly heap: Array<{ page: number; score: number }> = [];

  constructor(
    private readonly size: number,
    private readonly after: { score: number; page: number } | undefined,
  ) {}

  /** Whether a ranks below b. */
  private static worse(a: { page: number; score: number }, b: { page: number; score: number }): boolean {
    return a.score < b.score || (a.score === b.score && a.page > b.page);
  }

  offer(page: number, score: number): void {
    const { after } = this;
    if (after && !(score < after.score || (score === after.score && page > after.page))) return;
    const item = { page, score };
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopPages.worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
      return;
    }
    if (!TopPages.worse(heap[0]!, item)) return;
    heap[0] = item;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && TopPages.worse(heap[l]!, heap[worst]!)) worst = l;
      if (r < heap.length && TopPages.worse(heap[r]!, heap[worst]!)) worst = r;
      if (worst === i) break;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  }

  sorted(): Array<{ page: number; score: number }> {
    return [...this.heap].sort((a, b) => b.score - a.score || a.page - b.page);
  }
}
