/**
 * Which URLs may be link targets and image sources. One rule for the published-site renderer
 * (which drops a URL it refuses) and for the API (which refuses it when it is written, naming
 * the field), so that what an editor may store and what a visitor may be sent never differ.
 */

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// Browsers ignore ASCII tab and newline anywhere in a URL and strip leading C0 controls and
// spaces, so `java\tscript:` is `javascript:`: look at the URL the way they do.
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const IGNORED = /[\u0000-\u0020\u007f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/**
 * Character references that can spell a scheme: numeric ones (`&#106;`, `&#x6A`, `;` optional
 * as browsers allow) and the named ones of scheme punctuation and ignored whitespace. No named
 * reference stands for an ASCII letter or digit.
 */
const CHARACTER_REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|(colon|period|plus|Tab|NewLine));?/g;
const NAMED: Record<string, string> = { colon: ':', period: '.', plus: '+', Tab: '\t', NewLine: '\n' };

function decodeReferences(url: string): string {
  return url.replace(CHARACTER_REFERENCE, (_match, decimal?: string, hex?: string, name?: string) => {
    const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : -1;
    if (name !== undefined) return NAMED[name]!;
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}

export const LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);
export const IMAGE_SCHEMES: ReadonlySet<string> = new Set(['http', 'https']);

/** The URL as a browser reads it: without the tabs, line breaks and spaces it ignores. */
export function browserView(url: string): string {
  return url.replace(IGNORED, '');
}

/** The scheme a browser would follow (lower case), or undefined for a relative URL. */
export function urlScheme(url: string): string | undefined {
  return SCHEME.exec(browserView(url))?.[1]?.toLowerCase();
}

function withScheme(url: string, allowed: ReadonlySet<string>): string | undefined {
  if (browserView(url) === '') return undefined;
  const scheme = urlScheme(url);
  if (scheme !== undefined && !allowed.has(scheme)) return undefined;
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

/**
 * Why the API refuses `url` as a link target, or undefined when it accepts it. The scheme rule
 * is `safeHref`'s; at write time two disguises are refused too, rather than stored for the
 * renderer to defuse: control characters (which browsers drop, joining `java<TAB>script:`) and
 * HTML character references that spell a scheme (`&#106;avascript:`, `javascript&colon;`),
 * which a browser decodes wherever the URL is written into HTML unescaped.
 */
export function linkUrlProblem(url: string): string | undefined {
  if (browserView(url) === '') return 'must not be empty';
  if (CONTROL.test(url)) return 'must not contain control characters such as tabs or line breaks';
  const scheme = urlScheme(url);
  if (scheme !== undefined && !LINK_SCHEMES.has(scheme)) {
    return `must be an http(s), mailto or relative URL ("${scheme.slice(0, 40)}:" links are refused)`;
  }
  const disguised = urlScheme(decodeReferences(url));
  if (disguised !== undefined && !LINK_SCHEMES.has(disguised)) {
    return `must not spell a scheme with HTML character references (it reads "${disguised.slice(0, 40)}:" once decoded)`;
  }
  return undefined;
}
