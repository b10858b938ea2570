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
import { nodeText } from './inline-html.js';

/**
 * Code blocks: a header (title or language, copy button), then one `<span class="line">` per
 * line so line numbers (CSS counters, never copied) and highlighted lines work. Highlighting
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

export function renderCode(block: Code): string {
  const data = block.data ?? {};
  const lines = (block.nodes ?? []).map((line) => ({
    text: nodeText(line).replace(/\r/g, ''),
    highlighted: line.data?.highlighted === true,
  }));
  const source = lines.map((line) => line.text).join('\n');
  const syntax = typeof data.syntax === 'string' ? data.syntax : undefined;
  const language = highlightLanguage(syntax);
  const htmlLines = highlightedLines(source, language);

  const label = data.title ?? (syntax === RAW_SYNTAX ? 'markdown' : syntax);
  const classes = ['code-block'];
  if (data.fullWidth) classes.push('full-width');
  if (data.expandable) classes.push('expandable-code');
  const preClasses = ['code'];
  if (data.lineNumbers) preClasses.push('line-numbers');
  if (data.overflow === 'wrap') preClasses.push('wrap');

  const body = htmlLines
    .map((html, i) => `<span class="line${lines[i]?.highlighted ? ' hl' : ''}">${html}</span>`)
    .join('\n');
  const codeClass = language ? `hljs language-${language}` : 'hljs';
  return (
    `<figure${attr('class', classes.join(' '))}${attr('data-lang', language)}>` +
    '<figcaption class="code-header">' +
    `<span class="${data.title ? 'code-title' : 'code-lang'}">${escapeHtml(label ?? '')}</span>` +
    `<button type="button" class="copy-button" data-copy hidden aria-label="Copy code">${icon('copy')}${icon('check', 'icon icon-done')}<span class="copy-label">Copy</span></button>` +
    '</figcaption>' +
    `<pre${attr('class', preClasses.join(' '))} tabindex="0"><code${attr('class', codeClass)}>${body}</code></pre>` +
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
