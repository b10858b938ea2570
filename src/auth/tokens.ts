import { hash as oneShotHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of the tokens Quire issues, so leaked tokens are easy to recognise in scans. */
export const TOKEN_PREFIX = 'quire_';

/** A new API token carrying 256 random bits. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export interface TokenDigest {
  /** Short prefix of the hash, indexed to find the row. */
  lookup: string;
  /** Full SHA-256, the only form of the token that is stored. */
  hash: string;
}

/**
 * Tokens are long random strings, so a plain SHA-256 is enough to store them safely (no password
 * stretching needed); the index uses a prefix of it so a lookup never compares the full secret.
 */
export function digestToken(token: string): TokenDigest {
  // The one-shot form: a third of createHash's cost, and this runs on every API request.
  const hash = oneShotHash('sha256', token, 'hex');
  return { lookup: hash.slice(0, 16), hash };
}

export function hashesMatch(expectedHex: string, actualHex: string): boolean {
  const a = Buffer.from(expectedHex, 'hex');
  const b = Buffer.from(actualHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, or null when malformed. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i.exec(header);
  return match ? match[1]! : null;
}
