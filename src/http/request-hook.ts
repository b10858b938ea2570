import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { csrfAllowed } from '../auth/csrf.js';
import { installationRefusal } from '../auth/installation-access.js';
import { readSessionCookie } from '../auth/session-cookie.js';
import { digestToken, parseBearer } from '../auth/tokens.js';
import { ApiError, forbidden, unauthorized } from '../errors.js';
import { endOfTurn } from './arrivals.js';
import { corsHeaders } from './cors-headers.js';
import { type RateLimits, rateClassOf } from './rate-limit.js';
import type { App } from './types.js';

/** Published sites served at the root of their own hostname (see publish/routes.ts). */
export interface CustomHostSites {
  /**
   * The custom hostname of a site this request is for, or undefined when it is not for one;
   * known at once for most requests (the API's own host, addresses), without a promise.
   */
  hostOf(request: FastifyRequest): string | undefined | Promise<string | undefined>;
  serve(request: FastifyRequest, reply: FastifyReply, hostname: string): Promise<FastifyReply>;
}

/**
 * The one hook every request passes through first (one hook, because each hook is a cost on
 * every request): request id and CORS headers; pages of sites on custom hostnames; rate limiting
 * (published sites and their files per client address under the site limit, the health check
 * not at all, the API per valid token, or per address without one); then bearer authentication
 * for every `/v1` route not marked `public`.
 *
 * A token is checked before it is counted, so that unknown, revoked or malformed tokens count
 * against the address they come from: a new made-up token value is never a fresh bucket.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function registerRequestHook(app: App, limits: RateLimits, sites: CustomHostSites): void {
  const { services, deps } = app.quire;
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  app.decorateRequest('actor', null as never);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // Before anything is read: what this request finds in the read cache is then no older than
    // the database was when it arrived, whichever process made the last change.
    // Without a reading to wait for (SQLite), requests of one turn still go on together.
    await (deps.database.cache.sync() ?? endOfTurn());
    reply.header('X-Request-Id', request.id);
    const cors = corsHeaders(request.headers.origin);
    if (cors) reply.headers(cors);

    // `request.ip` is the client address: the socket's, or X-Forwarded-For's as far as
    // QUIRE_TRUST_PROXY allows (Fastify's trustProxy).
    const host = sites.hostOf(request);
    const siteHost = typeof host === 'object' ? await host : host;
    if (siteHost !== undefined) {
      limits.countSite(request.ip, reply);
      return sites.serve(request, reply, siteHost);
    }

    const { url: route, config } = request.routeOptions;
    const rateClass = rateClassOf(route);
    if (rateClass === 'site') limits.countSite(request.ip, reply);
    const needsToken = route?.startsWith('/v1') === true && !config.public;
    const header = request.headers.authorization;
    // Public API routes (security: [] in the contract) show more to a caller who says who they
    // are: a token, or a session cookie on a read.
    const cookieValue = readSessionCookie(request.headers.cookie);
    const optional =
      !needsToken &&
      route?.startsWith('/v1') === true &&
      (header !== undefined || (cookieValue !== undefined && SAFE_METHODS.has(request.method)));
    if (rateClass !== 'api' || (!needsToken && !optional && !limits.api.enabled)) return;

    const token = parseBearer(header);
    let actor: Actor | undefined;
    let refused: ApiError | undefined;
    if (token) {
      try {
        actor = await services.tokens.authenticate(digestToken(token));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        refused = error;
      }
    } else if (!header && (needsToken || optional)) {
      const cookie = cookieValue;
      if (cookie) {
        actor = await services.sessions.resolve(cookie);
        if (!actor) {
          refused = unauthorized('Your browser session has ended: sign in again at /login');
        } else if (
          !csrfAllowed(request.method, request.headers, publicOrigin, services.sessions.csrfToken(cookie))
        ) {
          // Counted against the session like any of its requests, then refused below.
          refused = forbidden(
            'A write with the session cookie needs an Origin header of this server or the X-Quire-CSRF header',
          );
        }
      }
    }
    limits.countApi(actor ? `t:${actor.tokenId}` : `a:${request.ip}`, reply);

    if (optional) {
      // A token sent but not valid is refused rather than read as anonymous: a mistyped token
      // must not pass for a quietly shorter answer. An ended session reads as no one.
      if (refused && header) throw refused;
      if (header && !actor) {
        throw unauthorized('Malformed Authorization header: expected "Authorization: Bearer <token>"');
      }
      if (actor) request.actor = actor;
      return;
    }
    // Only the API needs a token; unknown routes fall through to the 404 handler.
    if (!needsToken) return;
    if (refused) throw refused;
    if (!actor) {
      throw unauthorized(
        header
          ? 'Malformed Authorization header: expected "Authorization: Bearer <token>"'
          : 'Missing API token: send "Authorization: Bearer <token>"',
      );
    }
    if (actor.scopes && route) {
      const refusal = installationRefusal(request.method, route, actor.scopes);
      if (refusal) throw forbidden(refusal);
    }
    request.actor = actor;
  });
}
