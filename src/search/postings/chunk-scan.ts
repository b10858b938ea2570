import {
  BODY_AT,
  type EntryReader,
  HEADING_AT,
  IN_HEADING,
  IN_TITLE,
  PAGE_MARK_WORDS,
  PAGE_WORDS,
  PositionList,
  type PositionsLocator,
  pageMarks,
  sectionsIn,
  type TermRows,
} from './codec.js';
import type { Slots } from './slots.js';

/**
 * The steps of a ranking (rank.ts) over one chunk of pages, each a function of its own: V8
 * optimizes each on its own and soon, where the one function they were took 150-270 ms to
 * compile in the background while its first rankings ran unoptimized, 20-50 ms each for a
 * common word of a 100,000-page space against 5 ms after (the first 40 searches through the API
 * were its slowest).
 */

/** What reading a term adds to a section: the bits of the parts it is, relevance once a part. */
export interface Reading {
  bits: number;
  times: number;
  /** Its idf times (K1 + 1). */
  weight: number;
  /** Its index among the terms whose positions are kept, or -1. */
  at: number;
  /** Whether it only adds to the sections of the leading part's terms. */
  follows: boolean;
}

/**
 * Adds a term's sections in one chunk's row to their slots (a leading term's take new ones), the
 * sections of the pages marked 1 in `standing` only when it is given. bm25's length
 * normalisation is `normBase + normScale * length`.
 */
export function readRow(
  reader: EntryReader,
  slots: Slots,
  reading: Reading,
  normBase: number,
  normScale: number,
  base: number,
  row: TermRows,
  standing: Uint8Array | undefined,
): void {
  const { bits, times, weight, at, follows } = reading;
  // Room for every section of the row first: the arrays stay the same while it is read.
  if (!follows) slots.reserve(row.sections ?? sectionsIn(row.entries));
  const { marks, bm } = slots;
  const ordinals = at < 0 ? undefined : slots.positions(at);
  slots.restart();
  reader.start(base, row.entries);
  while (standing ? reader.nextMarked(standing, 1) : reader.next()) {
    const slot = follows
      ? slots.existing(reader.page - base, reader.position)
      : slots.slot(reader.page - base, reader.position);
    if (slot < 0) continue;
    const tf = reader.weight;
    const score = (weight * tf) / (tf + normBase + normScale * reader.length);
    // Every term of a word adds its relevance, as the engines score a word's forms.
    for (let i = 0; i < times; i++) bm[slot]! += score;
    const m = slot * 3;
    marks[m]! |= bits;
    if (reader.flags & IN_TITLE) marks[m + 1]! |= bits;
    if (reader.flags & IN_HEADING) marks[m + 2]! |= bits;
    if (ordinals) ordinals[slot] = reader.ordinal;
  }
}

/**
 * Scores each slot with every part (`all`) and its phrases: its page's best value goes to
 * `best`, each page with one is listed in `found` once; answers how many. The words-together
 * phrase is tested only where it can lift the section to `least`.
 */
