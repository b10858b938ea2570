import { errors, jwtVerify, SignJWT } from 'jose';

/**
 * What a print URL grants: reading one change request's (or one space's) pages, as printed,
 * until it expires. Minted for a caller who could read them then; it needs no credential of its
 * own (it is the credential), so it lives an hour.
 */
export interface PrintGrant {
  kind: 'change-request' | 'space';
  spaceId: string;
  changeRequestId?: string | undefined;
  page?: string | undefined;
  only: boolean;
  /** The user it was minted for. */
  userId: string;
}

export type GrantCheck = { ok: true; grant: PrintGrant } | { ok: false; expired: boolean };

export const PRINT_URL_LIFETIME_S = 60 * 60;
/** Longer tokens are refused before any parsing (the router's limit on a path parameter is 512). */
const MAX_TOKEN_LENGTH = 512;
const AUDIENCE = 'quire:print';

/** HS256 with a key derived from the server's secrets key, so every process shares it. */
export async function signPrintGrant(grant: PrintGrant, key: Uint8Array, now: Date): Promise<string> {
  const seconds = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    k: grant.kind === 'change-request' ? 'cr' : 'space',
    s: grant.spaceId,
    ...(grant.changeRequestId ? { c: grant.changeRequestId } : {}),
    ...(grant.page ? { p: grant.page } : {}),
    ...(grant.only ? { o: 1 } : {}),
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(grant.userId)
    .setAudience(AUDIENCE)
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + PRINT_URL_LIFETIME_S)
    .sign(key);
}

/** The algorithm is fixed here, never taken from the token; the signature is checked first. */
export async function verifyPrintGrant(token: string, key: Uint8Array, now: Date): Promise<GrantCheck> {
  if (token.length > MAX_TOKEN_LENGTH || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token))
    return { ok: false, expired: false };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    const kind = payload.k === 'cr' ? 'change-request' : payload.k === 'space' ? 'space' : undefined;
    if (
      !kind ||
      typeof payload.s !== 'string' ||
      (kind === 'change-request' && typeof payload.c !== 'string')
    )
      return { ok: false, expired: false };
    return {
      ok: true,
      grant: {
        kind,
        spaceId: payload.s,
        changeRequestId: typeof payload.c === 'string' ? payload.c : undefined,
        page: typeof payload.p === 'string' ? payload.p : undefined,
        only: payload.o === 1,
        userId: payload.sub as string,
      },
    };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return { ok: false, expired: true };
    if (error instanceof errors.JOSEError) return { ok: false, expired: false };
    throw error;
  }
}
