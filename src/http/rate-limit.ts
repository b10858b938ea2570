import type { Clock } from '../clock.js';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows per key (a token, or an address for requests without one). Kept in
 * memory: each server process limits what it serves.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  hit(key: string): RateDecision {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 50_000) this.sweep(now);
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - window.count),
      reset: Math.ceil(window.resetAt / 1000),
      allowed: window.count <= this.perMinute,
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
