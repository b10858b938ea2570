import { ChunkPages, inChunk, type Reading, readRow, scoreSlots } from './chunk-scan.js';
import {
  CHUNK_BITS,
  EntryReader,
  IN_HEADING,
  IN_TITLE,
  type PositionList,
  PositionsLocator,
  sectionsIn,
  type TermRows,
} from './codec.js';
import { Slots } from './slots.js';
import { type RankedNumber, TopPages } from './top-pages.js';

export type { RankedNumber } from './top-pages.js';

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
 *
 * The postings are read a chunk of pages at a time, every term of the query together: a
 * section's terms meet in a slot addressed by its page and position, with no merging or
 * hashing (merging the sorted lists of a word's forms was a third of a common word's time).
 */

/** A match with its terms known: any of `terms`, or a phrase whose i-th word is any of `steps[i]`. */
export type ResolvedMatch = { kind: 'any'; terms: string[] } | { kind: 'phrase'; steps: string[][] };

export interface RankInput {
  must: ResolvedMatch[];
  not: ResolvedMatch[];
  together?: ResolvedMatch | undefined;
  rows: ReadonlyMap<string, readonly TermRows[]>;
  /** The space's sections, and their average length in terms. */
  sections: number;
  averageLength: number;
  hidden: ReadonlySet<number>;
  /**
   * Sections holding each term in the whole space, when `rows` are only some of its chunks (a
   * ranking split over threads: rank-threads.ts); otherwise counted from `rows`.
   */
  holding?: ReadonlyMap<string, number> | undefined;
  /** Where the previous page of results ended: its score and page number. */
  after?: { score: number; page: number } | undefined;
  count: number;
}

export interface PostingsRanking {
  pages: RankedNumber[];
  more: boolean;
  total: number;
}

const K1 = 1.2;
const B = 0.75;
/** Words of a query a slot tells apart (bits of a 32-bit mask). */
const MAX_PARTS = 31;

/** The query's parts: each word, or each word of a phrase, is a bit every matching section must have. */
interface Part {
  bit: number;
  /** The phrase it is a word of (index into phrases), or -1. */
  phrase: number;
}

interface Phrase {
  /** The parts of its words, in order. */
  steps: string[][];
  /** Its bits. */
  bits: number;
}

export function rankPostings(input: RankInput): PostingsRanking | undefined {
  return completed(rankSteps(input));
}

/**
 * `rankPostings` as steps: it stops after each chunk of pages it reads, so that a caller on the
 * server's thread can give the event loop a turn between two (rank-threads.ts).
 */
export function* rankSteps(input: RankInput): Generator<void, PostingsRanking | undefined> {
  const excluded = new Set<number>();
  for (const match of input.not) {
    // The pages a match left out of the answer is in.
    const found = new PagesFound();
    if (!(yield* scan([match], undefined, input, found))) return undefined;
    for (const page of found.pages) excluded.add(page);
  }
  const top = new TopPages(input.count + 1, input.after);
  const answer = new Answer(top, input.hidden, excluded);
  if (!(yield* scan(input.must, input.together, input, answer))) return undefined;
  const pages = top.sorted();
  return { pages: pages.slice(0, input.count), more: pages.length > input.count, total: answer.total };
}

/** Runs steps to their end. */
function completed<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** What a scan tells of the pages it finds (an object, not closures: one call target each). */
interface Visitor {
  /** A page with every match in one section, and its best section's score; see `scan`. */
  visit(page: number, score: number): { sections: number[] } | undefined;
  /** The score a page must reach to rank, asked before each chunk. */
  floor(): number;
  /**
   * Whether pages that matched but cannot rank (see `need` in `scan`) are only counted, a
   * chunk's at a time, by `tally`; if not, every page is visited.
   */
  readonly tallies: boolean;
  tally(base: number, pages: readonly number[]): void;
}

/** The ranked answer: the best pages in `top`, and how many pages match. */
class Answer implements Visitor {
  total = 0;
  readonly tallies = true;
  private readonly leftOut: boolean;

  constructor(
    private readonly top: TopPages,
    private readonly hidden: ReadonlySet<number>,
    private readonly excluded: ReadonlySet<number>,
  ) {
    this.leftOut = hidden.size > 0 || excluded.size > 0;
  }

  visit(page: number, score: number): { sections: number[] } | undefined {
    if (this.leftOut && (this.hidden.has(page) || this.excluded.has(page))) return undefined;
    this.total++;
    return this.top.offer(page, score);
  }