export function scoreSlots(
  slots: Slots,
  all: number,
  phrases: ReadonlyArray<ChunkPhrase | undefined>,
  together: ChunkPhrase | undefined,
  least: number,
  scratch: PositionList[],
  best: Float64Array,
  found: Int32Array,
): number {
  const { marks, bm } = slots;
  let pages = 0;
  for (let slot = 0; slot < slots.count; slot++) {
    const m = slot * 3;
    if (marks[m] !== all) continue;
    let title = marks[m + 1] === all;
    let heading = marks[m + 2] === all;
    let matches = true;
    for (let p = 0; p < phrases.length; p++) {
      const where = phraseIn(phrases[p], slot, scratch);
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
    if (together && value + 1 >= least && phraseIn(together, slot, scratch) > 0) value += 1;
    slots.hit[slot] = 1;
    const page = slots.pages[slot]!;
    if (best[page]! < 0) found[pages++] = page;
    if (value > best[page]!) best[page] = value;
  }
  return pages;
}

/** Bitmaps of a chunk's pages, PAGE_WORDS words each, and a row's marks when it has none kept. */
export class ChunkPages {
  /** Pages holding the one word. */
  readonly held = new Uint32Array(PAGE_WORDS);
  /** The pages whose sections are read. */
  readonly read = new Uint32Array(PAGE_WORDS);
  private readonly partsHeld: Uint32Array;
  private readonly scratch = new Uint32Array(PAGE_MARK_WORDS);

  constructor(private readonly parts: number) {
    this.partsHeld = new Uint32Array(parts > 1 ? parts * PAGE_WORDS : 0);
  }

  private marksOf(row: TermRows): Uint32Array {
    if (row.marks) return row.marks;
    pageMarks(row.entries, this.scratch);
    return this.scratch;
  }

  /**
   * One word: `held` its pages, `read` those with it where `need` says (IN_TITLE, IN_HEADING) a
   * page may still rank.
   */
  mayRank(rows: ReadonlyArray<{ row: TermRows }>, need: number): void {
    const { held, read } = this;
    held.fill(0);
    read.fill(0);
    const title = need & IN_TITLE ? PAGE_WORDS : -1;
    const heading = need & IN_HEADING ? 2 * PAGE_WORDS : -1;
    for (const { row } of rows) {
      const marks = this.marksOf(row);
      for (let w = 0; w < PAGE_WORDS; w++) {
        held[w] = held[w]! | marks[w]!;
        if (title >= 0) read[w] = read[w]! | marks[title + w]!;
        if (heading >= 0) read[w] = read[w]! | marks[heading + w]!;
      }
    }
  }

  /** Several parts: `read` the pages holding every one; answers whether there are any. */
  holdingEvery(rows: ReadonlyArray<{ row: TermRows; reading: Reading }>): boolean {
    const { partsHeld, parts, read } = this;
    partsHeld.fill(0);
    for (const { row, reading } of rows) {
      if (reading.bits === 0) continue;
      const marks = this.marksOf(row);
      for (let part = 0; part < parts; part++) {
        if (!(reading.bits & (1 << part))) continue;
        const at = part * PAGE_WORDS;
        for (let w = 0; w < PAGE_WORDS; w++) partsHeld[at + w] = partsHeld[at + w]! | marks[w]!;
      }
    }
    let any = 0;
    for (let w = 0; w < PAGE_WORDS; w++) {
      let every = -1;
      for (let part = 0; part < parts; part++) every &= partsHeld[part * PAGE_WORDS + w]!;
      read[w] = every;
      any |= every;
    }
    return any !== 0;
  }

  /** Sets each page of `read` to `value` in `standing`. */
  mark(standing: Uint8Array, value: number): void {
    const { read } = this;
    for (let w = 0; w < PAGE_WORDS; w++)
      for (let bits = read[w]! | 0; bits !== 0; bits &= bits - 1) standing[pageOf(w, bits)] = value;
  }

  /** Appends the pages held but not read (they are only counted) to `into`. */
  onlyCounted(into: number[]): void {
    const { held, read } = this;
    for (let w = 0; w < PAGE_WORDS; w++)
      for (let bits = held[w]! & ~read[w]!; bits !== 0; bits &= bits - 1) into.push(pageOf(w, bits));
  }
}

/** The page of the lowest bit set in `bits`, word `word` of a bitmap of a chunk's pages. */
const pageOf = (word: number, bits: number) => (word << 5) | (31 - Math.clz32(bits & -bits));

const PHRASE_ANYWHERE = 4;

/** A phrase's words in one chunk: for each word, where each of its terms is in the chunk's rows. */
export type ChunkPhrase = Array<Array<{ ordinals: Int32Array; locator: PositionsLocator }>>;

/**
 * The phrase's terms as found in this chunk, looked up once for all its sections rather than by
 * name in each; undefined when a word has no term in the chunk, so the phrase is in none of its
 * sections.
 */
export function inChunk(
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
export function phraseIn(phrase: ChunkPhrase | undefined, slot: number, scratch: PositionList[]): number {
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
