/** Where a signed-in person lands when no (acceptable) return path was given. */
export const APP_HOME = '/app';

const PROBE = 'http://quire.invalid';

/**
 * A path on this server to send the browser to after signing in, or APP_HOME. Only plain
 * same-origin paths pass: `//evil.test`, `/\evil.test`, `https://…`, `javascript:` and
 * anything with control characters would let a link to Quire's login page forward a freshly
 * signed-in person to another site (an open redirect).
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1000) return APP_HOME;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return APP_HOME;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return APP_HOME;
  let url: URL;
  try {
    url = new URL(value, PROBE);
  } catch {
    return APP_HOME;
  }
  if (url.origin !== PROBE) return APP_HOME;
  return url.pathname + url.search + url.hash;
}
