/**
 * A small HTML tag scanner for the renderer tests: the renderer writes every attribute as
 * `name="value"`, so a value that broke out of its quotes would show up here as an extra
 * attribute (`onerror`), and an unescaped `<` in text as an extra tag.
 */

export interface Tag {
  name: string;
  attrs: Map<string, string>;
  /** The tag as written. */
  source: string;
}

const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g;
const ATTR = /\s+([^\s=/>]+)(?:="([^"]*)")?/g;

export function tags(html: string): Tag[] {
  const out: Tag[] = [];
  for (const match of html.matchAll(TAG)) {
    const attrs = new Map<string, string>();
    for (const a of (match[2] ?? '').matchAll(ATTR)) attrs.set(a[1]!.toLowerCase(), a[2] ?? '');
    out.push({ name: match[1]!.toLowerCase(), attrs, source: match[0] });
  }
  return out;
}

/** The body of the document: the part where content goes (the head holds the page's own style and script). */
export function bodyOf(html: string): string {
  const start = html.indexOf('<body');
  return start < 0 ? html : html.slice(start);
}

export function count(html: string, tagName: string): number {
  return tags(html).filter((t) => t.name === tagName).length;
}

/** Every element with the attribute, optionally with that value. */
export function withAttr(html: string, name: string, value?: string): Tag[] {
  return tags(html).filter((t) => t.attrs.has(name) && (value === undefined || t.attrs.get(name) === value));
}

const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'srcset', 'poster', 'data'];

/**
 * Problems an attacker would want: script-capable elements, event-handler attributes, style
 * attributes, URLs with a scheme other than http(s)/mailto (the favicon's own data: SVG aside).
 */
export function dangers(html: string): string[] {
  const found: string[] = [];
  for (const tag of tags(html)) {
    if (['script', 'iframe', 'object', 'embed', 'base', 'form', 'style', 'meta', 'link'].includes(tag.name)) {
      // The page's own head elements are checked by the caller through bodyOf().
      if (!(tag.name === 'form' && tag.attrs.get('role') === 'search')) found.push(`element ${tag.source}`);
    }
    for (const [name, value] of tag.attrs) {
      if (name.startsWith('on')) found.push(`handler ${tag.source}`);
      if (name === 'style') found.push(`style ${tag.source}`);
      if (URL_ATTRS.includes(name)) {
        // Browsers ignore control characters and spaces in a scheme; so does this check.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
        const probe = decodeAttribute(value).replace(/[\s\u0000-\u001f]/g, '');
        const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(probe)?.[1]?.toLowerCase();
        if (scheme && !['http', 'https', 'mailto'].includes(scheme)) found.push(`url ${tag.source}`);
      }
    }
  }
  return found;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as the browser reads it (the entities the renderer writes, and numeric ones). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
