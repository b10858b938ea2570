import {
  BODY_AT,
  CHUNK_BITS,
  EntryReader,
  HEADING_AT,
  IN_HEADING,
  IN_TITLE,
  PAGE_MARK_WORDS,
  PAGE_WORDS,
  PositionList,
  PositionsLocator,
  pageMarks,
  sectionsIn,
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

/** One term's rows, in chunk order; positions only when the query has phrases. */
export interface TermRows {
  chunk: number;
  entries: Uint8Array;
  positions: Uint8Array | null;
  /** How many sections `entries` holds, when counted already (cache.ts). */
  sections?: number | undefined;
  /** Where every few sections' positions begin (codec.ts `positionsIndex`), when found already (cache.ts). */
  index?: Int32Array | undefined;
  /** The pages it holds, has in a title, in a heading (codec.ts `pageMarks`), when found already (cache.ts). */
  marks?: Uint32Array | undefined;
}

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
  const excluded = new Set<number>();
  for (const match of input.not) {
    const pages = matchingPages(match, input);
    if (!pages) return undefined;
    for (const page of pages) excluded.add(page);
  }
  const top = new TopPages(input.count + 1, input.after);
  let total = 0;
  const done = scan(
    input.must,
    input.together,
    input,
    input.hidden.size > 0 || excluded.size > 0
      ? (page, score) => {
          if (input.hidden.has(page) || excluded.has(page)) return undefined;
          total++;
          return top.offer(page, score);
        }
      : (page, score) => {
          total++;
          return top.offer(page, score);
        },
    () => top.floor(),
    input.hidden.size > 0 || excluded.size > 0
      ? (base, pages) => {
          for (const page of pages) if (!input.hidden.has(base + page) && !excluded.has(base + page)) total++;
        }
      : (_base, pages) => {
          total += pages.length;
        },
  );
  if (!done) return undefined;
  const pages = top.sorted();
  return { pages: pages.slice(0, input.count), more: pages.length > input.count, total };
}

/** The pages a match (left out of the answer) is in; undefined when it has too many words. */
function matchingPages(match: ResolvedMatch, input: RankInput): Set<number> | undefined {
  const out = new Set<number>();
  return scan([match], undefined, input, (page) => {
    out.add(page);
    return undefined;
  })
    ? out
    : undefined;
}

/**
 * Calls `visit` with each page where every match is in one section, with its best section's
 * score; when `visit` answers a page, its matching sections' positions are added to it (a hit
 * fetches only those sections to show). Answers false (visiting nothing) when the query has too
 * many words.
 *
 * A page's score is exact when it reaches `floor()` (asked before each chunk); below it, the
 * words-together tier is left unread, as its page ranks below the answer either way: that
 * phrase's test in every section holding all the words was a third of a two-word ranking.
 */
