import { createHmac } from 'node:crypto';
import { errors, jwtVerify } from 'jose';

/** Visitor claims: the payload of a verified visitor token, standard claims included. */
export type VisitorClaims = Record<string, unknown>;

export type TokenCheck = { ok: true; claims: VisitorClaims } | { ok: false; reason: string };

/** Clock skew tolerated on `exp` and `nbf`, in seconds. */
const LEEWAY_S = 30;
/** Longer tokens are refused before any parsing. */
const MAX_TOKEN_LENGTH = 8192;

const encoder = new TextEncoder();

/**
 * Verifies a visitor-auth JWT signed with the site's key, with `jose`. HS256 only: the algorithm
 * is fixed here, never taken from the token, so `alg: none` or key confusion cannot pass.
 * The signature is checked before any claim; `exp` and `nbf` with 30 s of leeway.
 */
export async function verifyVisitorToken(token: string, key: string, nowMs: number): Promise<TokenCheck> {
  if (token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed token' };
  try {
    const { payload } = await jwtVerify(token, encoder.encode(key), {
      algorithms: ['HS256'],
      clockTolerance: LEEWAY_S,
      currentDate: new Date(nowMs),
    });
    return { ok: true, claims: payload as VisitorClaims };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

/** A JOSE error as the short reason shown to the visitor; anything else is not ours to hide. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return 'unsupported algorithm';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad signature';
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed)
    return error.claim === 'nbf' && error.reason === 'check_failed' ? 'not yet valid' : 'malformed claims';
  if (error instanceof errors.JWTInvalid) return 'malformed claims';
  if (error instanceof errors.JOSEError) return 'malformed token';
  throw error;
}

/**
 * Signs claims the way a site's backend would (HS256), for tests and tooling. Synchronous, so it
 * is node:crypto rather than jose; what it signs is checked by `verifyVisitorToken` above.
 */
export function signVisitorToken(claims: VisitorClaims, key: string): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}
