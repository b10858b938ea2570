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

class Writer {
  private buffer = Buffer.alloc(256);
  length = 0;

  varint(value: number): void {
    if (this.length + 10 > this.buffer.length) {
      const bigger = Buffer.alloc(this.buffer.length * 2);
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    let v = value;
    while (v >= 0x80) {
      this.buffer[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buffer[this.length++] = v;
  }

  done(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }
}

/** The blobs of one chunk's postings, sorted by page then position. */
export function encode(chunk: number, postings: readonly Posting[]): { entries: Buffer; positions: Buffer } {
  const entries = new Writer();
  const positions = new Writer();
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
 * One term's postings over a space, for ranking: parallel arrays in section order. Positions
 * stay encoded; `at` decodes a section's on demand.
 */
export class TermPostings {
  readonly keys: Float64Array;
  readonly weights: Float64Array;
  readonly flags: Uint8Array;
  readonly lengths: Float64Array;
  private readonly blobs: Uint8Array[] = [];
  /** For each section, which positions blob holds it and where. */
  private readonly blobOf: Uint16Array | undefined;
  private readonly offsets: Int32Array | undefined;

  /** `rows` are the term's rows in chunk order; `positions` null when they were not read. */
  constructor(rows: ReadonlyArray<{ chunk: number; entries: Uint8Array; positions: Uint8Array | null }>) {
    let size = 0;
    for (const row of rows) size += sectionsIn(row.entries);
    this.keys = new Float64Array(size);
    this.weights = new Float64Array(size);
    this.flags = new Uint8Array(size);
    this.lengths = new Float64Array(size);
    const withPositions = rows.length > 0 && rows.every((row) => row.positions !== null);
    this.blobOf = withPositions ? new Uint16Array(size) : undefined;
    this.offsets = withPositions ? new Int32Array(size) : undefined;
    let i = 0;
    rows.forEach((row, b) => {
      const e = new Reader(row.entries);
      const p = withPositions ? new Reader(row.positions!) : undefined;
      if (p) this.blobs.push(row.positions!);
      let page = row.chunk << CHUNK_BITS;
      let position = -1;
      while (e.more) {
        const delta = e.varint();
        const pos = e.varint();
        position = delta === 0 && position >= 0 ? position + pos + 1 : pos;
        page += delta;
        const packed = e.varint();
        this.keys[i] = page * POSITION_SPAN + position;
        this.weights[i] = Math.floor(packed / 4);
        this.flags[i] = packed % 4;
        this.lengths[i] = e.varint();
        if (p) {
          this.blobOf![i] = b;
          this.offsets![i] = p.offset;
          for (let n = p.varint(); n > 0; n--) p.varint();
        }
        i++;
      }
    });
  }

  get size(): number {
    return this.keys.length;
  }

  /** The index of the section with this key, or -1 (binary search from `from`). */
  find(key: number, from = 0): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.keys.length && this.keys[lo] === key ? lo : -1;
  }

  /** The term's positions in the section at index `i` (none when positions were not read). */
  at(i: number): number[] {
    if (!this.offsets) return [];
    const reader = new Reader(this.blobs[this.blobOf![i]!]!);
    reader.offset = this.offsets[i]!;
    const out: number[] = [];
    let previous = 0;
    for (let n = reader.varint(); n > 0; n--) {
      previous += reader.varint();
      out.push(previous);
    }
    return out;
  }
}

/** How many sections a blob of entries holds: four varints each, a varint ends on a byte below 0x80. */
function sectionsIn(entries: Uint8Array): number {
  let ends = 0;
  for (let i = 0; i < entries.length; i++) if (entries[i]! < 0x80) ends++;
  return ends / 4;
}