function scan(
  must: readonly ResolvedMatch[],
  together: ResolvedMatch | undefined,
  input: RankInput,
  visit: (page: number, score: number) => { sections: number[] } | undefined,
  floor: () => number = () => Number.NEGATIVE_INFINITY,
  /**
   * Counts pages that matched but cannot rank (see `need` below), a chunk's at a time: `base`
   * plus each of `pages`. Without it, every page is visited.
   */
  tally?: (base: number, pages: readonly number[]) => void,
): boolean {
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
  // What reading a term adds to a section: the bits of the parts it is, relevance once a part.
  const readings = new Map<
    string,
    { bits: number; times: number; weight: number; at: number; follows: boolean }
  >();
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
  const chunks = new Map<number, Array<{ term: string; row: TermRows }>>();
  for (const term of terms)
    for (const row of input.rows.get(term)!) {
      const list = chunks.get(row.chunk);
      if (list) list.push({ term, row });
      else chunks.set(row.chunk, [{ term, row }]);
    }
  // One word (or its forms) and no phrase: a page without it in a title or heading scores
  // below 1, one with it in a heading only below 3. Once the answer's worst page scores above
  // that, a chunk's other pages are only counted: their sections take no slot and no bm25
  // ("configuration" in a 100,000-page space: 82,000 sections ranked one by one for 10 pages
  // that all have it in their title). Decoding a chunk's entries is a tenth of ranking them.
  const prunable = tally !== undefined && bits === 1 && phrases.length === 0 && togetherSteps === undefined;
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
  // Bitmaps of the chunk's pages: holding the word; the pages read (where the word may rank, or
  // holding every part); each part's pages; a row's marks.
  const held = new Uint32Array(PAGE_WORDS);
  const may = new Uint32Array(PAGE_WORDS);
  const partsHeld = new Uint32Array(joint ? bits * PAGE_WORDS : 0);
  const rowMarks = new Uint32Array(PAGE_MARK_WORDS);
  const marksOf = (row: TermRows) => {
    if (row.marks) return row.marks;
    pageMarks(row.entries, rowMarks);
    return rowMarks;
  };
  const counted: number[] = [];
  for (const chunk of [...chunks.keys()].sort((a, b) => a - b)) {
    const base = chunk << CHUNK_BITS;
    const here = new Map<string, PositionsLocator>();
    for (const { term, row } of chunks.get(chunk)!) {
      const at = readings.get(term)!.at;
      if (at < 0 || !row.positions) continue;
      locators[at] ??= new PositionsLocator();
      locators[at]!.reset(row.positions, row.index);
      here.set(term, locators[at]!);
    }
    slots.begin();
    const least = floor();
    const need = !prunable || least < 1 ? 0 : least >= 3 ? IN_TITLE : IN_TITLE | IN_HEADING;
    // Whether only the sections of the pages in `may` are read.
    let some = need !== 0;
    if (need) {
      held.fill(0);
      may.fill(0);
      const title = need & IN_TITLE ? PAGE_WORDS : -1;
      const heading = need & IN_HEADING ? 2 * PAGE_WORDS : -1;
      for (const { row } of chunks.get(chunk)!) {
        const marks = marksOf(row);
        for (let w = 0; w < PAGE_WORDS; w++) {
          held[w] = held[w]! | marks[w]!;
          if (title >= 0) may[w] = may[w]! | marks[title + w]!;
          if (heading >= 0) may[w] = may[w]! | marks[heading + w]!;
        }
      }
      for (let w = 0; w < PAGE_WORDS; w++) {
        for (let bits = may[w]! | 0; bits !== 0; bits &= bits - 1) standing![pageOf(w, bits)] = 1;
        for (let bits = held[w]! & ~may[w]!; bits !== 0; bits &= bits - 1) counted.push(pageOf(w, bits));
      }
    } else if (joint) {
      partsHeld.fill(0);
      for (const { term, row } of chunks.get(chunk)!) {
        const termBits = readings.get(term)!.bits;
        if (termBits === 0) continue;
        const marks = marksOf(row);
        for (let part = 0; part < bits; part++) {
          if (!(termBits & (1 << part))) continue;
          const at = part * PAGE_WORDS;
          for (let w = 0; w < PAGE_WORDS; w++) partsHeld[at + w] = partsHeld[at + w]! | marks[w]!;
        }
      }
      let any = 0;
      for (let w = 0; w < PAGE_WORDS; w++) {
        let every = -1;
        for (let part = 0; part < bits; part++) every &= partsHeld[part * PAGE_WORDS + w]!;
        may[w] = every;
        any |= every;
        for (let bits = every; bits !== 0; bits &= bits - 1) standing![pageOf(w, bits)] = 1;
      }
      // No page holds every part: no section does.
      if (any === 0) continue;
      some = true;
    }
    for (const { term, row } of chunks.get(chunk)!) {
      const { bits: termBits, times, weight, at, follows } = readings.get(term)!;
      // Room for every section of the row first: the arrays stay the same while it is read.
      if (!follows) slots.reserve(row.sections ?? sectionsIn(row.entries));
      const { marks, bm } = slots;
      const ordinals = at < 0 ? undefined : slots.positions(at);
      slots.restart();
      reader.start(base, row.entries);
      while (some ? reader.nextMarked(standing!, 1) : reader.next()) {
        const slot = follows
          ? slots.existing(reader.page - base, reader.position)
          : slots.slot(reader.page - base, reader.position);
        if (slot < 0) continue;
        const tf = reader.weight;
        const score = (weight * tf) / (tf + normBase + normScale * reader.length);
        // Every term of a word adds its relevance, as the engines score a word's forms.
        for (let i = 0; i < times; i++) bm[slot]! += score;
        const m = slot * 3;
        marks[m]! |= termBits;
        if (reader.flags & IN_TITLE) marks[m + 1]! |= termBits;
        if (reader.flags & IN_HEADING) marks[m + 2]! |= termBits;
        if (ordinals) ordinals[slot] = reader.ordinal;
      }
    }
    const { marks, bm } = slots;
    const chunkPhrases = phrases.map((phrase) => inChunk(phrase.steps, slots, positional, here));
    const chunkTogether = togetherSteps && inChunk(togetherSteps, slots, positional, here);
    let pages = 0;
    for (let slot = 0; slot < slots.count; slot++) {
      const m = slot * 3;
      if (marks[m] !== all) continue;
      let title = marks[m + 1] === all;
      let heading = marks[m + 2] === all;
      let matches = true;
      for (const phrase of chunkPhrases) {
        const where = phraseIn(phrase, slot, positions);
        if (!where) {
          matches = false;
          break;
        }
        // A phrase's words each in the title do not make the phrase a title's.
        if (!(where & IN_TITLE)) title = false;
        if (!(where & IN_HEADING)) heading = false;
      }
      if (!matches) continue;
      const relevance = bm[slot]!;
      let value = (title ? 4 : 0) + (heading ? 2 : 0) + relevance / (1 + relevance);
      if (togetherSteps && value + 1 >= least && phraseIn(chunkTogether, slot, positions) > 0) value += 1;
      slots.hit[slot] = 1;
      const page = slots.pages[slot]!;
      if (best[page]! < 0) found[pages++] = page;
      if (value > best[page]!) best[page] = value;
    }
    for (let i = 0; i < pages; i++) {
      const page = found[i]!;
      const kept = visit(base + page, best[page]!);
      if (kept) slots.hits(page, kept.sections);
      best[page] = -1;
    }
    if (some)
      for (let w = 0; w < PAGE_WORDS; w++)
        for (let bits = may[w]! | 0; bits !== 0; bits &= bits - 1) standing![pageOf(w, bits)] = 0;
    if (need) {
      tally!(base, counted);
      counted.length = 0;
    }
  }
  slots.give();
  return true;
}

