import type { App } from './types.js';

/**
 * CORS for browser tools calling the API: tokens travel in a header (never cookies), so any
 * origin may call, and the headers a client needs (rate limits, Location) are exposed.
 */
export const CORS_ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Prefer, X-Request-Id';
export const CORS_EXPOSE_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, X-Request-Id, Preference-Applied';

/** The CORS headers of an answer to a request that came with this Origin header (any, or none). */
export function corsHeaders(origin: string | undefined): Record<string, string> | undefined {
  return origin
    ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS }
    : undefined;
}

/** Preflight requests, for any path. */
export function registerPreflight(app: App): void {
  app.options('/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Methods', CORS_ALLOW_METHODS)
      .header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
      .header('Access-Control-Max-Age', '600')
      .code(204)
      .send();
  });
}
