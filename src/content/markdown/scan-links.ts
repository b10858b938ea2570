import { htmlLinks } from './html-links.js';
import type { LinkKind } from './links.js';

/** CommonMark HTML block starts (kind 6: block-level tags, which may interrupt a paragraph). */
const HTML_BLOCK =
  /^ {0,3}<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|\/?>|$)/i;
/** Kind 7: any other complete tag alone on its line, which starts a block only after a blank line. */
const HTML_TAG_LINE = /^ {0,3}(?:<[a-zA-Z][\w-]*(?:\s[^>]*)?\/?>|<\/[a-zA-Z][\w-]*\s*>)\s*$/;

/**
 * Every link target written in a page (inline and reference links, images, autolinks, figure
 * images, embed/file/content-ref blocks), raw, in order, skipping code. It scans the text
 * instead of parsing it: the link index reads every page a merge touches, and a full CommonMark
 * parse costs milliseconds per page where a scan costs microseconds. A test holds it to the
 * parser's answers on real pages.
 */
export function extractLinks(markdown: string): Array<{ href: string; kind: LinkKind }> {
  const found: Array<{ href: string; kind: LinkKind }> = [];
  const lines = markdown.split('\n');
  const definitions = new Map<string, string>();
  // `[^1]: …` is a footnote, not a link definition.
  for (const match of markdown.matchAll(/^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*<?([^\s>]+)>?/gm))
    if (!definitions.has(label(match[1]!))) definitions.set(label(match[1]!), match[2]!);
  let fence: { char: string; length: number } | undefined;
  let inContentRef = false;
  // An HTML block holds no markdown; the parser reads images from it only when the whole block is figures.
  let html: { lines: string[]; until: 'blank' | 'comment' } | undefined;
  let previousBlank = true;

  const closeHtml = () => {
    found.push(...htmlLinks(html!.lines.join('\n')));
    html = undefined;
  };

  for (const line of lines) {
    const blank = line.trim() === '';
    const wasBlank = previousBlank;
    previousBlank = blank;
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length) fence = undefined;
      continue;
    }
    if (html) {
      if (html.until === 'comment') {
        if (line.includes('-->')) html = undefined;
        continue;
      }
      if (!blank) {
        html.lines.push(line);
        continue;
      }
      closeHtml();
    }
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      fence = { char: open[1]![0]!, length: open[1]!.length };
      continue;
    }
    if (/^ {0,3}<!--/.test(line)) {
      if (!line.slice(line.indexOf('<!--') + 4).includes('-->')) html = { lines: [], until: 'comment' };
      continue;
    }
    if (HTML_BLOCK.test(line) || (wasBlank && HTML_TAG_LINE.test(line))) {
      html = { lines: [line], until: 'blank' };
      continue;
    }

    const tag = /^\s*\{%\s*(embed|file|content-ref|endcontent-ref)\b([^%]*)%\}/.exec(line);
    if (tag) {
      const name = tag[1]!;
      if (name === 'endcontent-ref') inContentRef = false;
      else {
        const attr = name === 'file' ? 'src' : 'url';
        const value = new RegExp(`\\b${attr}="([^"]*)"`).exec(tag[2] ?? '')?.[1];
        if (value !== undefined) found.push({ href: value, kind: name as LinkKind });
        if (name === 'content-ref') inContentRef = !/\{%\s*endcontent-ref\s*%\}/.test(line);
      }
      continue;
    }
    if (inContentRef) continue;
    if (/^\s{0,3}\[[^\]]+\]:\s/.test(line)) continue;
    scanInline(stripCodeSpans(line), found, definitions);
  }
  if (html?.until === 'blank') closeHtml();
  return found;
}

/** Inline code holds no links: blank it out, keeping positions. */
function stripCodeSpans(line: string): string {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (span) => ' '.repeat(span.length));
}

/** Reference labels match case-insensitively, with runs of whitespace as one space. */
function label(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

function scanInline(
  text: string,
  found: Array<{ href: string; kind: LinkKind }>,
  definitions: Map<string, string>,
): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[' || (c === '!' && text[i + 1] === '[')) {
      const image = c === '!';
      const start = image ? i + 1 : i;
      const close = matchingBracket(text, start);
      if (close > 0 && text[close + 1] === '(') {
        const target = destination(text, close + 2);
        if (target) {
          found.push({ href: target.href, kind: image ? 'image' : 'link' });
          if (!image) scanInline(text.slice(start + 1, close), found, definitions);
          i = target.end;
          continue;
        }
      }
      if (close > 0 && definitions.size > 0) {
        const reference = /^\[([^\]]*)\]/.exec(text.slice(close + 1));
        const key = label(reference?.[1] || text.slice(start + 1, close));
        const href = definitions.get(key);
        if (href !== undefined) {
          found.push({ href, kind: image ? 'image' : 'link' });
          i = close + 1 + (reference?.[0].length ?? 0);
          continue;
        }
      }
      i = start + 1;
      continue;
    }
    if (c === '<') {
      const auto = /^<((?:https?|mailto|ftp):[^\s<>]*)>/i.exec(text.slice(i));
      if (auto) {
        found.push({ href: auto[1]!, kind: 'link' });
        i += auto[0].length;
        continue;
      }
      const html = /^<[^>]*>/.exec(text.slice(i));
      if (html) found.push(...htmlLinks(html[0]));
      i += html ? html[0].length : 1;
      continue;
    }
    if ((c === 'h' || c === 'w') && (i === 0 || /[\s*_~(]/.test(text[i - 1]!))) {
      const bare = /^(?:https?:\/\/|www\.)[^\s<]*[^\s<?!.,:*_~)'"]/i.exec(text.slice(i));
      if (bare) {
        const url = bare[0];
        found.push({ href: url.toLowerCase().startsWith('www.') ? `http://${url}` : url, kind: 'link' });
        i += url.length;
        continue;
      }
    }
    i++;
  }
}

/** Index of the `]` closing the `[` at `open` (brackets nest), or -1. */
function matchingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      depth++;
    } else if (c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The link destination starting at `from` (after `(`), with an optional title, up to `)`. */
function destination(text: string, from: number): { href: string; end: number } | undefined {
  let i = from;
  while (text[i] === ' ') i++;
  let href = '';
  if (text[i] === '<') {
    const close = text.indexOf('>', i);
    if (close < 0) return undefined;
    href = text.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    const start = i;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === ' ') break;
      if (c === '(') depth++;
      if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    href = text.slice(start, i).replace(/\\([!-/:-@[-`{-~])/g, '$1');
  }
  while (text[i] === ' ') i++;
  if (text[i] === '"' || text[i] === "'") {
    const quote = text[i]!;
    const close = text.indexOf(quote, i + 1);
    if (close < 0) return undefined;
    i = close + 1;
    while (text[i] === ' ') i++;
  }
  if (text[i] !== ')') return undefined;
  return { href, end: i + 1 };
}
