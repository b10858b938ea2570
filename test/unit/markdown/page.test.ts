import { describe, expect, it } from 'vitest';
import { JsonDocument } from '../../../src/content/document-schema.js';
import { documentToMarkdown, markdownToDocument, RAW_SYNTAX } from '../../../src/content/markdown/index.js';
import { compileValidator } from '../../../src/validation.js';
import { checkSchema } from '../../helpers/official-spec.js';
import { PAGE } from './fixtures.js';

const validateOwn: (value: unknown, field: string) => asserts value is JsonDocument =
  compileValidator<JsonDocument>(JsonDocument);

describe('a realistic page', () => {
  const document = markdownToDocument(PAGE);

  it('converts to a document both official versions and our schema accept', () => {
    expect(checkSchema('JSONDocument', document)).toEqual([]);
    validateOwn(document, 'document');
  });

  it('has the blocks the markdown shows, in order', () => {
    const kinds = document.nodes.map((node) =>
      node.type === 'code' && node.data.syntax === RAW_SYNTAX ? 'raw' : node.type,
    );
    expect(kinds).toEqual([
      'raw',
      'heading-1',
      'paragraph',
      'hint',
      'heading-1',
      'tabs',
      'heading-1',
      'paragraph',
      'code',
      'table',
      'list-ordered',
      'list-tasks',
      'images',
      'expandable',
      'blockquote',
      'divider',
      'paragraph',
      'math',
      'embed',
      'file',
      'content-ref',
      'images',
    ]);
    expect(document.nodes[6]).toMatchObject({ data: { id: 'config' } });
  });

  it('converts back to the same markdown, and that to the same document', () => {
    const markdown = documentToMarkdown(document);
    // Headings are written from `##` (GitBook's `#` is the page title), an aligned image as a figure.
    expect(markdown).toBe(
      PAGE.replace('# Quick start', '## Quick start').replace(
        '<div align="center"><img src="logo.svg" width="120"></div>',
        '<figure><img src="logo.svg" alt="" width="120"></figure>',
      ),
    );
    expect(markdownToDocument(markdown)).toEqual(document);
  });

  it('keeps windows line endings readable', () => {
    expect(markdownToDocument(PAGE.replaceAll('\n', '\r\n'))).toEqual(document);
  });

  it('converts a 50 KB page', () => {
    let big = '';
    while (big.length < 50_000) big += `${PAGE}\n`;
    const converted = markdownToDocument(big);
    expect(converted.nodes.length).toBeGreaterThan(document.nodes.length * 10);
    expect(documentToMarkdown(converted).length).toBeGreaterThan(50_000);
  });
});
