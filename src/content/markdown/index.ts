/**
 * The markdown <-> document converter of the content engine: GitBook-flavoured markdown
 * (CommonMark + GFM + `{% %}` blocks) to the GitBook JSON document tree and back. Pure
 * functions; links go through a `LinkResolver` so callers map hrefs to pages and files.
 */
export { documentToMarkdown } from './from-document.js';
export { type LinkKind, type LinkResolver, plainLinks } from './links.js';
export { parseMarkdown } from './parse.js';
export { extractLinks } from './scan-links.js';
export { RAW_SYNTAX } from './syntax.js';
export { markdownToDocument, parsedToDocument, type ToDocumentOptions } from './to-document.js';

import { KNOWN_TAGS } from './gitbook-to-document.js';
import { markdownToDocument as convert } from './to-document.js';

/**
 * The constructs of a page that have no document form (`{% name %}`, `<tag>`), each once: the
 * site shows their text and export keeps them as they are, but a reader misses what they meant.
 */
export function unknownConstructs(markdown: string): string[] {
  // Converting costs milliseconds a page; a scan of tag and element names costs microseconds and
  // tells the pages where every name is one the converter reads (most of them).
  if (!mayHoldUnknown(markdown)) return [];
  const found = new Set<string>();
  convert(markdown, { profile: 'render', onUnknown: (construct) => found.add(construct) });
  return [...found];
}

/** HTML elements the converter reads (inline and block, table and figure parts included). */
const KNOWN_ELEMENTS = new Set(
  (
    'a b br button code del div em figcaption figure font i img kbd label li mark ol p picture s small source span ' +
    'strike strong sub sup u ul table thead tbody tfoot tr th td colgroup col select option pre h1 h2 h3 h4 h5 h6 ' +
    'details summary blockquote hr section center'
  ).split(' '),
);

function mayHoldUnknown(markdown: string): boolean {
  for (const match of markdown.matchAll(/\{%-?\s*(@?[\w/-]+)/g)) {
    const name = match[1]!;
    if (name.startsWith('@') || name.startsWith('end') || name === 'else') continue;
    if (!KNOWN_TAGS.has(name)) return true;
  }
  for (const match of markdown.matchAll(/<\/?([a-zA-Z][\w-]*)/g))
    if (!KNOWN_ELEMENTS.has(match[1]!.toLowerCase())) return true;
  return false;
}
