import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** The header a script of Quire's own pages sends with a session's CSRF token. */
export const CSRF_HEADER = 'x-quire-csrf';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a cookie-authenticated request may change something. Browsers attach cookies to
 * requests other sites start, so a write must prove it comes from Quire's own origin: the
 * `Origin` header browsers set on every cross-site write, or the session's CSRF token (a form
 * field or header only Quire's pages know). Reads are always allowed: they change nothing and
 * CORS keeps their answers from other sites (no Allow-Credentials is ever sent).
 */
export function csrfAllowed(
  method: string,
  headers: IncomingHttpHeaders,
  publicOrigin: string,
  expectedToken: string,
  formToken?: string,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  if (headers.origin === publicOrigin) return true;
  const header = headers[CSRF_HEADER];
  const given = typeof header === 'string' ? header : formToken;
  return given !== undefined && sameSecret(given, expectedToken);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
