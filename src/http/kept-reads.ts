import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { ReadCache } from '../db/read-cache.js';
import { COMPRESS_FROM } from './gzip-reply.js';

/** An API read's answer, kept for the token that asked, while the database is unchanged. */
export interface KeptRead {
  /**
   * The headers the route set, less those made for each request (id, rate limit, CORS), as
   * names and values one after the other (`writeHead` takes them so without building an object).
   */
  head: readonly (string | number)[];
  /** A string, not a buffer: Node sends a string body in one write with the head, a buffer in two. */
  body: string;
  bytes: number;
}

/** Headers written anew for each request, by the request hook or by the front door. */
const PER_REQUEST = /^(?:x-request-id|x-ratelimit-|retry-after|access-control-|content-length$)/;

/** How much the kept answers may hold: past it nothing more is kept until the database changes. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * The answers of the API reads marked to be kept (`hooks`), by request line and token: the
 * front door (front-door.ts) answers the same read with the same token from here, without
 * routing, while the database's generation is the one the answer was read at. Any commit, of
 * this process or another (ReadCache.sync), moves the generation and forgets them all, so a
 * revoked token, a removed membership or a renamed organization is never answered from here;
 * the door still authenticates the token (expiry is a matter of time, not of commits) and counts
 * it against the rate limit.
 *
 * Only a bearer token's GET whose answer is a 200 of JSON under the compression threshold is
 * kept: a larger one would be compressed for some clients and not others, and a browser
 * session's reads go through the CSRF and session checks of the request hook every time.
 */
export class KeptReads {
  /** Host and request line, then token id. */
  private readonly reads = new Map<string, Map<string, KeptRead>>();
  private generation: string | undefined;
  private bytes = 0;
  /** The generation each kept route's request started reading at, once past its hooks. */
  private readonly startedAt = new WeakMap<FastifyRequest, string>();

  constructor(private readonly cache: ReadCache) {}

  /**
   * Route hooks that keep a GET route's answers. The route's answer must depend only on the
   * caller, the host and URL, and the database: not on other headers, nor on the time.
   */
  readonly hooks: { preHandler: preHandlerHookHandler; onSend: onSendHookHandler } = {
    preHandler: (request, _reply, done) => {
      // Read before the handler reads anything: an answer read later is at least as new, so a
      // commit in between can only make the kept answer look older than it is, never newer.
      const generation = this.cache.generation();
      if (generation !== undefined) this.startedAt.set(request, generation);
      done();
    },
    onSend: (request, reply, payload, done) => {
      this.keep(request, reply, payload);
      done(null, payload);
    },
  };

  /** The kept answer of this read for this token, if the database is still as it was read. */
  find(host: string, url: string, tokenId: string): KeptRead | undefined {
    if (!this.current()) return undefined;
    return this.reads.get(`${host} ${url}`)?.get(tokenId);
  }

  /** Whether anything is kept for this read (by any token): the door's check before it authenticates. */
  mayHave(host: string, url: string): boolean {
    return this.reads.has(`${host} ${url}`);
  }

  private keep(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const generation = this.startedAt.get(request);
    const actor = request.actor;
    if (
      generation === undefined ||
      typeof payload !== 'string' ||
      request.method !== 'GET' ||
      reply.statusCode !== 200 ||
      !actor ||
      actor.sessionId !== undefined ||
      request.headers.authorization === undefined
    )
      return;
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string' || !contentType.startsWith('application/json')) return;
    const bytes = Buffer.byteLength(payload);
    if (bytes >= COMPRESS_FROM) return;
    if (!this.current() || generation !== this.generation) return;
    if (this.bytes + bytes > MAX_BYTES) return;
    const head: (string | number)[] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined || PER_REQUEST.test(name)) continue;
      if (Array.isArray(value)) for (const each of value) head.push(name, each);
      else head.push(name, value);
    }
    head.push('content-length', bytes);
    const key = `${request.headers.host ?? ''} ${request.raw.url ?? request.url}`;
    let byToken = this.reads.get(key);
    if (!byToken) {
      byToken = new Map();
      this.reads.set(key, byToken);
    }
    const previous = byToken.get(actor.tokenId);
    this.bytes += bytes - (previous?.bytes ?? 0);
    byToken.set(actor.tokenId, { head, body: payload, bytes });
  }

  /** Whether what is kept is of the database's generation now; forgets it all when not. */
  private current(): boolean {
    const now = this.cache.generation();
    if (now !== this.generation) {
      this.reads.clear();
      this.bytes = 0;
      this.generation = now;
    }
    return now !== undefined;
  }
}
