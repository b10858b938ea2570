import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { VERSION } from '../version.js';
import { AddressPolicy, bareHost } from './address-policy.js';

/*
 * Everything Quire fetches for a user (file URLs, OpenAPI sources, git remotes) goes through
 * this client, so that a URL typed into a document cannot reach the server's own network.
 *
 * Built on node:http/https rather than the global fetch: Node's bundled undici accepts no
 * custom connector without installing undici itself, while http.request takes a `lookup`, which
 * lets us hand the socket exactly the addresses we checked (no second DNS answer, no
 * rebinding) and still keep the host name for the Host header, SNI and certificate checks.
 */

export type OutboundErrorCode =
  | 'scheme'
  | 'blocked'
  | 'dns'
  | 'timeout'
  | 'too-large'
  | 'redirects'
  | 'http'
  | 'network';

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundOptions {
  /**
   * QUIRE_OUTBOUND_ALLOW: host names, addresses and CIDR ranges that may be reached although
   * private, each on every port or (`entry:port`, `[v6]:port`) on one.
   */
  allow: readonly string[];
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
}

export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is; dropped when a redirect turns the request into a GET (303, or 301/302 after a POST). */
  body?: Buffer;
  /** Overall, across redirects, DNS included. */
  timeoutMs?: number;
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface CheckedUrl {
  url: URL;
  addresses: string[];
}

interface Resolved {
  address: string;
  family: 4 | 6;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for one origin must not follow a redirect to another. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const ALLOW_VARIABLE = 'QUIRE_OUTBOUND_ALLOW';

/** A URL as messages show it: no credentials, no query string (either may hold a secret). */
function shown(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

function bytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('scheme', `"${raw}" is not an absolute URL; use an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError(
      'scheme',
      `${url.protocol} URLs cannot be fetched (${shown(url)}); use an http:// or https:// URL`,
    );
  }
  return url;
}

/** Hands the connecting socket the checked addresses instead of asking DNS again. */
function pinnedLookup(addresses: Resolved[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    const first = usable[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no IPv${family} address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** Rejects with the signal's reason when it aborts first; DNS lookups cannot be cancelled. */
function raced<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

interface Hop {
  url: URL;
  addresses: Resolved[];
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  maxBytes: number;
  signal: AbortSignal;
}

/** One request; a redirect answers its status and headers only, its body is never read. */
function send(hop: Hop): Promise<Omit<OutboundResponse, 'url'>> {
  const { url, signal, maxBytes } = hop;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown, value?: Omit<OutboundResponse, 'url'>) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(value!);
      else reject(error);
      request.destroy();
    };
    const fail = (error: unknown) => {
      if (error instanceof OutboundError) return settle(error);
      const code = (error as NodeJS.ErrnoException).code;
      const detail = code ?? (error as Error).message;
      settle(new OutboundError('network', `Cannot fetch ${shown(url)}: ${detail}`));
    };
    const tooLarge = () =>
      settle(
        new OutboundError(
          'too-large',
          `The response from ${shown(url)} is larger than the limit of ${bytes(maxBytes)}`,
        ),
      );
    const onAbort = () => settle(signal.reason);

    let request: http.ClientRequest;
    try {
      request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers: hop.headers,
        auth: url.username
          ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
          : undefined,
        lookup: pinnedLookup(hop.addresses),
        // A fresh connection per request: a pooled socket would outlive the check that allowed it.
        agent: false,
      });
    } catch (error) {
      // Only a malformed request (such as a header value with a line break) throws here.
      reject(
        new OutboundError('http', `Cannot send a request to ${shown(url)}: ${(error as Error).message}`),
      );
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const headers = flatten(response.headers);
      response.on('error', fail);
      response.on('close', () => {
        if (!response.complete) fail(new Error('the connection closed before the response was complete'));
      });
      if (REDIRECTS.has(status) && headers.location !== undefined) {
        return settle(undefined, { status, headers, body: Buffer.alloc(0) });
      }
      if (Number(headers['content-length']) > maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      response.on('end', () => settle(undefined, { status, headers, body: Buffer.concat(chunks, size) }));
    });
    if (signal.aborted) onAbort();
    else request.end(hop.body);
  });
}

/** The guarded outbound HTTP client; see the comment at the top of this file. */
export class OutboundClient {
  private readonly policy: AddressPolicy;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly userAgent: string;

  constructor(options: OutboundOptions) {
    this.policy = new AddressPolicy(options.allow);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.userAgent = options.userAgent ?? `Quire/${VERSION}`;
  }

