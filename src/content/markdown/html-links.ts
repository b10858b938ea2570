import type { LinkKind } from './links.js';

/**
 * Where the HTML GitBook writes points: `<a href>` (links, buttons, card targets, files in
 * table cells), `<img src>` and `<source srcset>` (images and their dark variants). The link
 * index scans text with it; the converter reads the same attributes from parsed HTML.
 */
const TAG = /<(a|img|source)\b([^>]*)>/gi;
const ATTRIBUTE = /\s(href|src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)')/i;

export function htmlLinks(html: string): Array<{ href: string; kind: LinkKind }> {
  const found: Array<{ href: string; kind: LinkKind }> = [];
  for (const match of html.matchAll(TAG)) {
    const attribute = ATTRIBUTE.exec(match[2]!);
    if (!attribute) continue;
    const name = match[1]!.toLowerCase();
    let href = decodeEntities(attribute[2] ?? attribute[3] ?? '');
    if (attribute[1]!.toLowerCase() === 'srcset') href = href.trim().split(/\s+/)[0] ?? '';
    if (href === '' || (name === 'a' && href.startsWith('#user-content-fn'))) continue;
    // `<a href="#x" id="x"></a>`: GitBook's anchor of a heading, not a link.
    if (name === 'a' && href.startsWith('#') && /\sid\s*=/.test(match[2]!)) continue;
    found.push({ href, kind: name === 'a' ? 'link' : 'image' });
  }
  return found;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}
