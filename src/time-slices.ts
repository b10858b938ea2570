/** How long work on the server's thread runs before the event loop gets a turn. */
const SLICE_MS = 10;

/**
 * Long work on the server's thread (markdown parsed for hundreds of pages), cut into slices with
 * a turn of the event loop between them: a request arriving meanwhile waits for the end of a
 * slice, not of the work. A search index sync after merges of 50 pages each parsed 90-450 pages
 * at once on the bench's 2,000-page site, 0.6-2.4 s during which the server answered nothing
 * (a change request took 2 s to create). The work takes as long; only its turns are shared.
 *
 * Between slices it gives way (`giveWay`): the requests that arrived meanwhile go on first.
 */
export class TimeSlices {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether this slice is over: the caller should `await next()` before going on. */
  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** The requests that arrived go on, then a new slice. */
  async next(): Promise<void> {
    await giveWay();
    this.started = performance.now();
  }
}

const immediate = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Lets the requests that arrived while the caller worked go on before it. They wait for the end
 * of their turn (`setImmediate`, src/http/arrivals.ts), queued after the caller's own
 * `setImmediate` when the caller queued it before they were read: with one, the caller's next
 * slice ran first, and a request arriving during a search of a large space waited for the rest
 * of one slice and all of the next. The caller waits for a second `setImmediate`, queued behind
 * theirs.
 */
export async function giveWay(): Promise<void> {
  await immediate();
  await immediate();
}