  /**
   * Checks a URL (scheme and every address its host resolves to) without fetching it, and answers
   * the addresses. Used before handing a URL to a program that connects by itself (git): pin it
   * to these addresses (for git, `-c http.curloptResolve=host:port:address`) or it may resolve
   * the name again and get another answer.
   */
  async check(url: string, options: { timeoutMs?: number } = {}): Promise<CheckedUrl> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const parsed = parseUrl(url);
    const addresses = await this.withDeadline(timeoutMs, parsed, (signal) =>
      this.resolve(parsed, signal, 'fetch'),
    );
    return { url: parsed, addresses: addresses.map((a) => a.address) };
  }

  /** A request through the guard, redirects followed (each hop checked again). Any status is answered. */
  async fetch(url: string, init: FetchInit = {}): Promise<OutboundResponse> {
    const timeoutMs = init.timeoutMs ?? this.timeoutMs;
    const maxBytes = init.maxBytes ?? this.maxBytes;
    let current = parseUrl(url);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
    if (body !== undefined) headers['content-length'] = String(body.length);

    return this.withDeadline(timeoutMs, current, async (signal) => {
      for (let redirects = 0; ; redirects++) {
        const addresses = await this.resolve(current, signal, redirects === 0 ? 'fetch' : 'redirect');
        const answer = await send({ url: current, addresses, method, headers, body, maxBytes, signal });
        const location = REDIRECTS.has(answer.status) ? answer.headers.location : undefined;
        if (location === undefined) return { ...answer, url: current.toString() };
        if (redirects === MAX_REDIRECTS) {
          throw new OutboundError(
            'redirects',
            `${shown(parseUrl(url))} redirected more than ${MAX_REDIRECTS} times; use the final URL instead`,
          );
        }
        const next = this.redirectTarget(current, location);
        if (next.origin !== current.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
        // What browsers do: 303 always, and 301/302 after a POST, repeat the request as a GET.
        if (method !== 'HEAD' && (answer.status === 303 || (answer.status <= 302 && method === 'POST'))) {
          method = 'GET';
          body = undefined;
          delete headers['content-length'];
          delete headers['content-type'];
        }
        current = next;
      }
    });
  }

  private redirectTarget(from: URL, location: string): URL {
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw new OutboundError('http', `${shown(from)} redirected to an invalid URL "${location}"`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new OutboundError(
        'scheme',
        `${shown(from)} redirected to a ${next.protocol} URL; only http and https redirects are followed`,
      );
    }
    return next;
  }

  /** Runs `work` under one overall deadline; the signal tells every step when it has passed. */
  private async withDeadline<T>(timeoutMs: number, url: URL, work: (signal: AbortSignal) => Promise<T>) {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort(
        new OutboundError(
          'timeout',
          `${shown(url)} did not answer within ${timeoutMs} ms; check that the server is reachable and try again`,
        ),
      );
    }, timeoutMs);
    try {
      return await work(controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The addresses `url` may be fetched from; refuses when any of them is off limits. */
  private async resolve(url: URL, signal: AbortSignal, step: 'fetch' | 'redirect'): Promise<Resolved[]> {
    const host = bareHost(url.hostname);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const refused = (reason: string) =>
      new OutboundError(
        'blocked',
        `${step === 'fetch' ? 'Refused to fetch' : 'Refused to follow a redirect to'} ${shown(url)}: ${reason}`,
      );
    const literal = isIP(host);
    if (literal) {
      const reason = this.policy.refusal(host, port);
      if (reason) throw refused(`${host} is ${reason}; add it to ${ALLOW_VARIABLE} to allow it`);
      return [{ address: host, family: literal as 4 | 6 }];
    }

    let answers: Resolved[];
    try {
      answers = (await raced(lookup(host, { all: true }), signal)) as Resolved[];
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
      throw new OutboundError(
        'dns',
        `Cannot resolve ${host} (${code}); check the host name in ${shown(url)}`,
      );
    }
    if (answers.length === 0) {
      throw new OutboundError('dns', `${host} has no address; check the host name in ${shown(url)}`);
    }
    if (this.policy.allowsHost(host, port)) return answers;
    // Every address must pass, not just one: a name answering one public and one private
    // address would otherwise let whichever connects first decide.
    for (const { address } of answers) {
      const reason = this.policy.refusal(address, port);
      if (reason) {
        throw refused(
          `${host} resolves to ${address}, ${reason}; add ${host} or ${address} to ${ALLOW_VARIABLE} to allow it`,
        );
      }
    }
    return answers;
  }
}
