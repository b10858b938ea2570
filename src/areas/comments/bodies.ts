import { documentToMarkdown, markdownToDocument, plainLinks } from '../../content/markdown/index.js';
import { validateDocument } from '../../content/validate-document.js';
import { invalidField } from '../../errors.js';
import { type BodyInput, type CommentFormat, MAX_COMMENT_CHARS } from './schemas.js';

/**
 * The markdown to store for a posted body. Comments are not pages: their links are not resolved
 * against any content, so both directions use the plain resolver (URLs stay URLs).
 */
export function markdownOfBody(input: BodyInput, field: string): string {
  const given = (input.markdown !== undefined ? 1 : 0) + (input.document !== undefined ? 1 : 0);
  if (given !== 1) throw invalidField(field, 'must hold exactly one of markdown or document');
  let markdown: string;
  if (input.markdown !== undefined) {
    markdown = input.markdown;
  } else {
    validateDocument(input.document, `${field}.document`);
    markdown = documentToMarkdown(input.document, plainLinks);
  }
  const where = input.markdown !== undefined ? `${field}.markdown` : `${field}.document`;
  if (markdown.trim() === '') throw invalidField(where, 'must not be empty');
  if (markdown.length > MAX_COMMENT_CHARS)
    throw invalidField(where, `must be at most ${MAX_COMMENT_CHARS} characters of markdown`);
  return markdown;
}

/** A stored body in the format the caller asked for. */
export function bodyIn(markdown: string, format: CommentFormat) {
  return format === 'document'
    ? { document: markdownToDocument(markdown, plainLinks) as unknown as Record<string, unknown> }
    : { markdown };
}