/** The page of the lowest bit set in `bits`, word `word` of a bitmap of a chunk's pages. */
const pageOf = (word: number, bits: number) => (word << 5) | (31 - Math.clz32(bits & -bits));

/** How many sections a term's rows hold. */
export function sectionsHolding(rows: readonly TermRows[]): number {
  let holding = 0;
  for (const row of rows) holding += row.sections ?? sectionsIn(row.entries);
  return holding;
}

const PHRASE_ANYWHERE = 4;

/** A phrase's words in one chunk: for each word, where each of its terms is in the chunk's rows. */
type ChunkPhrase = Array<Array<{ ordinals: Int32Array; locator: PositionsLocator }>>;

/**
 * The phrase's terms as found in this chunk, looked up once for all its sections rather than by
 * name in each; undefined when a word has no term in the chunk, so the phrase is in none of its
 * sections.
 */
function inChunk(
  steps: string[][],
  slots: Slots,
  positional: ReadonlyMap<string, number>,
  located: ReadonlyMap<string, PositionsLocator>,
): ChunkPhrase | undefined {
  const out: ChunkPhrase = [];
  for (const alternatives of steps) {
    const step: ChunkPhrase[number] = [];
    for (const term of alternatives) {
      const at = positional.get(term);
      const locator = located.get(term);
      if (at === undefined || !locator) continue;
      step.push({ ordinals: slots.positions(at), locator });
    }
    if (step.length === 0) return undefined;
    out.push(step);
  }
  return out;
}

/**
 * Where a phrase is in the section of `slot`: PHRASE_ANYWHERE when it is, with IN_TITLE and
 * IN_HEADING when it is there; 0 when it is not. A word's positions are its terms', unsorted:
 * each start is looked for in them.
 */
function phraseIn(phrase: ChunkPhrase | undefined, slot: number, scratch: PositionList[]): number {
  if (!phrase) return 0;
  const steps = phrase.length;
  for (let s = 0; s < steps; s++) {
    scratch[s] ??= new PositionList();
    const into = scratch[s]!;
    into.length = 0;
    const terms = phrase[s]!;
    for (let t = 0; t < terms.length; t++) {
      const ordinal = terms[t]!.ordinals[slot]!;
      if (ordinal >= 0) terms[t]!.locator.read(ordinal, into);
    }
    if (into.length === 0) return 0;
  }
  let where = 0;
  const first = scratch[0]!;
  for (let i = 0; i < first.length; i++) {
    const start = first.values[i]!;
    let whole = true;
    for (let s = 1; s < steps && whole; s++) whole = scratch[s]!.includes(start + s);
    if (!whole) continue;
    where |= PHRASE_ANYWHERE;
    if (start < HEADING_AT) where |= IN_TITLE;
    else if (start < BODY_AT) where |= IN_HEADING;
  }
  return where;
}
