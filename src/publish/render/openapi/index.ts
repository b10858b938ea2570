/**
 * OpenAPI on published sites: blocks drawn as an API reference, and the same operations as
 * markdown (the `.md` view; search text is `src/openapi/read/search-text.ts`). All pure: the site
 * hands in the parsed document.
 */

export { renderOpenApiBlock, type SpecSource, specSource } from './block-html.js';
export { type MarkdownOptions, operationMarkdown, schemasMarkdown, webhookMarkdown } from './markdown.js';
