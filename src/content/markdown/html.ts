/** The little HTML GitBook writes into markdown: attributes and text of figures and summaries. */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes character references; null when one is not known (the text stays raw markdown). */
export function decodeHtml(text: string): string | null {
  let unknown = false;
  const decoded = text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (code > 0 && code <= 0x10ffff) return String.fromCodePoint(code);
    } else if (Object.hasOwn(NAMED, name)) {
      return NAMED[name]!;
    }
    unknown = true;
    return whole;
  });
  return unknown ? null : decoded;
}

const ATTRIBUTE = /\s+([a-zA-Z][\w-]*)="([^"]*)"/y;

/** `name="value"` attributes of a tag, in order; null when they are written otherwise. */
export function parseHtmlAttributes(text: string): Map<string, string> | null {
  const attrs = new Map<string, string>();
  let offset = 0;
  while (offset < text.length) {
    ATTRIBUTE.lastIndex = offset;
    const match = ATTRIBUTE.exec(text);
    if (!match || attrs.has(match[1]!)) return null;
    const value = decodeHtml(match[2]!);
    if (value === null) return null;
    attrs.set(match[1]!, value);
    offset = ATTRIBUTE.lastIndex;
  }
  return attrs;
}
