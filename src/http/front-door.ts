import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { ReadCache } from '../db/read-cache.js';
import { answerKey } from '../publish/page-answers.js';
import type { Revalidation, SiteResponse } from '../publish/site-server.js';
import { visitorOf } from '../publish/visitor.js';
import { endOfTurn } from './arrivals.js';
import { type ClientAddressing, clientAddressing } from './client-address.js';
import { corsHeaders } from './cors-headers.js';
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
  limits: RateLimits;
  log: FastifyBaseLogger;
}

/**
 * The HTTP server's first listener: answers a published page's revalidation from its kept
 * answer (publish/page-answers.ts) before Fastify builds a request, routes it and runs its hooks,
 * and hands every other request to Fastify untouched. Browsers revalidate every page they show;
 * bare Fastify answering fixed bytes reached 0.84-0.90 of node:http on bench/site B while
 * Quire's routed path, kept answer and all, reached 0.49-0.67, most of the difference being the
 * framework's own work per request.
 *
 * What the routed path gives such an answer, this gives it too, from the same code: the request
 * id (the app's generator), CORS headers (cors.ts), the client address and protocol as Fastify
 * reads them behind proxies (client-address.ts), the site rate limit, the read cache's sync with
 * other processes, the page view, and the access-log line. Anything else, including an address
 * past its limit and any failure here, goes to Fastify, which answers it the whole way.
 */
export class FrontDoor {
  private parts: FrontDoorParts | undefined;
  private readonly addressing: ClientAddressing;
  private readonly publicHost: string;
  /** Revalidations answered here (the routed ones are not counted): an operator's and a test's view. */
  answered = 0;

  constructor(
    config: Pick<Config, 'trustProxy' | 'publicUrl'>,
    private readonly cache: ReadCache,
    private readonly requestId: () => string,
  ) {
    this.addressing = clientAddressing(config.trustProxy);
    this.publicHost = new URL(config.publicUrl).host.toLowerCase();
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
    const ifNoneMatch = request.headers['if-none-match'];
    if (!parts || ifNoneMatch === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      next(request, response);
      return;
    }
    this.answer(parts, request, response, ifNoneMatch).then(
      (answered) => {
        if (!answered) next(request, response);
      },
      (error: unknown) => {
        parts.log.error({ err: error }, 'answering a revalidation before routing failed');
        if (!response.headersSent) next(request, response);
        else response.destroy();
      },
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
    if (LOGS_INFO.has(parts.log.level))
      parts.log.info(
        {
          requestId: id,
          ...completedEntry(request.method ?? 'GET', rawUrl, answer.status, performance.now() - started),
        },
        'request completed',
      );
    return true;
  }
}
