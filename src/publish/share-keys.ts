import { createHash, createHmac } from 'node:crypto';

/**
 * Share-link keys are derived from the site's share secret and the link id, so the database
 * keeps only their hashes (for lookup) and the key shown in `urls.published` needs no storage.
 */
export function shareKeyOf(shareSecret: string, linkId: string): string {
  return createHmac('sha256', shareSecret).update(linkId).digest('base64url').slice(0, 32);
}

export function hashShareKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The query parameter a share key arrives in (once; it is then kept in a cookie). */
export const SHARE_KEY_PARAM = 'shareKey';
