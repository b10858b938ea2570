/**
 * The markdown <-> document converter of the content engine: GitBook-flavoured markdown
 * (CommonMark + GFM + `{% %}` blocks) to the GitBook JSON document tree and back. Pure
 * functions; links go through a `LinkResolver` so callers map hrefs to pages and files.
 */
export { documentToMarkdown } from './from-document.js';
export { type LinkKind, type LinkResolver, plainLinks } from './links.js';
export { extractLinks } from './scan-links.js';
export { RAW_SYNTAX } from './syntax.js';
export { markdownToDocument, type ToDocumentOptions } from './to-document.js';

import { markdownToDocument as convert } from './to-document.js';

/**
 * The constructs of a page that have no document form (`{% name %}`, `<tag>`), each once: the
 * site shows their text and export keeps them as they are, but a reader misses what they meant.
 */
export function unknownConstructs(markdown: string): string[] {
  // Without a tag or HTML there is nothing the converter could fail to know.
  if (!markdown.includes('{%') && !markdown.includes('<')) return [];
  const found = new Set<string>();
  convert(markdown, { profile: 'render', onUnknown: (construct) => found.add(construct) });
  return [...found];
}
