import { hash as oneShotHash, randomBytes } from 'node:crypto';

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

/**
 * Compares two hex digests in time that depends only on their length. Character by character
 * rather than through `timingSafeEqual`, which needed both decoded into new buffers on every API
 * request (about 1.5% of the server's time in bench/api, perf).
 */
export function hashesMatch(expectedHex: string, actualHex: string): boolean {
  if (expectedHex.length !== actualHex.length) return false;
  let difference = 0;
  for (let i = 0; i < expectedHex.length; i++)
    difference |= expectedHex.charCodeAt(i) ^ actualHex.charCodeAt(i);
  return difference === 0;
}

/** The token of an `Authorization: Bearer <token>` header, or null when malformed. */
export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i.exec(header);
  return match ? match[1]! : null;
}
