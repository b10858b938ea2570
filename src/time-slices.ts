/** How long work on the server's thread runs before the event loop gets a turn. */
const SLICE_MS = 10;

/**
 * Long work on the server's thread (markdown parsed for hundreds of pages), cut into slices with
 * a turn of the event loop between them: a request arriving meanwhile waits for the end of a
 * slice, not of the work. A search index sync after merges of 50 pages each parsed 90-450 pages
 * at once on the bench's 2,000-page site, 0.6-2.4 s during which the server answered nothing
 * (a change request took 2 s to create). The work takes as long; only its turns are shared.
 *
 * Between slices it waits for `setImmediate`: the poll phase of the next turn reads what arrived,
 * and those requests go on in that turn, after the next slice (src/http/arrivals.ts).
 */
export class TimeSlices {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether this slice is over: the caller should `await next()` before going on. */
  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** A turn of the event loop, then a new slice. */
  async next(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}
