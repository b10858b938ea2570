import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GzipParts } from '../http/gzip-parts.js';
import { sendParts } from '../http/gzip-reply.js';
import type { CustomHostSites } from '../http/request-hook.js';
import type { App } from '../http/types.js';
import { SITES_PREFIX } from './addresses.js';
import { answerKey } from './page-answers.js';
import type { SiteRequest, SiteResponse, SiteServer } from './site-server.js';
import { visitorOf } from './visitor.js';

/**
 * Published sites over HTTP: under `/sites/{siteId}/` on the public URL (routes here), and at the
 * root of any custom hostname a site claims (recognised by the Host header before routing, by the
 * request hook through `customHostSites`, which also counts them under the site rate limit).
 */
export function publishedSiteRoutes(app: App, server: SiteServer): void {
  const publicHost = publicHostOf(app.quire.deps.config.publicUrl);

  const handler = async (
    request: FastifyRequest<{ Params: { siteId: string; '*'?: string } }>,
    reply: FastifyReply,
  ) => {
    const { siteId } = request.params;
    const rest = request.params['*'] ?? '';
    // `/sites/{id}` without the slash: relative links need the directory form.
    if (rest === '' && !new URL(request.url, 'http://x').pathname.endsWith('/'))
      return reply.redirect(`${SITES_PREFIX}/${encodeURIComponent(siteId)}/`, 301);
    const prefix = `${SITES_PREFIX}/${siteId}/`.length;
    return send(
      request,
      reply,
      app.quire.gzip,
      await server.handle(
        requestOf(request, publicHost, { id: siteId }, (url) => url.pathname.slice(prefix)),
      ),
    );
  };
  const options = { config: { public: true }, schema: { hide: true } };
  app.get(`${SITES_PREFIX}/:siteId`, options, handler);
  app.get(`${SITES_PREFIX}/:siteId/*`, options, handler);
}

/** Sites at the root of their custom hostnames: GET and HEAD on a Host that a site claims. */
export function customHostSites(publicUrl: string, server: SiteServer, gzip: GzipParts): CustomHostSites {
  const publicHost = publicHostOf(publicUrl);
  // Host headers that never name a site, as sent: the same few arrive on nearly every request.
  const neverSites = new Set<string>();
  return {
    hostOf(request) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
      const sent = request.headers.host ?? '';
      if (neverSites.has(sent)) return undefined;
      const host = sent.toLowerCase();
      const hostname = host.replace(/:\d+$/, '');
      // The API's own host, addresses and localhost are never custom site hostnames.
      if (host === publicHost || hostname === 'localhost' || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) {
        if (neverSites.size < 1_000) neverSites.add(sent);
        return undefined;
      }
      return server.hasHostname(hostname).then((has) => (has ? hostname : undefined));
    },
    async serve(request, reply, hostname) {
      const path = new URL(request.url, 'http://x').pathname.replace(/^\/+/, '');
      return send(
        request,
        reply,
        gzip,
        await server.handle(requestOf(request, publicHost, { hostname }, path)),
      );
    },
  };
}

function publicHostOf(publicUrl: string): string {
  return new URL(publicUrl).host.toLowerCase();
}

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  gzip: GzipParts,
  response: SiteResponse,
): FastifyReply | Promise<FastifyReply> {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  // A 304 has no content: sent without a payload, Fastify adds no Content-Type and no
  // Content-Length (a 304's Content-Length would have to be the page's; RFC 9110, 8.6).
  if (response.status === 304) return reply.send();
  // Answers kept as buffers (rendered pages, tree fragments: ~0.5 MB for 2,000 pages) are
  // compressed once, while they are kept; answers made for one request go as they are.
  const { body } = response;
  if (response.status === 200 && Buffer.isBuffer(body))
    return sendParts(request, reply, { parts: [body], length: body.length }, gzip);
  return reply.send(body);
}

/** `path` picks the site path out of the URL requested (parsed once per request). */
function requestOf(
  request: FastifyRequest,
  publicHost: string,
  site: SiteRequest['site'],
  path: string | ((url: URL) => string),
): SiteRequest {
  const host = request.headers.host ?? publicHost;
  const url = new URL(request.url, `${request.protocol}://${host}`);
  return {
    site,
    path: typeof path === 'string' ? path : path(url),
    query: url.searchParams,
    headers: { cookie: request.headers.cookie, ifNoneMatch: request.headers['if-none-match'] },
    url: url.toString(),
    visitor: visitorOf(request.headers, request.ip),
    key: answerKey(request.protocol, host, request.url),
  };
}
