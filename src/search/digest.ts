import { createHash } from 'node:crypto';

/** A short digest of text that keys something by it (a query, a caller's visibility rules). */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
