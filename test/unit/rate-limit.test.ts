import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RateLimiter } from '../../src/http/rate-limit.js';

describe('rate limiter', () => {
  it('allows the limit per window and per key, then resets with the window', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const limiter = new RateLimiter(3, clock);
    expect([1, 2, 3, 4].map(() => limiter.hit('a').allowed)).toEqual([true, true, true, false]);
    expect(limiter.hit('b')).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
    const decision = limiter.hit('a');
    expect(decision.reset).toBe(Date.parse('2026-01-01T00:01:00.000Z') / 1000);
    clock.advance(60_000);
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('is off at 0', () => {
    expect(new RateLimiter(0, new ManualClock()).enabled).toBe(false);
  });
});
