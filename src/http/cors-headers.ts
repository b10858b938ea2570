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

/** `corsHeaders` as names and values one after the other, added to a head being written. */
export function pushCorsHeaders(origin: string | undefined, head: (string | number)[]): void {
  if (origin)
    head.push('Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
}
