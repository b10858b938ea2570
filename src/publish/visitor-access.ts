import type { Db } from '../db/database.js';
import type { SitesTable } from '../db/tables.js';
import { hashShareKey, SHARE_KEY_PARAM } from './share-keys.js';
import { type VisitorClaims, verifyVisitorToken } from './visitor-token.js';

/** The query parameter a visitor token arrives in, as GitBook names it. */
export const TOKEN_PARAM = 'jwt_token';

/** What the visitor presented: from this request's query (once) or from the site's cookies. */
export interface Presented {
  shareKey?: string | undefined;
  token?: string | undefined;
  /** The credential came in the URL: keep it in a cookie and redirect to the clean URL. */
  fromQuery: boolean;
}

export type AccessDecision =
  | { kind: 'allow'; claims: VisitorClaims }
  | { kind: 'deny'; status: 401 | 404; message: string }
  | { kind: 'redirect'; location: string };

export function cookieName(kind: 'share' | 'visitor', siteId: string): string {
  return `quire_${kind}_${siteId}`;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      // A cookie we did not write: ignore it rather than fail the page.
    }
  }
  return out;
}

export function presentedBy(
  site: SitesTable,
  query: URLSearchParams,
  cookies: Map<string, string>,
): Presented {
  const queryKey = query.get(SHARE_KEY_PARAM) ?? undefined;
  const queryToken = query.get(TOKEN_PARAM) ?? undefined;
  return {
    shareKey: queryKey ?? cookies.get(cookieName('share', site.id)),
    token: queryToken ?? cookies.get(cookieName('visitor', site.id)),
    fromQuery: queryKey !== undefined || queryToken !== undefined,
  };
}

/**
 * Who may see a published site. Share keys and tokens are checked on every request, so a
 * deactivated or deleted link, or an expired token, ends access at once, cookie or not.
 */
export async function decideAccess(
  db: Db,
  site: SitesTable,
  presented: Presented,
  nowMs: number,
  requestedUrl: string,
): Promise<AccessDecision> {
  if (site.visibility === 'share-link') {
    const key = presented.shareKey;
    const link =
      key && key.length <= 128
        ? await db
            .selectFrom('site_share_links')
            .select(['id', 'active'])
            .where('key_hash', '=', hashShareKey(key))
            .where('site_id', '=', site.id)
            .executeTakeFirst()
        : undefined;
    if (!link?.active)
      return { kind: 'deny', status: 404, message: 'This site is only visible through a valid share link.' };
  }
  let claims: VisitorClaims = {};
  const needsToken = site.visibility === 'visitor-auth';
  if (presented.token !== undefined && (needsToken || site.adaptive_enabled)) {
    const check = await verifyVisitorToken(presented.token, site.auth_private_key, nowMs);
    if (check.ok) claims = check.claims;
    else if (needsToken)
      return refuse(site, requestedUrl, `Your access token is not valid (${check.reason}).`);
  } else if (needsToken) {
    return refuse(site, requestedUrl, 'This site needs you to sign in.');
  }
  return { kind: 'allow', claims };
}

function refuse(site: SitesTable, requestedUrl: string, message: string): AccessDecision {
  if (site.auth_fallback_url) {
    const target = new URL(site.auth_fallback_url);
    target.searchParams.set('location', requestedUrl);
    return { kind: 'redirect', location: target.toString() };
  }
  return { kind: 'deny', status: 401, message };
}
