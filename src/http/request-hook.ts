import type { FastifyReply, FastifyRequest } from 'fastify';
import { digestToken, parseBearer } from '../auth/tokens.js';
import { tooManyRequests, unauthorized } from '../errors.js';
import { CORS_EXPOSE_HEADERS } from './cors.js';
import type { RateLimiter } from './rate-limit.js';
import type { App } from './types.js';

/**
 * The one hook every request passes through first (one hook, because each hook is a cost on
 * every request): request id and CORS headers, rate limiting (per token, or per address without
 * one), then bearer authentication for every `/v1` route not marked `public`.
 */
export function registerRequestHook(app: App, limiter: RateLimiter): void {
  const { services } = app.quire;
  app.decorateRequest('actor', null as never);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('X-Request-Id', request.id);
    if (request.headers.origin) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
    }

    const header = request.headers.authorization;
    const token = parseBearer(header);
    const digest = token ? digestToken(token) : undefined;

    if (limiter.enabled) {
      const decision = limiter.hit(digest ? `t:${digest.lookup}` : `ip:${request.ip}`);
      reply.header('X-RateLimit-Limit', decision.limit);
      reply.header('X-RateLimit-Remaining', decision.remaining);
      reply.header('X-RateLimit-Reset', decision.reset);
      if (!decision.allowed) {
        reply.header('Retry-After', Math.max(1, decision.reset - Math.floor(Date.now() / 1000)));
        throw tooManyRequests('API rate limit exceeded; wait until X-RateLimit-Reset before retrying');
      }
    }

    // Only the API needs a token; unknown routes fall through to the 404 handler.
    const { url: route, config } = request.routeOptions;
    if (route === undefined || !route.startsWith('/v1') || config.public) return;
    if (!digest) {
      throw unauthorized(
        header
          ? 'Malformed Authorization header: expected "Authorization: Bearer <token>"'
          : 'Missing API token: send "Authorization: Bearer <token>"',
      );
    }
    request.actor = await services.tokens.authenticate(digest);
  });
}
