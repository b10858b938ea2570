/**
 * The blobs of search postings (0030): for one term of a space and one chunk of 1,024 page
 * numbers, every section holding the term, in section order. Two blobs a row, so that a query
 * without phrases never reads positions:
 *
 * - `entries`, four varints a section: the page number's delta from the previous section's
 *   (from the chunk's first number for the first), the section's position (its delta from the
 *   previous one's minus one on the same page), the weighted term frequency shifted left by two
 *   with the title and heading flags, and the section's length in terms;
 * - `positions`, for the same sections in the same order: how many positions, then their deltas.
 *
 * A term's positions in a section are counted over its title, heading and text, which start at
 * 0, HEADING_AT and BODY_AT: a phrase never spans two of them, and a position tells which one it
 * is in.
 */

export const CHUNK_BITS = 10;
/** Section keys are page * POSITION_SPAN + position (a section's position is below 2^20). */
export const POSITION_SPAN = 2 ** 20;
export const HEADING_AT = 2 ** 16;
export const BODY_AT = 2 ** 17;
export const IN_TITLE = 1;
export const IN_HEADING = 2;

export const chunkOf = (page: number): number => page >>> CHUNK_BITS;

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

/** One section holding a term. */
export interface Posting {
  page: number;
  position: number;
  /** Occurrences weighted by where they are: title 10, heading 4, text 1 (our bm25's weights). */
  weight: number;
  /** IN_TITLE | IN_HEADING. */
  flags: number;
  /** The section's terms, title and heading included. */
  length: number;
  /** The term's positions in the section, ascending. */
  at: number[];
}

/** Appends varints to a buffer shared by every encoding (copied out when done). */
class Writer {
  private buffer = Buffer.alloc(1 << 16);
  length = 0;

