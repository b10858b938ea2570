import { CHUNK_BITS } from './codec.js';

/**
 * The sections of one chunk of pages met so far, each in a slot numbered in the order met, so a
 * chunk's slots are side by side in a few kilobytes. A page's slots are a list in position
 * order from `head`; a term's sections come in page and position order, so each is found from
 * the one before it. (Slots addressed by page and position took a cache miss at almost every
 * section: half of a common word's ranking.)
 */
export class Slots {
  /**
   * The slots of the last scan, for the next: every search would otherwise allocate them and
   * leave them to the collector. A scan keeps them to its end, when it gives them back; a scan
   * that begins while another waits between two chunks (rank-threads.ts), or after one threw,
   * takes new ones.
   */
  private static spare: Slots | undefined;

  static take(positional: number): Slots {
    const spare = Slots.spare;
    Slots.spare = undefined;
    return spare && spare.offsets.length >= positional ? spare : new Slots(positional);
  }

  give(): void {
    Slots.spare = this;
  }

  /** Slots in use. */
  count = 0;
  /** Each slot's page in the chunk. */
  pages = new Int32Array(4096);
  /** Three a slot, side by side: the bits of the parts in the section, in its title, in its heading. */
  marks = new Uint32Array(4096 * 3);
  bm = new Float64Array(4096);
  /** 1 where the section has every match. */
  hit = new Uint8Array(4096);
  private positionOf = new Int32Array(4096);
  /** The next slot of the same page, by position; -1 after its last. */
  private next = new Int32Array(4096);
  /** Each page's first slot; -1 when it has none. */
  private readonly head = new Int32Array(1 << CHUNK_BITS).fill(-1);
  private readonly offsets: Int32Array[];
  /** The page and slot of the section last found, where the next section's search begins. */
  private lastPage = -1;
  private lastSlot = -1;

  constructor(positional: number) {
    this.offsets = Array.from({ length: positional }, () => new Int32Array(4096));
  }

  /** A new chunk: no slots. */
  begin(): void {
    for (let slot = 0; slot < this.count; slot++) this.head[this.pages[slot]!] = -1;
    this.count = 0;
  }

  /** A term's sections begin again from the chunk's first page. */
  restart(): void {
    this.lastPage = -1;
  }

  /** Room for `more` slots, so no array changes before they are taken. */
  reserve(more: number): void {
    const size = this.count + more;
    if (size <= this.bm.length) return;
    const length = Math.max(size, this.bm.length * 2);
    const widen = <T extends Uint32Array | Float64Array | Int32Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.pages = widen(this.pages, new Int32Array(length));
    this.marks = widen(this.marks, new Uint32Array(length * 3));
    this.bm = widen(this.bm, new Float64Array(length));
    this.hit = widen(this.hit, new Uint8Array(length));
    this.positionOf = widen(this.positionOf, new Int32Array(length));
    this.next = widen(this.next, new Int32Array(length));
    for (let i = 0; i < this.offsets.length; i++)
      this.offsets[i] = widen(this.offsets[i]!, new Int32Array(length));
  }

  /** The slot of a section, taken when it is new; sections of a term in page and position order. */
  slot(page: number, position: number): number {
    const found = this.existing(page, position);
    if (found >= 0) return found;
    // `existing` left the page's slot before this section in `lastSlot` (-1: none).
    const before = this.lastSlot;
    const taken = this.count++;
    this.pages[taken] = page;
    this.positionOf[taken] = position;
    this.next[taken] = before < 0 ? this.head[page]! : this.next[before]!;
    const m = taken * 3;
    this.marks[m] = 0;
    this.marks[m + 1] = 0;
    this.marks[m + 2] = 0;
    this.bm[taken] = 0;
    this.hit[taken] = 0;
    for (const offsets of this.offsets) offsets[taken] = -1;
    if (before < 0) this.head[page] = taken;
    else this.next[before] = taken;
    this.lastPage = page;
    this.lastSlot = taken;
    return taken;
  }

  /** The slot of a section taken already, or -1; sections of a term in page and position order. */
  existing(page: number, position: number): number {
    const { positionOf, next } = this;
    let before = page === this.lastPage ? this.lastSlot : -1;
    let slot = before < 0 ? this.head[page]! : next[before]!;
    while (slot >= 0 && positionOf[slot]! < position) {
      before = slot;
      slot = next[slot]!;
    }
    if (slot >= 0 && positionOf[slot] === position) {
      this.lastPage = page;
      this.lastSlot = slot;
      return slot;
    }
    // The page's next section is searched from the last slot before this one.
    this.lastPage = before < 0 ? -1 : page;
    this.lastSlot = before;
    return -1;
  }

  /** Adds to `into` the positions of the page's sections with every match, in order. */
  hits(page: number, into: number[]): void {
    for (let slot = this.head[page]!; slot >= 0; slot = this.next[slot]!)
      if (this.hit[slot]) into.push(this.positionOf[slot]!);
  }

  /** Each positional term's section in the chunk's row (its index there), by slot; -1 when it has none. */
  positions(term: number): Int32Array {
    return this.offsets[term]!;
  }
}
