import type { Clock } from './clock.js';

/**
 * Says whether something keyed (a token's "last used", a member's "last seen") is due for
 * another write: at most once per interval, so a busy client does not turn every read into a
 * write.
 */
export class Throttle {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly capacity = 100_000,
  ) {}

  /** The time to record when due, undefined when written recently. */
  due(key: string): Date | undefined {
    const now = this.clock.now();
    const previous = this.last.get(key);
    if (previous !== undefined && now.getTime() - previous < this.intervalMs) return undefined;
    if (this.last.size >= this.capacity) this.last.clear();
    this.last.set(key, now.getTime());
    return now;
  }
}