  floor(): number {
    return this.top.floor();
  }

  tally(base: number, pages: readonly number[]): void {
    if (!this.leftOut) {
      this.total += pages.length;
      return;
    }
    for (const page of pages)
      if (!this.hidden.has(base + page) && !this.excluded.has(base + page)) this.total++;
  }
}

/** Every page found. */
class PagesFound implements Visitor {
  readonly pages = new Set<number>();
  readonly tallies = false;

  visit(page: number): undefined {
    this.pages.add(page);
    return undefined;
  }

  floor(): number {
    return Number.NEGATIVE_INFINITY;
  }

  tally(): void {}
}

/**
 * Calls the visitor's `visit` with each page where every match is in one section, with its best
 * section's score; when `visit` answers a page, its matching sections' positions are added to it (a hit
 * fetches only those sections to show). Answers false (visiting nothing) when the query has too
 * many words.
 *
 * A page's score is exact when it reaches the visitor's `floor()` (asked before each chunk); below it, the
 * words-together tier is left unread, as its page ranks below the answer either way: that
 * phrase's test in every section holding all the words was a third of a two-word ranking.
 */
function* scan(
  must: readonly ResolvedMatch[],
  together: ResolvedMatch | undefined,
  input: RankInput,
  visitor: Visitor,
): Generator<void, boolean> {
  // Every term's roles: which parts it satisfies.
  const roles = new Map<string, Part[]>();
  const phrases: Phrase[] = [];
  let bits = 0;
  const role = (term: string, part: Part) => {
    const list = roles.get(term);
    if (list) {
      if (!list.some((p) => p.bit === part.bit)) list.push(part);
    } else roles.set(term, [part]);
  };
  for (const match of must) {
    if (match.kind === 'any') {
      if (bits >= MAX_PARTS) return false;
      const part = { bit: 1 << bits++, phrase: -1 };
      for (const term of match.terms) role(term, part);
      continue;
    }
    const phrase: Phrase = { steps: match.steps, bits: 0 };
    for (const alternatives of match.steps) {
      if (bits >= MAX_PARTS) return false;
      const part = { bit: 1 << bits++, phrase: match.steps.length > 1 ? phrases.length : -1 };
      phrase.bits |= part.bit;
      for (const term of alternatives) role(term, part);
    }
    if (match.steps.length > 1) phrases.push(phrase);
  }
  if (bits === 0) return true;
  const all = bits === 31 ? 0x7fffffff : (1 << bits) - 1;
  const togetherSteps =
    together && together.kind === 'phrase' && together.steps.length > 1 ? together.steps : undefined;
  // Terms whose positions a phrase needs: the slots keep where each one's are.
  const positional = new Map<string, number>();
  for (const steps of [...phrases.map((p) => p.steps), ...(togetherSteps ? [togetherSteps] : [])])
    for (const alternatives of steps)
      for (const term of alternatives) if (!positional.has(term)) positional.set(term, positional.size);

  const present = [...new Set([...roles.keys(), ...positional.keys()])].filter((term) =>
    input.rows.has(term),
  );
  const idf = new Map<string, number>();
  // Sections holding each part's terms: the rarest part leads (below).
  const partSections = new Map<number, number>();
  for (const term of present) {
    const holding = input.holding?.get(term) ?? sectionsHolding(input.rows.get(term)!);
    idf.set(term, Math.log(1 + (input.sections - holding + 0.5) / (holding + 0.5)));
    for (const part of roles.get(term) ?? [])
      partSections.set(part.bit, (partSections.get(part.bit) ?? 0) + holding);
  }
  // A section matches only with every part, so only the sections of the part held by the
  // fewest take slots; the other terms add to those sections and skip the rest ("install
  // package" ranked each section of either word).
  let lead = 0;
  if (bits > 1) {
    let fewest = Number.POSITIVE_INFINITY;
    for (let bit = 0; bit < bits; bit++) {
      const held = partSections.get(1 << bit) ?? 0;
      if (held < fewest) {
        fewest = held;
        lead = 1 << bit;
      }
    }
  }
  const leads = (term: string) => lead === 0 || (roles.get(term) ?? []).some((part) => part.bit === lead);
  // The leading part's terms first: their sections are the slots the others find.
  const terms = [...present.filter(leads), ...present.filter((term) => !leads(term))];
  const readings = new Map<string, Reading>();
  for (const term of terms) {
    const parts = roles.get(term) ?? [];
    let termBits = 0;
    for (const part of parts) termBits |= part.bit;
    readings.set(term, {
      bits: termBits,
      times: parts.length,
      weight: idf.get(term)! * (K1 + 1),
      at: positional.get(term) ?? -1,
      follows: !leads(term),
    });
  }
  const slots = Slots.take(positional.size);
  // bm25's length normalisation, K1 * (1 - B + B * length / average), as a + b * length.
  const normBase = K1 * (1 - B);
  const normScale = (K1 * B) / (input.averageLength || 1);
  // The rows of each chunk, every term's.
  const chunks = new Map<number, Array<{ term: string; row: TermRows; reading: Reading }>>();
  for (const term of terms)
    for (const row of input.rows.get(term)!) {
      const entry = { term, row, reading: readings.get(term)! };
      const list = chunks.get(row.chunk);
      if (list) list.push(entry);
      else chunks.set(row.chunk, [entry]);
    }
  // One word (or its forms) and no phrase: a page without it in a title or heading scores
  // below 1, one with it in a heading only below 3. Once the answer's worst page scores above
  // that, a chunk's other pages are only counted: their sections take no slot and no bm25
  // ("configuration" in a 100,000-page space: 82,000 sections ranked one by one for 10 pages
  // that all have it in their title). Decoding a chunk's entries is a tenth of ranking them.
  const prunable = visitor.tallies && bits === 1 && phrases.length === 0 && togetherSteps === undefined;
  const reader = new EntryReader();
  // Where each positional term's sections' positions are in the chunk's row, found when asked.
  const locators: PositionsLocator[] = [];
  // Each page's best section in the chunk (-1: none yet), and the pages that have one.
  const best = new Float64Array(1 << CHUNK_BITS).fill(-1);
  const found = new Int32Array(1 << CHUNK_BITS);
  const positions: PositionList[] = [];
  // A query of several parts: a section holds them all only on a page that holds them all, so
  // only those pages' sections are read ("deploy token": a page of 100,000 holds both words
  // where a fifth holds either).
  const joint = bits > 1;
  // Pages of the chunk whose sections are read (1).
  const standing = prunable || joint ? new Uint8Array(1 << CHUNK_BITS) : undefined;
  const chunkPages = new ChunkPages(bits);
  const counted: number[] = [];
  for (const chunk of [...chunks.keys()].sort((a, b) => a - b)) {
    const base = chunk << CHUNK_BITS;
    const rows = chunks.get(chunk)!;
    const here = new Map<string, PositionsLocator>();
    for (const { term, row, reading } of rows) {
      const at = reading.at;
      if (at < 0 || !row.positions) continue;
      locators[at] ??= new PositionsLocator();
      locators[at]!.reset(row.positions, row.index);
      here.set(term, locators[at]!);
    }
    slots.begin();
    const least = visitor.floor();
    const need = !prunable || least < 1 ? 0 : least >= 3 ? IN_TITLE : IN_TITLE | IN_HEADING;
    // Whether only the sections of the pages in `chunkPages.read` are read.
    let some = false;
    if (need) {
      chunkPages.mayRank(rows, need);
      chunkPages.onlyCounted(counted);
      some = true;
    } else if (joint) {
      // No page holds every part: no section does.
      if (!chunkPages.holdingEvery(rows)) continue;
      some = true;
    }
    if (some) chunkPages.mark(standing!, 1);
    for (const { row, reading } of rows)
      readRow(reader, slots, reading, normBase, normScale, base, row, some ? standing : undefined);
    const pages = scoreSlots(
      slots,
      all,
      phrases.map((phrase) => inChunk(phrase.steps, slots, positional, here)),
      togetherSteps && inChunk(togetherSteps, slots, positional, here),
      least,
      positions,
      best,
      found,
    );
    for (let i = 0; i < pages; i++) {
      const page = found[i]!;
      const kept = visitor.visit(base + page, best[page]!);
      if (kept) slots.hits(page, kept.sections);
      best[page] = -1;
    }
    if (some) chunkPages.mark(standing!, 0);
    if (need) {
      visitor.tally(base, counted);
      counted.length = 0;
    }
    yield;
  }
  slots.give();
  return true;
}

/** How many sections a term's rows hold. */
export function sectionsHolding(rows: readonly TermRows[]): number {
  let holding = 0;
  for (const row of rows) holding += row.sections ?? sectionsIn(row.entries);
  return holding;
}
