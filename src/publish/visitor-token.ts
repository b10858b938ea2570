import { createHmac, timingSafeEqual } from 'node:crypto';

/** Visitor claims: the payload of a verified visitor token, standard claims included. */
export type VisitorClaims = Record<string, unknown>;

export type TokenCheck = { ok: true; claims: VisitorClaims } | { ok: false; reason: string };

/** Clock skew tolerated on `exp` and `nbf`, in seconds. */
const LEEWAY_S = 30;

function decodeJson(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/**
 * Verifies a visitor-auth JWT signed with the site's key (HS256 only: the algorithm is fixed
 * here, never taken from the token, so `alg: none` or key confusion cannot pass).
 */
export function verifyVisitorToken(token: string, key: string, nowMs: number): TokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 8192) return { ok: false, reason: 'malformed token' };
  const [head, body, signature] = parts as [string, string, string];
  let header: unknown;
  let payload: unknown;
  try {
    header = decodeJson(head);
    payload = decodeJson(body);
  } catch {
    return { ok: false, reason: 'malformed token' };
  }
  if (!header || typeof header !== 'object' || (header as { alg?: unknown }).alg !== 'HS256')
    return { ok: false, reason: 'unsupported algorithm' };
  const expected = createHmac('sha256', key).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'bad signature' };
  if (!payload || typeof payload !== 'object' || Array.isArray(payload))
    return { ok: false, reason: 'malformed claims' };
  const claims = payload as VisitorClaims;
  const now = nowMs / 1000;
  if (typeof claims.exp === 'number' && claims.exp + LEEWAY_S < now) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_S > now)
    return { ok: false, reason: 'not yet valid' };
  return { ok: true, claims };
}

/** Signs claims the way the site's backend would (tests, tooling). */
export function signVisitorToken(claims: VisitorClaims, key: string): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
