import type { TermRows } from './codec.js';
import { type PostingsRanking, type RankInput, rankPostings } from './rank.js';
import { warmUpInputs } from './warm-up.js';

/**
 * A ranking's input as posted to a ranking thread: each term's rows as one shared buffer and a
 * table of where each row is in it. Posted as objects, a common word of a 100,000-page space was
 * a few hundred typed arrays, each on a buffer of its own; cloning them took about a millisecond
 * a search on each side (a CPU profile of 100-hit searches through the API).
 */
export interface PackedInput extends Omit<RankInput, 'rows'> {
  rows: Array<{ term: string; buffer: SharedArrayBuffer; table: Int32Array }>;
}

/**
 * Numbers a row takes in a table: chunk, entries at and length, positions at and length,
 * sections, the positions' index at and length, its page marks at and length (the last two in
 * the shared buffer only).
 */
const FIELDS = 10;

export function pack(input: RankInput): PackedInput {
  const rows: PackedInput['rows'] = [];
  for (const [term, list] of input.rows) {
    const shared = sharedBufferOf(list);
    const buffer = shared ?? copied(list);
    const table = new Int32Array(list.length * FIELDS);
    let at = 0;
    let copiedAt = 0;
    for (const row of list) {
      const place = (bytes: Uint8Array) => {
        if (shared) return bytes.byteOffset;
        const offset = copiedAt;
        copiedAt += bytes.length;
        return offset;
      };
      table[at] = row.chunk;
      table[at + 1] = place(row.entries);
      table[at + 2] = row.entries.length;
      table[at + 3] = row.positions ? place(row.positions) : 0;
      table[at + 4] = row.positions ? row.positions.length : -1;
      table[at + 5] = row.sections ?? -1;
      // A copy leaves the index and marks out: the ranking finds them (the rows are not the cache's).
      table[at + 6] = shared && row.index ? row.index.byteOffset : 0;
      table[at + 7] = shared && row.index ? row.index.length : -1;
      table[at + 8] = shared && row.marks ? row.marks.byteOffset : 0;
      table[at + 9] = shared && row.marks ? row.marks.length : -1;
      at += FIELDS;
    }
    rows.push({ term, buffer, table });
  }
  return { ...input, rows };
}

export function unpack(packed: PackedInput): RankInput {
  const rows = new Map<string, TermRows[]>();
  for (const { term, buffer, table } of packed.rows) {
    const list: TermRows[] = [];
    for (let at = 0; at < table.length; at += FIELDS) {
      // The fields of the cache's rows, in its order: one shape for the ranking's loop.
      const row: TermRows = {
        chunk: table[at]!,
        entries: new Uint8Array(buffer, table[at + 1]!, table[at + 2]!),
        positions: table[at + 4]! < 0 ? null : new Uint8Array(buffer, table[at + 3]!, table[at + 4]!),
        sections: table[at + 5]! >= 0 ? table[at + 5]! : undefined,
        index: table[at + 7]! >= 0 ? new Int32Array(buffer, table[at + 6]!, table[at + 7]!) : undefined,
        marks: table[at + 9]! >= 0 ? new Uint32Array(buffer, table[at + 8]!, table[at + 9]!) : undefined,
      };
      list.push(row);
    }
    rows.set(term, list);
  }
  return { ...packed, rows };
}

/** What a ranking thread runs. */
export function rankPacked(packed: PackedInput): PostingsRanking | undefined {
  return rankPostings(unpack(packed));
}

/**
 * Rounds of the warm-up's rankings a thread runs (warm-up.ts): 15 rankings a round, about 0.6 ms
 * each on a machine of this project's (300 ms of the thread's time, once).
 */
const WARM_UP_ROUNDS = 30;
let warming: { inputs: PackedInput[]; next: number } | undefined;

/**
 * One ranking of a thread's warm-up, through `rankPacked` as a search's; answers how many are
 * left. The thread runs them one at a time between its messages.
 */
export function warmUpStep(): number {
  warming ??= { inputs: warmUpInputs().map(pack), next: 0 };
  const { inputs } = warming;
  const total = inputs.length * WARM_UP_ROUNDS;
  if (warming.next < total) rankPacked(inputs[warming.next++ % inputs.length]!);
  return total - warming.next;
}

/** The one shared buffer all these rows are views of (as the cache keeps them), if there is one. */
function sharedBufferOf(list: readonly TermRows[]): SharedArrayBuffer | undefined {
  const buffer = list[0]?.entries.buffer;
  if (!(buffer instanceof SharedArrayBuffer)) return undefined;
  for (const row of list)
    if (
      row.entries.buffer !== buffer ||
      (row.positions && row.positions.buffer !== buffer) ||
      (row.index && row.index.buffer !== buffer) ||
      (row.marks && row.marks.buffer !== buffer)
    )
      return undefined;
  return buffer;
}

/** The rows' bytes copied, in order, into a new shared buffer (`pack` places them in the same order). */
function copied(list: readonly TermRows[]): SharedArrayBuffer {
  let bytes = 0;
  for (const row of list) bytes += row.entries.length + (row.positions?.length ?? 0);
  const buffer = new SharedArrayBuffer(bytes);
  const view = new Uint8Array(buffer);
  let at = 0;
  for (const row of list) {
    view.set(row.entries, at);
    at += row.entries.length;
    if (row.positions) {
      view.set(row.positions, at);
      at += row.positions.length;
    }
  }
  return buffer;
}
