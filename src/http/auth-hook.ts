import type { FastifyReply, FastifyRequest } from 'fastify';
import { digestToken, parseBearer } from '../auth/tokens.js';
import { tooManyRequests, unauthorized } from '../errors.js';
import type { RateLimiter } from './rate-limit.js';
import type { App } from './types.js';

/**
 * Runs first on every request: rate limiting (per token, or per address without one), then bearer
 * authentication for every `/v1` route not marked `public`.
 */
export function registerAuth(app: App, limiter: RateLimiter): void {
  const { services } = app.quire;
  app.decorateRequest('actor', null as never);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = parseBearer(header);

    if (limiter.enabled) {
      const key = token ? `t:${digestToken(token).lookup}` : `ip:${request.ip}`;
      const decision = limiter.hit(key);
      reply.header('X-RateLimit-Limit', decision.limit);
      reply.header('X-RateLimit-Remaining', decision.remaining);
      reply.header('X-RateLimit-Reset', decision.reset);
      if (!decision.allowed) {
        reply.header('Retry-After', Math.max(1, decision.reset - Math.floor(Date.now() / 1000)));
        throw tooManyRequests('API rate limit exceeded; wait until X-RateLimit-Reset before retrying');
      }
    }

    // Only the API needs a token; unknown routes fall through to the 404 handler.
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/v1') || request.routeOptions.config.public) return;
    if (!token) {
      throw unauthorized(
        header
          ? 'Malformed Authorization header: expected "Authorization: Bearer <token>"'
          : 'Missing API token: send "Authorization: Bearer <token>"',
      );
    }
    request.actor = await services.tokens.authenticate(token);
  });
}
