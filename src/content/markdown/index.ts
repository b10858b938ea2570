/**
 * The markdown <-> document converter of the content engine: GitBook-flavoured markdown
 * (CommonMark + GFM + `{% %}` blocks) to the GitBook JSON document tree and back. Pure
 * functions; links go through a `LinkResolver` so callers map hrefs to pages and files.
 */
export { documentToMarkdown } from './from-document.js';
export { type LinkKind, type LinkResolver, plainLinks } from './links.js';
export { extractLinks } from './scan-links.js';
export { RAW_SYNTAX } from './syntax.js';
export { markdownToDocument } from './to-document.js';
