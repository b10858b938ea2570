/**
 * Escaping and URL checks for the published-site renderer. Every piece of text and every
 * attribute value that reaches the HTML goes through `escapeHtml`; every URL through `safeHref`
 * (links) or `safeSrc` (images, icons) first.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value (always written inside double quotes) as HTML. */
export function escapeHtml(value: string): string {
  // Documents come from API clients too: a number or null where a string belongs is drawn, not thrown on.
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** ` name="value"`, or nothing when value is undefined. */
export function attr(name: string, value: string | number | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeHtml(String(value))}"`;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// Browsers ignore ASCII tab and newline anywhere in a URL and strip leading C0 controls and
// spaces, so `java\tscript:` is `javascript:`: look at the URL the way they do.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const IGNORED = /[\u0000-\u0020\u007f]/g;

const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https']);

function withScheme(url: string, allowed: ReadonlySet<string>): string | undefined {
  const probe = url.replace(IGNORED, '');
  if (probe === '') return undefined;
  const scheme = SCHEME.exec(probe)?.[1];
  if (scheme !== undefined && !allowed.has(scheme.toLowerCase())) return undefined;
  return url.trim();
}

/**
 * The URL when it may be a link target: http, https, mailto or relative; undefined for
 * `javascript:`, `data:`, `vbscript:` and every other scheme.
 */
export function safeHref(url: string | undefined): string | undefined {
  return url === undefined ? undefined : withScheme(url, LINK_SCHEMES);
}

/** The URL when it may be an image source: http, https or relative. */
export function safeSrc(url: string | undefined): string | undefined {
  return url === undefined ? undefined : withScheme(url, IMAGE_SCHEMES);
}

/** True for absolute http(s) URLs and protocol-relative ones: links that leave the site. */
export function isExternal(url: string): boolean {
  return /^(?:https?:)?\/\//i.test(url.replace(IGNORED, ''));
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
