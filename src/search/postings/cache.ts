import type { TermRows } from './codec.js';
import {
  PAGE_MARK_WORDS,
  PAGE_MARKS_FROM,
  pageMarks,
  positionsIndex,
  positionsIndexLength,
  sectionsIn,
} from './codec.js';

/**
 * The postings a process has read, by space and term, kept while the space's generation (a new
 * one at every write of its postings or move of its pages, read with its statistics) is
 * unchanged: a common word of a 100,000-page space is 300-700 KB of rows that PostgreSQL sends
 * as hex text, 2-4 ms and as much garbage a search. Any process's write to the space changes its
 * generation, so no process ranks from rows older than the statistics it read. The space's
 * hidden pages and the terms its prefixes begin are kept the same way (`facts`): a round trip
 * each.
 *
 * A term's blobs are copied into one block of shared memory, so a ranking thread reads them
 * where they are rather than from a copy made for each search.
 */
export class PostingsCache {
  /** In the order last used: the first is dropped first. */
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  private readonly spaces = new Map<string, SpaceFacts>();

  constructor(private readonly budget: number) {}

  /**
   * What is known of a space at this generation, to fill in as it is read; undefined under
   * generation 0 (written before generations were kept).
   */
  facts(spaceId: string, generation: number): SpaceFacts | undefined {
    if (generation === 0) return undefined;
    let facts = this.spaces.get(spaceId);
    if (facts?.generation === generation) {
      this.spaces.delete(spaceId);
    } else facts = { generation, completions: new Map() };
    this.spaces.set(spaceId, facts);
    if (facts.completions.size > MAX_PREFIXES) facts.completions.clear();
    for (const [oldest] of this.spaces) {
      if (this.spaces.size <= MAX_SPACES) break;
      this.spaces.delete(oldest);
    }
    return facts;
  }

  /** A term's rows as kept for this generation, when they hold positions if `positional`. */
  get(spaceId: string, generation: number, term: string, positional: boolean): TermRows[] | undefined {
    const key = keyOf(spaceId, term);
    const found = this.kept.get(key);
    if (!found) return undefined;
    if (found.generation !== generation) {
      this.forget(key, found);
      return undefined;
    }
    if (positional && !found.positional) return undefined;
    this.kept.delete(key);
    this.kept.set(key, found);
    return found.rows;
  }

  /** Keeps a term's rows as read for this generation; answers them in shared memory. */
  put(
    spaceId: string,
    generation: number,
    term: string,
    positional: boolean,
    rows: readonly TermRows[],
  ): TermRows[] {
    const shared = toShared(rows);
    // Generation 0: written before generations were kept (0031), so it says nothing.
    if (generation === 0) return shared;
    let bytes = 0;
    for (const row of shared)
      bytes +=
        row.entries.length +
        (row.positions?.length ?? 0) +
        (row.index?.byteLength ?? 0) +
        (row.marks?.byteLength ?? 0);
    if (bytes > this.budget / 4) return shared;
    const key = keyOf(spaceId, term);
    const old = this.kept.get(key);
    if (old) this.forget(key, old);
    this.kept.set(key, { generation, positional, rows: shared, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.budget) break;
      this.forget(oldest, entry);
    }
    return shared;
  }

  /** Bytes kept (for tests). */
  get size(): number {
    return this.bytes;
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** Spaces whose facts are kept, and prefixes a space's. */
const MAX_SPACES = 1_000;
const MAX_PREFIXES = 1_000;

export interface SpaceFacts {
  generation: number;
  /** The numbers of its hidden pages. */
  hidden?: number[];
  /** The terms a prefix begins, as the store answered. */
  completions: Map<string, string[]>;
}

interface Kept {
  generation: number;
  /** Whether the rows hold positions. */
  positional: boolean;
  rows: TermRows[];
  bytes: number;
}

const keyOf = (spaceId: string, term: string) => `${spaceId}\u0000${term}`;

/**
 * The rows with their bytes in one shared buffer: a ranking thread is sent the buffer once
 * (wire.ts) rather than a buffer a row. What a ranking would otherwise find in a row at every
 * search is found here once and kept in the same buffer: where its sections' positions begin,
 * and, for a row of many sections, which pages it holds (codec.ts `pageMarks`).
 */
function toShared(rows: readonly TermRows[]): TermRows[] {
  // Counted once, not at every search (a byte scan of every row).
  const sections = rows.map((row) => row.sections ?? sectionsIn(row.entries));
  let bytes = 0;
  rows.forEach((row, i) => {
    bytes += row.entries.length;
    if (row.positions) bytes += row.positions.length + 3 + 4 * positionsIndexLength(sections[i]!);
    if (row.entries.length >= PAGE_MARKS_FROM) bytes += 3 + 4 * PAGE_MARK_WORDS;
  });
  const buffer = new SharedArrayBuffer(bytes);
  let at = 0;
  const place = (from: Uint8Array) => {
    const view = new Uint8Array(buffer, at, from.length);
    view.set(from);
    at += from.length;
    return view;
  };
  return rows.map((row, i) => {
    // Every row with the same fields, set or not, in one order: the ranking's loop reads rows of
    // one shape (rows with and without an index or marks made its reads polymorphic).
    const shared: TermRows = {
      chunk: row.chunk,
      entries: place(row.entries),
      positions: row.positions && place(row.positions),
      sections: sections[i]!,
      index: undefined,
      marks: undefined,
    };
    if (shared.entries.length >= PAGE_MARKS_FROM) {
      at = (at + 3) & ~3;
      const marks = new Uint32Array(buffer, at, PAGE_MARK_WORDS);
      pageMarks(shared.entries, marks);
      at += marks.byteLength;
      shared.marks = marks;
    }
    if (shared.positions) {
      at = (at + 3) & ~3;
      const index = new Int32Array(buffer, at, positionsIndexLength(sections[i]!));
      positionsIndex(shared.positions, sections[i]!, index);
      at += index.byteLength;
      shared.index = index;
    }
    return shared;
  });
}
