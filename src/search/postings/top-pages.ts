/** A ranked page, with the positions of its sections where the query matched, in order. */
export interface RankedNumber {
  page: number;
  score: number;
  sections: number[];
}

/** The best `size` pages after the cursor, best first, ties by page number. */
export class TopPages {
  private readonly heap: RankedNumber[] = [];

  constructor(
    private readonly size: number,
    private readonly after: { score: number; page: number } | undefined,
  ) {}

  /** Whether a ranks below b. */
  private static worse(a: { page: number; score: number }, b: { page: number; score: number }): boolean {
    return a.score < b.score || (a.score === b.score && a.page > b.page);
  }

  /** The page as kept, or undefined when it ranks below the kept ones. */
  offer(page: number, score: number): RankedNumber | undefined {
    const { after } = this;
    if (after && !(score < after.score || (score === after.score && page > after.page))) return undefined;
    const heap = this.heap;
    // Most pages of a common word rank below the heap's worst: no object for them.
    if (heap.length === this.size) {
      const worst = heap[0]!;
      if (score < worst.score || (score === worst.score && page > worst.page)) return undefined;
    }
    const item: RankedNumber = { page, score, sections: [] };
    if (heap.length < this.size) {
      heap.push(item);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopPages.worse(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
      return item;
    }
    if (!TopPages.worse(heap[0]!, item)) return undefined;
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
    return item;
  }

  /** The score a page must reach to be kept (ties by page number): the worst kept, once full. */
  floor(): number {
    return this.heap.length < this.size ? Number.NEGATIVE_INFINITY : this.heap[0]!.score;
  }

  sorted(): RankedNumber[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.page - b.page);
  }
}
