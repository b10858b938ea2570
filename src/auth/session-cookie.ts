import type { Config } from '../config.js';

/** The browser session cookie (see SessionService). */
export const SESSION_COOKIE = 'quire_session';

/**
 * The Set-Cookie value that holds a session. HttpOnly so page scripts never read it;
 * SameSite=Lax so other sites' forms do not carry it on POSTs (CSRF checks stay the real
 * guard); Secure whenever the public URL is https, so it never travels in clear.
 */
export function sessionCookie(config: Pick<Config, 'publicUrl'>, value: string, expiresAt: string): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    'Path=/',
    `Expires=${new Date(expiresAt).toUTCString()}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (config.publicUrl.startsWith('https:')) parts.push('Secure');
  return parts.join('; ');
}

/** The Set-Cookie value that removes the session cookie. */
export function clearSessionCookie(config: Pick<Config, 'publicUrl'>): string {
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}

/** The session cookie's value in a Cookie header, when it looks like one Quire made. */
export function readSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    // Quire's secrets are base64url with a prefix; anything else is not worth a lookup.
    if (/^[A-Za-z0-9_-]{1,200}$/.test(value)) return value;
  }
  return undefined;
}
