import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { digestToken, parseBearer, type TokenDigest } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { ReadCache } from '../db/read-cache.js';
import { answerKey } from '../publish/page-answers.js';
import type { Revalidation, SiteResponse } from '../publish/site-server.js';
import { visitorOf } from '../publish/visitor.js';
import { endOfTurn } from './arrivals.js';
import { type ClientAddressing, clientAddressing } from './client-address.js';
import { corsHeaders, pushCorsHeaders } from './cors-headers.js';
import { KeptReads } from './kept-reads.js';
import type { RateLimits } from './rate-limit.js';
import { completedEntry } from './request-log.js';

/** The levels at which the access log is written (RequestLog logs at info). */
const LOGS_INFO = new Set(['trace', 'debug', 'info']);

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** SiteServer.revalidate: the 304 of a kept page answer, or undefined. */
export type Revalidate = (request: Revalidation, admit: () => boolean) => Promise<SiteResponse | undefined>;

/** What the door needs once the app is built. */
export interface FrontDoorParts {
  revalidate: Revalidate;
  /** TokenService.authenticate: the actor behind a token, or a 401 thrown. */
  authenticate: (digest: TokenDigest) => Promise<Actor>;
  limits: RateLimits;
  log: FastifyBaseLogger;
}

/**
 * The HTTP server's first listener: answers a published page's revalidation from its kept
 * answer (publish/page-answers.ts), and an API read from its kept answer (kept-reads.ts), before
 * Fastify builds a request, routes it and runs its hooks, and hands every other request to
 * Fastify untouched. Browsers revalidate every page they show; bare Fastify answering fixed bytes
 * reached 0.84-0.90 of node:http on bench/site B while Quire's routed path, kept answer and all,
 * reached 0.49-0.67, most of the difference being the framework's own work per request.
 *
 * What the routed path gives such an answer, this gives it too, from the same code: the request
 * id (the app's generator), CORS headers (cors.ts), the client address and protocol as Fastify
 * reads them behind proxies (client-address.ts), the rate limits, the token's authentication,
 * the read cache's sync with other processes, the page view, and the access-log line. Anything
 * else, including a caller past its limit, a token refused and any failure here, goes to
 * Fastify, which answers it the whole way.
 */
export class FrontDoor {
  private parts: FrontDoorParts | undefined;
  private readonly addressing: ClientAddressing;
  private readonly publicHost: string;
  /** Revalidations answered here (the routed ones are not counted): an operator's and a test's view. */
  answered = 0;
  /** API reads answered here. */
  answeredReads = 0;
  /** The API reads' answers kept for this door; routes opt in with `kept.hooks`. */
  readonly kept: KeptReads;

  constructor(
    config: Pick<Config, 'trustProxy' | 'publicUrl'>,
    private readonly cache: ReadCache,
    private readonly requestId: () => string,
  ) {
    this.addressing = clientAddressing(config.trustProxy);
    this.publicHost = new URL(config.publicUrl).host.toLowerCase();
    this.kept = new KeptReads(cache);
  }

  /** Starts answering: the parts exist only once the app is built around the server. */
  open(parts: FrontDoorParts): void {
    this.parts = parts;
  }

  /** Stops answering (the app is closing: Fastify answers what still comes, with its 503). */
  close(): void {
    this.parts = undefined;
  }

  /**
   * Fastify's `serverFactory`: the plain HTTP server Fastify would make (the same timeouts),
   * with this door in front of Fastify's handler.
   */
  readonly serverFactory = (
    handler: Handler,
    options: {
      http?: ServerOptions;
      keepAliveTimeout?: number;
      requestTimeout?: number;
      connectionTimeout?: number;
      maxRequestsPerSocket?: number;
    },
  ): Server => {
    const server = createServer(options.http ?? {}, (request, response) =>
      this.arrive(request, response, handler),
    );
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if (options.maxRequestsPerSocket && options.maxRequestsPerSocket > 0)
      server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };

  private arrive(request: IncomingMessage, response: ServerResponse, next: Handler): void {
    const parts = this.parts;
    const { method, headers } = request;
    if (!parts || (method !== 'GET' && method !== 'HEAD')) {
      next(request, response);
      return;
    }
    let answering: Promise<boolean>;
    const authorization = headers.authorization;
    const ifNoneMatch = headers['if-none-match'];
    if (
      method === 'GET' &&
      authorization !== undefined &&
      this.kept.mayHave(headers.host ?? '', request.url ?? '/')
    )
      answering = this.answerRead(parts, request, response, authorization);
    else if (ifNoneMatch !== undefined) answering = this.answer(parts, request, response, ifNoneMatch);
    else {
      next(request, response);
      return;
    }
    answering.then(
      (answered) => {
        if (!answered) next(request, response);
      },
      (error: unknown) => {
        parts.log.error({ err: error }, 'answering a request before routing failed');
        if (!response.headersSent) next(request, response);
        else response.destroy();
      },
    );
  }

  /** An API read answered from its kept answer (kept-reads.ts), as the request hook would let it. */
  private async answerRead(
    parts: FrontDoorParts,
    request: IncomingMessage,
    response: ServerResponse,
    authorization: string,
  ): Promise<boolean> {
    const started = performance.now();
    await (this.cache.sync() ?? endOfTurn());
    const token = parseBearer(authorization);
    if (!token) return false;
    let actor: Actor;
    try {
      actor = await parts.authenticate(digestToken(token));
    } catch {
      // Refused (or the database failed): the routed path says so in its own words.
      return false;
    }
    const rawUrl = request.url ?? '/';
    const read = this.kept.find(request.headers.host ?? '', rawUrl, actor.tokenId);
    if (!read) return false;
    const id = this.requestId();
    const head: (string | number)[] = ['X-Request-Id', id];
    if (!parts.limits.admitsApi(`t:${actor.tokenId}`, head)) return false;
    pushCorsHeaders(request.headers.origin, head);
    for (const each of read.head) head.push(each);
    response.writeHead(200, head);
    response.end(read.body);
    this.answeredReads++;
    this.logAnswered(parts, id, request, rawUrl, 200, started);
    return true;
  }

  private logAnswered(
    parts: FrontDoorParts,
    id: string,
    request: IncomingMessage,
    rawUrl: string,
    status: number,
    started: number,
  ): void {
    if (LOGS_INFO.has(parts.log.level))
      parts.log.info(
        {
          requestId: id,
          ...completedEntry(request.method ?? 'GET', rawUrl, status, performance.now() - started),
        },
        'request completed',
      );
  }

  private async answer(
    parts: FrontDoorParts,
    request: IncomingMessage,
    response: ServerResponse,
    ifNoneMatch: string,
  ): Promise<boolean> {
    const started = performance.now();
    // As the request hook does first: nothing older than the database when the request came.
    await (this.cache.sync() ?? endOfTurn());
    const { headers } = request;
    const ip = this.addressing.ip(request);
    const rawUrl = request.url ?? '/';
    const answer = await parts.revalidate(
      {
        key: answerKey(this.addressing.protocol(request), headers.host ?? this.publicHost, rawUrl),
        headers: { cookie: headers.cookie, ifNoneMatch },
        visitor: visitorOf(headers, ip),
      },
      () => parts.limits.admitsSite(ip),
    );
    if (!answer) return false;
    const id = this.requestId();
    response.writeHead(answer.status, {
      'X-Request-Id': id,
      ...corsHeaders(headers.origin),
      ...answer.headers,
    });
    response.end();
    this.answered++;
    this.logAnswered(parts, id, request, rawUrl, answer.status, started);
    return true;
  }
}
