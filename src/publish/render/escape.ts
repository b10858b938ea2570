import { escapeHtml } from '../../html-escape.js';
import { browserView } from '../../link-urls.js';

/**
 * Escaping and URL checks for the published-site renderer. Every piece of text and every
 * attribute value that reaches the HTML goes through `escapeHtml`; every URL through `safeHref`
 * (links) or `safeSrc` (images, icons) first.
 */

// One escaper for all the HTML Quire serves (src/html-escape.ts).
export { escapeHtml } from '../../html-escape.js';

/** ` name="value"`, or nothing when value is undefined. */
export function attr(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;
}

// The URL rule is shared with the API, which refuses at write time what is dropped here.
export { safeHref, safeSrc } from '../../link-urls.js';

/** True for absolute http(s) URLs and protocol-relative ones: links that leave the site. */
export function isExternal(url: string): boolean {
  return /^(?:https?:)?\/\//i.test(browserView(url));
}

/**
 * GitBook writes emoji as code points in hex (`1f680`, `1f44d-1f3fb`). Anything else is taken
 * as the emoji itself (plain text, escaped by the caller).
 */
export function emojiText(code: string): string {
  if (!/^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i.test(code)) return code;
  const points = code.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((p) => p > 0x10ffff || (p >= 0xd800 && p <= 0xdfff))) return '';
  return String.fromCodePoint(...points);
}
