import type { Code } from '../../../content/markdown/document-types.js';
import { renderCode } from '../code-html.js';
import type { RenderContext } from '../render-context.js';

/**
 * Samples drawn as the page's own code blocks (highlighting, copy button, "show more" for long
 * ones): the text becomes a code block node, so it is escaped like any other code.
 */

/** Lines a sample shows before its "show more". */
const COLLAPSED_LINES = 24;
const MAX_CHARS = 50_000;

export function codeSampleHtml(source: string, syntax: string, title: string, ctx: RenderContext): string {
  const lines = source.slice(0, MAX_CHARS).split('\n');
  const block = {
    object: 'block',
    type: 'code',
    data: { syntax, title, expandable: true, collapsedLineCount: COLLAPSED_LINES },
    nodes: lines.map((line) => ({
      object: 'block',
      type: 'code-line',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  } as unknown as Code;
  return renderCode(block, ctx);
}

/** The highlighting language for a media type's examples. */
export function syntaxFor(mediaType: string, value: unknown): string {
  const type = mediaType.toLowerCase();
  if (typeof value !== 'string' || /json/.test(type)) return 'json';
  if (/xml/.test(type)) return 'xml';
  if (/html/.test(type)) return 'html';
  if (/yaml/.test(type)) return 'yaml';
  return 'text';
}