  varint(value: number): void {
    if (this.length + 10 > this.buffer.length) {
      const bigger = Buffer.alloc(this.buffer.length * 2);
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    let v = value;
    while (v >= 0x80000000) {
      this.buffer[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    while (v >= 0x80) {
      this.buffer[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[this.length++] = v;
  }

  /** Copies `from[start, end)`. */
  bytes(from: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (this.length + size > this.buffer.length) {
      const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    this.buffer.set(from.subarray(start, end), this.length);
    this.length += size;
  }

  done(): Buffer {
    const out = Buffer.from(this.buffer.subarray(0, this.length));
    this.length = 0;
    return out;
  }
}

const entriesWriter = new Writer();
const positionsWriter = new Writer();

/** The blobs of one chunk's postings, sorted by page then position. */
export function encode(chunk: number, postings: readonly Posting[]): { entries: Buffer; positions: Buffer } {
  const entries = entriesWriter;
  const positions = positionsWriter;
  entries.length = 0;
  positions.length = 0;
  let page = chunk << CHUNK_BITS;
  let position = -1;
  for (const p of postings) {
    if (p.page < page || (p.page === page && p.position <= position) || chunkOf(p.page) !== chunk)
      throw new Error(`postings out of order: page ${p.page}, section ${p.position} in chunk ${chunk}`);
    const samePage = p.page === page && position >= 0;
    entries.varint(p.page - page);
    entries.varint(samePage ? p.position - position - 1 : p.position);
    entries.varint(p.weight * 4 + p.flags);
    entries.varint(p.length);
    page = p.page;
    position = p.position;
    positions.varint(p.at.length);
    let previous = 0;
    for (const at of p.at) {
      positions.varint(at - previous);
      previous = at;
    }
  }
  return { entries: entries.done(), positions: positions.done() };
}

/**
 * A chunk's blobs with the sections of `pages` (ascending) taken out and `added` (postings of
 * those pages, sorted) put in, as `encode` would write the result; also how many sections went.
 * Written from the old bytes: runs of sections kept are copied, and only the first section after
 * a change has its page delta written again (its position is absolute, its predecessor being of
 * another page either way). Decoding a row into objects and encoding it again was half of
 * writing one page in a 100,000-page space (76 rows of up to a thousand sections).
 */
export function rewrite(
  chunk: number,
  entries: Uint8Array,
  positions: Uint8Array,
  pages: readonly number[],
  added: readonly Posting[],
): { entries: Buffer; positions: Buffer; removed: number } {
  const outEntries = entriesWriter;
  const outPositions = positionsWriter;
  outEntries.length = 0;
  outPositions.length = 0;
  const e = new Reader(entries);
  const p = new Reader(positions);
  // The last section written: what the next one's page delta and position are taken from.
  let lastPage = chunk << CHUNK_BITS;
  let lastPosition = -1;
  let next = 0;
  let gone = 0;
  let page = chunk << CHUNK_BITS;
  let position = -1;
  // Old bytes kept and not yet copied, from these offsets; -1: none.
  let runEntries = -1;
  let runPositions = -1;
  const flush = (entriesEnd: number, positionsEnd: number) => {
    if (runEntries < 0) return;
    outEntries.bytes(entries, runEntries, entriesEnd);
    outPositions.bytes(positions, runPositions, positionsEnd);
    runEntries = -1;
  };
  const put = (posting: Posting) => {
    const samePage = posting.page === lastPage && lastPosition >= 0;
    outEntries.varint(posting.page - lastPage);
    outEntries.varint(samePage ? posting.position - lastPosition - 1 : posting.position);
    outEntries.varint(posting.weight * 4 + posting.flags);
    outEntries.varint(posting.length);
    outPositions.varint(posting.at.length);
    let previous = 0;
    for (const at of posting.at) {
      outPositions.varint(at - previous);
      previous = at;
    }
    lastPage = posting.page;
    lastPosition = posting.position;
  };
  let removing = 0;
  // Whether the section written last is the one before the current in the old bytes (or none
  // was written, nor read): then the current one's bytes stand as they are.
  let intact = true;
  while (e.more) {
    const entriesStart = e.offset;
    const positionsStart = p.offset;
    const delta = e.varint();
    const field = e.varint();
    position = delta === 0 && position >= 0 ? position + field + 1 : field;
    page += delta;
    const packed = e.varint();
    const length = e.varint();
    for (let n = p.varint(); n > 0; n--) p.varint();
    while (removing < pages.length && pages[removing]! < page) removing++;
    const goes = removing < pages.length && pages[removing] === page;
    if (next < added.length && added[next]!.page < page) {
      flush(entriesStart, positionsStart);
      while (next < added.length && added[next]!.page < page) put(added[next++]!);
      intact = false;
    }
    if (goes) {
      flush(entriesStart, positionsStart);
      gone++;
      intact = false;
      continue;
    }
    if (intact) {
      if (runEntries < 0) {
        runEntries = entriesStart;
        runPositions = positionsStart;
      }
    } else {
      outEntries.varint(page - lastPage);
      outEntries.varint(page === lastPage && lastPosition >= 0 ? position - lastPosition - 1 : position);
      outEntries.varint(packed);
      outEntries.varint(length);
      outPositions.bytes(positions, positionsStart, p.offset);
      intact = true;
    }
    lastPage = page;
    lastPosition = position;
  }
  flush(e.offset, p.offset);
  while (next < added.length) put(added[next++]!);
  return { entries: outEntries.done(), positions: outPositions.done(), removed: gone };
}

/** Reads varints from one blob. */
class Reader {
  offset = 0;
  constructor(readonly data: Uint8Array) {}

  get more(): boolean {
    return this.offset < this.data.length;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.data[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/** A chunk's postings as objects (to rewrite them). */
export function decode(chunk: number, entries: Uint8Array, positions: Uint8Array): Posting[] {
  const out: Posting[] = [];
  const e = new Reader(entries);
  const p = new Reader(positions);
  let page = chunk << CHUNK_BITS;
  let position = -1;
  while (e.more) {
    const delta = e.varint();
    const pos = e.varint();
    position = delta === 0 && position >= 0 ? position + pos + 1 : pos;
    page += delta;
    const packed = e.varint();
    const length = e.varint();
    const at: number[] = [];
    let previous = 0;
    for (let n = p.varint(); n > 0; n--) {
      previous += p.varint();
      at.push(previous);
    }
    out.push({ page, position, weight: Math.floor(packed / 4), flags: packed % 4, length, at });
  }
  return out;
}

/**
 * Reads one row's sections in order without making objects (the ranking's inner loop).
 * `ordinal` counts the sections read: where a section's positions are is found from it only
 * when a phrase is tested there (PositionsLocator).
 */
export class EntryReader {
  page = 0;
  position = 0;
  weight = 0;
  flags = 0;
  length = 0;
  /** The current section's index in the row. */
  ordinal = -1;
  private entries: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private first = true;

  private base = 0;

  start(base: number, entries: Uint8Array): void {
    this.base = base;
    this.entries = entries;
    this.offset = 0;
    this.page = base;
    this.position = -1;
    this.ordinal = -1;
    this.first = true;
  }

  next(): boolean {
    const data = this.entries;
    if (this.offset >= data.length) return false;
    const delta = this.varint(data);
    const position = this.varint(data);
    this.position = delta === 0 && !this.first ? this.position + position + 1 : position;
    this.first = false;
    this.page += delta;
    this.ordinal++;
    const packed = this.varint(data);
    this.weight = Math.floor(packed / 4);
    this.flags = packed % 4;
    this.length = this.varint(data);
    return true;
  }

  /**
   * The next section of a page marked with `bit` in `pages` (by page number in the chunk), as
   * `next` reads it; the sections of other pages are passed over without decoding their weight
   * and length.
   */
  nextMarked(pages: Uint8Array, bit: number): boolean {
    const data = this.entries;
    while (this.offset < data.length) {
      const delta = this.varint(data);
      const position = this.varint(data);
      this.position = delta === 0 && !this.first ? this.position + position + 1 : position;
      this.first = false;
      this.page += delta;
      this.ordinal++;
      if (!(pages[this.page - this.base]! & bit)) {
        while (data[this.offset++]! >= 0x80);
        while (data[this.offset++]! >= 0x80);
        continue;
      }
      const packed = this.varint(data);
      this.weight = Math.floor(packed / 4);
      this.flags = packed % 4;
      this.length = this.varint(data);
      return true;
    }
    return false;
  }

  private varint(data: Uint8Array): number {
    let byte = data[this.offset++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      byte = data[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

/**
 * Positions gathered for one word of a phrase, in a typed array kept from test to test: a phrase
 * is tested in thousands of sections a ranking, and a JS array emptied by `length = 0` (a call
 * into the runtime) and grown by `push` was most of each test.
 */
export class PositionList {
  values = new Int32Array(64);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Int32Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  includes(value: number): boolean {
    const { values, length } = this;
    for (let i = 0; i < length; i++) if (values[i] === value) return true;
    return false;
  }

  /** The positions, as an array (tests). */
  toArray(): number[] {
    return Array.from(this.values.subarray(0, this.length));
  }
}

/**
 * Where each section's positions begin in a row's positions blob, found when asked: the blob
 * has no lengths, so the sections before are skipped one by one, once, and every SKIP_EVERY-th
 * one's offset is kept to start from when a section before the last one found is asked (the
 * sections of a word's second form come after its first's in slot order). A row kept between
 * searches comes with those offsets found once (`positionsIndex`): skipping every section of
 * every row was most of a phrase's test ("install package" in a 100,000-page space: 113,000
 * sections walked a ranking for 7,700 tested).
 */
export class PositionsLocator {
  private data: Uint8Array = new Uint8Array(0);
  /** Sections located: the offset of section `located` is `offset`. */
  private located = 0;
  private offset = 0;
  /** The offsets of every SKIP_EVERY-th section found so far, when the row has no index. */
  private kept = new Int32Array(64);
  /** Where every SKIP_EVERY-th section's positions begin: the row's index, or `kept`. */
  private table: Int32Array<ArrayBufferLike> = this.kept;
  /**
   * The section after the one last read, and its offset. A phrase's sections are tested in the
   * order they took slots, which runs over a term's row more than once a chunk (once for the
   * sections of each term of the leading word): going back, each read went from the kept offset
   * before it, up to 15 sections, where the one before had left off.
   */
  private cursor = 0;
  private cursorOffset = 0;

  /** A row's positions, with the offsets of every SKIP_EVERY-th section when they are known. */
  reset(data: Uint8Array, index?: Int32Array): void {
    this.data = data;
    this.offset = 0;
    this.cursor = 0;
    this.cursorOffset = 0;
    if (index) {
      this.table = index;
      this.located = Number.MAX_SAFE_INTEGER;
    } else {
      this.table = this.kept;
      this.located = 0;
      this.kept[0] = 0;
    }
  }

  /** Appends the positions of the row's `ordinal`-th section to `out`, as they are. */
  read(ordinal: number, out: PositionList): void {
    const data = this.data;
    let at: number;
    let o: number;
    if (ordinal >= this.located) {
      at = this.located;
      o = this.offset;
    } else {
      at = ordinal - (ordinal % SKIP_EVERY);
      o = this.table[at / SKIP_EVERY]!;
    }
    if (this.cursor <= ordinal && this.cursor > at) {
      at = this.cursor;
      o = this.cursorOffset;
    }
    for (; at < ordinal; at++) {
      o = skipPositions(data, o);
      if (at + 1 > this.located) {
        this.located = at + 1;
        this.offset = o;
        if (this.located % SKIP_EVERY === 0) this.keep(this.located / SKIP_EVERY, o);
      }
    }
    // The count, then as many deltas.
    let previous = 0;
    let n = -1;
    while (n !== 0) {
      let value = 0;
      let scale = 1;
      for (;;) {
        const byte = data[o++]!;
        value += (byte & 0x7f) * scale;
        if (byte < 0x80) break;
        scale *= 0x80;
      }
      if (n < 0) n = value;
      else {
        previous += value;
        out.push(previous);
        n--;
      }
    }
    this.cursor = ordinal + 1;
    this.cursorOffset = o;
    // The cursor is never past what is located, so no kept offset is skipped.
    if (ordinal === this.located) {
      this.located = ordinal + 1;
      this.offset = o;
      if (this.located % SKIP_EVERY === 0) this.keep(this.located / SKIP_EVERY, o);
    }
  }

  private keep(index: number, offset: number): void {
    if (index >= this.kept.length) {
      const bigger = new Int32Array(this.kept.length * 2);
      bigger.set(this.kept);
      this.kept = bigger;
      this.table = bigger;
    }
    this.kept[index] = offset;
  }
}

/** The offset after the positions of the section at `o` (its count, then as many varints). */
function skipPositions(data: Uint8Array, from: number): number {
  let o = from;
  let n = 0;
  let scale = 1;
  for (;;) {
    const byte = data[o++]!;
    n += (byte & 0x7f) * scale;
    if (byte < 0x80) break;
    scale *= 0x80;
  }
  while (n > 0) if (data[o++]! < 0x80) n--;
  return o;
}

/** How many offsets `positionsIndex` gives a row of `sections` sections. */
export const positionsIndexLength = (sections: number): number => Math.ceil(sections / SKIP_EVERY);

/**
 * Where every SKIP_EVERY-th section's positions begin in a row of `sections` sections, written
 * to `into` (of `positionsIndexLength(sections)`): found once for a row kept between searches,
 * 1 byte a section where its positions are about 4.
 */
export function positionsIndex(positions: Uint8Array, sections: number, into: Int32Array): void {
  let o = 0;
  for (let at = 0; at < sections; at++) {
    if (at % SKIP_EVERY === 0) into[at / SKIP_EVERY] = o;
    o = skipPositions(positions, o);
  }
}

const SKIP_EVERY = 4;

/** 32-bit words of a bitmap of a chunk's pages. */
export const PAGE_WORDS = (1 << CHUNK_BITS) / 32;
/** Words of a row's page marks (`pageMarks`): the pages it holds, has in a title, in a heading. */
export const PAGE_MARK_WORDS = PAGE_WORDS * 3;
/** Entries from which a row kept between searches comes with its page marks (3 x 128 bytes). */
export const PAGE_MARKS_FROM = 512;

/**
 * Which pages of its chunk a row of entries holds, and has in a title or a heading, as three
 * bitmaps in `into` (PAGE_MARK_WORDS words, zeroed here): a one-word query counts the pages that
 * cannot rank from them, a few words per 32 pages, rather than from every section's entry.
 */
export function pageMarks(entries: Uint8Array, into: Uint32Array): void {
  into.fill(0);
  let o = 0;
  let page = 0;
  while (o < entries.length) {
    let byte = entries[o++]!;
    let delta = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = entries[o++]!;
      delta += (byte & 0x7f) * scale;
    }
    page += delta;
    while (entries[o++]! >= 0x80);
    // The flags are the packed varint's two low bits, in its first byte.
    byte = entries[o++]!;
    const flags = byte & 3;
    while (byte >= 0x80) byte = entries[o++]!;
    while (entries[o++]! >= 0x80);
    const word = page >>> 5;
    const bit = 1 << (page & 31);
    into[word] = into[word]! | bit;
    if (flags & IN_TITLE) into[PAGE_WORDS + word] = into[PAGE_WORDS + word]! | bit;
    if (flags & IN_HEADING) into[2 * PAGE_WORDS + word] = into[2 * PAGE_WORDS + word]! | bit;
  }
}

/** How many sections a blob of entries holds: four varints each, a varint ends on a byte below 0x80. */
export function sectionsIn(entries: Uint8Array): number {
  let ends = 0;
  for (let i = 0; i < entries.length; i++) if (entries[i]! < 0x80) ends++;
  return ends / 4;
}
