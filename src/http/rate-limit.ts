import type { FastifyReply } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { tooManyRequests } from '../errors.js';
import { SITES_PREFIX } from '../publish/addresses.js';

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window resets. */
  reset: number;
  /** Whole seconds until then (at least 1), for `Retry-After`. */
  retryAfter: number;
  allowed: boolean;
}

const WINDOW_MS = 60_000;
/** Keys a limiter remembers at most (about 100 bytes each); past it the oldest window is dropped. */
export const MAX_RATE_KEYS = 100_000;

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed one-minute windows per key (a token, or a client address). Kept in memory: each server
 * process limits what it serves. A key's window is (re)inserted when it starts, so the map is in
 * the order windows end: expired windows are dropped from its head as new ones start, and the
 * number of keys never passes `maxKeys` (the window nearest its end is dropped first), however
 * many addresses or tokens are seen within a minute.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
    private readonly maxKeys = MAX_RATE_KEYS,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  /** Keys remembered now. */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string): RateDecision {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(key);
      this.expire(now);
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) {
        const oldest = this.windows.keys().next();
        if (!oldest.done) this.windows.delete(oldest.value);
      }
    }
    window.count++;
    return {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - window.count),
      reset: Math.ceil(window.resetAt / 1000),
      retryAfter: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      allowed: window.count <= this.perMinute,
    };
  }

  /** Drops the windows that have ended, from the head of the map (each one once). */
  private expire(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetAt > now) break;
      this.windows.delete(key);
    }
  }
}

/**
 * Which limit a request counts against: `api` (QUIRE_RATE_LIMIT, per token or address), `site`
 * (QUIRE_SITE_RATE_LIMIT, per address: published pages, their assets and file downloads) or
 * `none` (the health check). Requests on a site's custom hostname are `site` too; the request
 * hook recognises them by their Host header.
 */
export type RateClass = 'api' | 'site' | 'none';

/** The routes outside the API, by route pattern; every other route (and unknown ones) is `api`. */
const ROUTE_CLASSES = new Map<string, RateClass>([
  ['/healthz', 'none'],
  ['/files/:hash/:name', 'site'],
  // A public spec is fetched by "try it" consoles on published pages, like the pages' files.
  ['/openapi/o/:organizationId/:specSlug', 'site'],
  [`${SITES_PREFIX}/:siteId`, 'site'],
  [`${SITES_PREFIX}/:siteId/*`, 'site'],
]);

export function rateClassOf(route: string | undefined): RateClass {
  return (route !== undefined && ROUTE_CLASSES.get(route)) || 'api';
}

/**
 * QUIRE_TRUST_PROXY as Fastify's `trustProxy`, which decides `request.ip`. A number of hops
 * becomes a function: Fastify (5.12) trusts no one for a bare number, and `true` would trust every
 * X-Forwarded-For entry, the left-most of which the client writes itself. With `hops` proxies in
 * front, the socket's address and the `hops - 1` right-most entries are theirs; the client is the
 * entry before them.
 */
export function trustProxyOption(
  setting: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  if (setting === 0) return false;
  return (_address, hop) => hop < setting;
}

/** The API limit and the published-site limit of one server, each with its own buckets. */
export class RateLimits {
  readonly api: RateLimiter;
  readonly site: RateLimiter;

  constructor(config: Pick<Config, 'rateLimitPerMinute' | 'siteRateLimitPerMinute'>, clock: Clock) {
    this.api = new RateLimiter(config.rateLimitPerMinute, clock);
    this.site = new RateLimiter(config.siteRateLimitPerMinute, clock);
  }

  /** Counts an API request; `X-RateLimit-*` on every answer, 429 past the limit. */
  countApi(key: string, reply: FastifyReply): void {
    if (!this.api.enabled) return;
    const decision = this.api.hit(key);
    report(reply, decision);
    if (!decision.allowed) {
      throw tooManyRequests('API rate limit exceeded; wait until X-RateLimit-Reset before retrying');
    }
  }

  /**
   * Counts an API request answered before routing (front-door.ts) and adds its `X-RateLimit-*`
   * headers to the head being written (none when limits are off); false past the limit, when it
   * is not answered there and the request hook counts it once more and refuses it (`countApi`).
   */
  admitsApi(key: string, head: (string | number)[]): boolean {
    if (!this.api.enabled) return true;
    const decision = this.api.hit(key);
    if (!decision.allowed) return false;
    head.push(
      'X-RateLimit-Limit',
      decision.limit,
      'X-RateLimit-Remaining',
      decision.remaining,
      'X-RateLimit-Reset',
      decision.reset,
    );
    return true;
  }

  /**
   * Counts a published-site request answered before routing (front-door.ts), unless the address
   * is past the limit: then it is not answered there, and the request hook counts it once more
   * and refuses it (`countSite`); an address past its limit is refused either way.
   */
  admitsSite(address: string): boolean {
    return !this.site.enabled || this.site.hit(address).allowed;
  }

  /**
   * Counts a published-site request by client address. Pages are cacheable, so the counters are
   * only reported on the 429.
   */
  countSite(address: string, reply: FastifyReply): void {
    if (!this.site.enabled) return;
    const decision = this.site.hit(address);
    if (decision.allowed) return;
    report(reply, decision);
    throw tooManyRequests(
      `Site rate limit exceeded for your address; retry in ${decision.retryAfter} seconds (Retry-After)`,
    );
  }
}

function report(reply: FastifyReply, decision: RateDecision): void {
  reply.header('X-RateLimit-Limit', decision.limit);
  reply.header('X-RateLimit-Remaining', decision.remaining);
  reply.header('X-RateLimit-Reset', decision.reset);
  if (!decision.allowed) reply.header('Retry-After', decision.retryAfter);
}
