import hljs from 'highlight.js/lib/common';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import http from 'highlight.js/lib/languages/http';
import nginx from 'highlight.js/lib/languages/nginx';
import powershell from 'highlight.js/lib/languages/powershell';
import protobuf from 'highlight.js/lib/languages/protobuf';
import type { Code } from '../../content/markdown/document-types.js';
import { RAW_SYNTAX } from '../../content/markdown/syntax.js';
import { attr, escapeHtml } from './escape.js';
import { icon } from './icons.js';
import { nodeText } from './refs.js';
import type { RenderContext } from './render-context.js';

/**
 * Code blocks: a header (title or language, copy button), then one `<span class="line">` per
 * line so line numbers (CSS counters, never copied) and highlighted lines work; long blocks
 * marked expandable are cut to a few lines with a "show more" toggle (a `<details>`, so it works
 * without script). Code lines may hold expressions: their values are part of the code. Highlighting
 * is highlight.js with the languages registered here only (no auto-detection): its output is
 * escaped text in `<span class="hljs-…">`, split at line ends with open spans closed and
 * reopened, so multi-line comments and strings stay coloured.
 */

hljs.registerLanguage('dockerfile', dockerfile);
hljs.registerLanguage('http', http);
hljs.registerLanguage('nginx', nginx);
hljs.registerLanguage('powershell', powershell);
hljs.registerLanguage('protobuf', protobuf);

/** Past this size a block is drawn without colours: highlighting is linear but not free. */
const MAX_HIGHLIGHT = 100_000;

/** The highlight.js language for a code block's syntax, when one is registered. */
export function highlightLanguage(syntax: string | undefined): string | undefined {
  if (!syntax) return undefined;
  const name = syntax === RAW_SYNTAX ? 'markdown' : syntax.toLowerCase();
  return hljs.getLanguage(name) ? name : undefined;
}

/** Lines shown by a collapsed expandable code block, as the stylesheet's `collapse-N` classes allow. */
const COLLAPSE_MIN = 3;
const COLLAPSE_MAX = 30;
const COLLAPSE_DEFAULT = 10;

/** The text of a code line: its leaves, the values of its expressions, annotated words. */
function lineText(line: unknown, ctx: RenderContext | undefined): string {
  return nodeText(line, ctx).replace(/\r/g, '');
}

export function renderCode(block: Code, ctx?: RenderContext): string {
  const data = (block.data ?? {}) as Code['data'] & { collapsedLineCount?: unknown };
  const lines = (Array.isArray(block.nodes) ? block.nodes : []).map((line) => ({
    text: lineText(line, ctx),
    highlighted: line?.data?.highlighted === true,
  }));
  const source = lines.map((line) => line.text).join('\n');
  const syntax = typeof data.syntax === 'string' ? data.syntax : undefined;
  const language = highlightLanguage(syntax);
  const htmlLines = highlightedLines(source, language);

  const title = typeof data.title === 'string' && data.title.trim() ? data.title : undefined;
  const label = title ?? (syntax === RAW_SYNTAX ? 'markdown' : syntax);
  const requested = data.collapsedLineCount;
  const collapsed =
    typeof requested === 'number' && Number.isFinite(requested)
      ? Math.min(COLLAPSE_MAX, Math.max(COLLAPSE_MIN, Math.round(requested)))
      : COLLAPSE_DEFAULT;
  const collapsible = data.expandable === true && lines.length > collapsed;
  const classes = ['code-block'];
  if (data.fullWidth === true) classes.push('full-width');
  if (collapsible) classes.push('expandable-code', `collapse-${collapsed}`);
  const preClasses = ['code'];
  if (data.lineNumbers === true) preClasses.push('line-numbers');
  if (data.overflow === 'wrap') preClasses.push('wrap');

  // Each line is a block holding its own line end, so no text sits between the lines: a
  // newline between them would be a line of its own once lines wrap. The copy button and a
  // selection still get the line ends.
  const last = htmlLines.length - 1;
  const body = htmlLines
    .map(
      (html, i) =>
        `<span class="line${lines[i]?.highlighted ? ' hl' : ''}">${html}${i < last ? '\n' : ''}</span>`,
    )
    .join('');
  const codeClass = language ? `hljs language-${language}` : 'hljs';
  const more = collapsible
    ? '<details class="code-more"><summary>' +
      `<span class="code-more-show">Show ${lines.length - collapsed} more lines</span>` +
      '<span class="code-more-hide">Show fewer lines</span></summary></details>'
    : '';
  return (
    `<figure${attr('class', classes.join(' '))}${attr('data-lang', language)}>` +
    '<figcaption class="code-header">' +
    `<span class="${title ? 'code-title' : 'code-lang'}">${escapeHtml(label ?? '')}</span>` +
    `<button type="button" class="copy-button" data-copy hidden aria-label="Copy code">${icon('copy')}${icon('check', 'icon icon-done')}<span class="copy-label">Copy</span></button>` +
    '</figcaption>' +
    `<pre${attr('class', preClasses.join(' '))} tabindex="0"><code${attr('class', codeClass)}>${body}</code></pre>` +
    more +
    '</figure>'
  );
}

/** The HTML of each line of `source`, coloured when `language` is set. */
export function highlightedLines(source: string, language: string | undefined): string[] {
  if (!language || source.length > MAX_HIGHLIGHT) return source.split('\n').map(escapeHtml);
  let html: string;
  try {
    html = hljs.highlight(source, { language, ignoreIllegals: true }).value;
  } catch {
    return source.split('\n').map(escapeHtml);
  }
  return splitHighlighted(html);
}

/** Splits highlight.js HTML at newlines, closing the spans open at a line end and reopening them. */
function splitHighlighted(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  for (const [token] of html.matchAll(/<span[^>]*>|<\/span>|\n|[^<\n]+/g)) {
    if (token === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (token === '</span>') {
      open.pop();
      current += token;
    } else {
      if (token.startsWith('<span')) open.push(token);
      current += token;
    }
  }
  lines.push(current);
  return lines;
}
