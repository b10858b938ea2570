import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { RateLimiter, rateClassOf, trustProxyOption } from '../../src/http/rate-limit.js';

describe('rate limiter', () => {
  it('allows the limit per window and per key, then resets with the window', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const limiter = new RateLimiter(3, clock);
    expect([1, 2, 3, 4].map(() => limiter.hit('a').allowed)).toEqual([true, true, true, false]);
    expect(limiter.hit('b')).toMatchObject({ allowed: true, remaining: 2, limit: 3 });
    const decision = limiter.hit('a');
    expect(decision.reset).toBe(Date.parse('2026-01-01T00:01:00.000Z') / 1000);
    expect(decision.retryAfter).toBe(60);
    clock.advance(45_500);
    expect(limiter.hit('a').retryAfter).toBe(15);
    clock.advance(14_500);
    expect(limiter.hit('a')).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('is off at 0', () => {
    expect(new RateLimiter(0, new ManualClock()).enabled).toBe(false);
  });

  it('never remembers more keys than its cap, however many are seen within a minute', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const limiter = new RateLimiter(5, clock, 1_000);
    let largest = 0;
    for (let i = 0; i < 50_000; i++) {
      limiter.hit(`a:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      largest = Math.max(largest, limiter.size);
      if (i % 997 === 0) clock.advance(7);
    }
    expect(largest).toBe(1_000);
    // The newest keys are the ones kept: a key seen just now still has its count.
    const recent = 'a:10.0.195.79'; // the last one of the loop
    expect(limiter.hit(recent).remaining).toBe(3);
  });

  it('forgets windows that have ended as new ones start', () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const limiter = new RateLimiter(5, clock);
    for (let i = 0; i < 500; i++) limiter.hit(`key-${i}`);
    expect(limiter.size).toBe(500);
    clock.advance(30_000);
    for (let i = 0; i < 10; i++) limiter.hit(`later-${i}`);
    expect(limiter.size).toBe(510);
    clock.advance(30_000);
    limiter.hit('next');
    // The first 500 windows ended; the 10 later ones have not.
    expect(limiter.size).toBe(11);
  });
});

describe('which limit a request counts against', () => {
  it('puts published sites and file downloads under the site limit, the health check under none', () => {
    expect(rateClassOf('/sites/:siteId')).toBe('site');
    expect(rateClassOf('/sites/:siteId/*')).toBe('site');
    expect(rateClassOf('/files/:hash/:name')).toBe('site');
    expect(rateClassOf('/healthz')).toBe('none');
    expect(rateClassOf('/v1/user')).toBe('api');
    expect(rateClassOf('/openapi.json')).toBe('api');
    expect(rateClassOf(undefined)).toBe('api');
  });
});

describe('QUIRE_TRUST_PROXY as Fastify trustProxy', () => {
  it('trusts exactly the given number of hops, and nothing when off', () => {
    expect(trustProxyOption(false)).toBe(false);
    expect(trustProxyOption(0)).toBe(false);
    expect(trustProxyOption(['10.0.0.1'])).toEqual(['10.0.0.1']);
    const one = trustProxyOption(1) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => one('192.0.2.1', hop))).toEqual([true, false, false]);
    const two = trustProxyOption(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => two('192.0.2.1', hop))).toEqual([true, true, false]);
  });
});
