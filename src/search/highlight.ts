import { documentTokens, MAX_TERM, type Token } from './analyzer.js';
import type { Match, QueryPlan } from './query.js';

/**
 * The query evaluated on a section's text in JavaScript, with the same analysis the index used:
 * which sections of a hit page matched (and on what), and snippets with the matched words
 * marked. Doing this here rather than with each engine's highlighter gives the same answer on
 * both databases and lets the text be escaped before anything is marked.
 */

export interface SectionText {
  title: string;
  heading: string;
  text: string;
}

export interface SectionMatch {
  /** Every clause matched within the section (title, heading and text together). */
  all: boolean;
  /** Some clause matched in the heading or the text, not only in the page title. */
  content: boolean;
  /** How many term occurrences matched in the heading and the text. */
  hits: number;
  /** Spans of `text` that matched, sorted, not overlapping. */
  spans: Array<[number, number]>;
}

function tokenMatches(match: Match, token: Token | undefined, index: number, last: boolean): boolean {
  if (!token) return false;
  if (match.kind === 'phrase') {
    const term = match.terms[index]!;
    return last && match.prefixLast ? token.term.startsWith(term) : token.term === term;
  }
  return (
    match.terms.includes(token.term) || (match.prefix !== undefined && token.term.startsWith(match.prefix))
  );
}

/** Where `match` occurs in `tokens`: [first token, last token] pairs. */
function occurrences(match: Match, tokens: Token[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const length = match.kind === 'phrase' ? match.terms.length : 1;
  for (let i = 0; i + length <= tokens.length; i++) {
    let ok = true;
    for (let k = 0; k < length && ok; k++) ok = tokenMatches(match, tokens[i + k], k, k === length - 1);
    if (ok) out.push([i, i + length - 1]);
  }
  return out;
}

/** Any character outside ASCII: such text is analysed token by token. */
const NON_ASCII = /\P{ASCII}/u;
/** A term that can occur in ASCII text (ASCII text has no other terms). */
const ASCII_TERM = /^[a-z0-9]+$/;
const WORD = '[A-Za-z0-9]';
const NOT_WORD = '[^A-Za-z0-9]';

/**
 * `match` as a regular expression over ASCII text, giving exactly the occurrences `occurrences`
 * finds in its tokens: in ASCII text a token is a run of ASCII letters and digits and its term
 * the run lower-cased, cut at MAX_TERM characters (so a term of that length matches the runs
 * it begins). Every occurrence is a match starting at its first token; group 1 spans its tokens.
 */
function asciiPattern(match: Match): RegExp {
  const never = /(?!)/g;
  const exact = (term: string, prefix: boolean) =>
    prefix || term.length >= MAX_TERM ? `${term}${WORD}*` : `${term}(?!${WORD})`;
  if (match.kind === 'phrase') {
    if (!match.terms.every((t) => ASCII_TERM.test(t))) return never;
    const last = match.terms.length - 1;
    const body = match.terms.map((t, i) => exact(t, i === last && match.prefixLast)).join(`${NOT_WORD}+`);
    return new RegExp(`(?<!${WORD})(?=(${body}))`, 'gi');
  }
  const alternatives = match.terms.filter((t) => ASCII_TERM.test(t)).map((t) => exact(t, false));
  if (match.prefix !== undefined && ASCII_TERM.test(match.prefix))
    alternatives.push(exact(match.prefix, true));
  if (alternatives.length === 0) return never;
  return new RegExp(`(?<!${WORD})(${alternatives.join('|')})`, 'gi');
}

/** Where the pattern of a match occurs in ASCII text: [start, end] of the tokens it covers. */
function asciiOccurrences(pattern: RegExp, text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const found of text.matchAll(pattern)) out.push([found.index, found.index + found[1]!.length]);
  return out;
}

/** Where each match occurs in a text: character spans, one per occurrence. */
type Finder = (text: string) => Array<Array<[number, number]>>;

export class Highlighter {
  private readonly positive: Match[];
  private readonly patterns: RegExp[];

  constructor(plan: QueryPlan) {
    this.positive = [...plan.must];
    this.patterns = this.positive.map(asciiPattern);
  }

  /** The last title analysed (the sections of a page share it): whether each match occurs in it. */
  private title: { text: string; found: boolean[] } | undefined;

  private readonly find: Finder = (text) => {
    if (!NON_ASCII.test(text)) return this.patterns.map((pattern) => asciiOccurrences(pattern, text));
    const tokens = documentTokens(text);
    return this.positive.map((match) =>
      occurrences(match, tokens).map(([from, to]): [number, number] => [
        tokens[from]!.start,
        tokens[to]!.end,
      ]),
    );
  };

  match(section: SectionText): SectionMatch {
    if (this.title?.text !== section.title)
      this.title = { text: section.title, found: this.find(section.title).map((o) => o.length > 0) };
    const title = this.title.found;
    const heading = this.find(section.heading);
    const body = this.find(section.text);
    let all = this.positive.length > 0;
    let content = false;
    let hits = 0;
    const spans: Array<[number, number]> = [];
    this.positive.forEach((_match, i) => {
      const inBody = body[i]!;
      const inHeading = heading[i]!;
      if (inBody.length + inHeading.length > 0) content = true;
      else if (!title[i]) all = false;
      hits += inBody.length + inHeading.length;
      for (const span of inBody) spans.push(span);
    });
    return { all, content, hits, spans: merge(spans) };
  }

  /** About `size` characters of the text around its first match, HTML-escaped, matches in `<mark>`. */
  snippet(text: string, spans: Array<[number, number]>, size = 220): string {
    if (text.length <= size) return mark(text, 0, text.length, spans);
    const first = spans[0]?.[0] ?? 0;
    let start = Math.max(0, first - Math.floor(size / 4));
    if (start > 0) {
      const space = text.indexOf(' ', start);
      if (space >= 0 && space < first) start = space + 1;
    }
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start + size / 2) end = space;
    }
    return `${start > 0 ? '…' : ''}${mark(text, start, end, spans)}${end < text.length ? '…' : ''}`;
  }
}

function merge(spans: Array<[number, number]>): Array<[number, number]> {
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const DECODE = new Map(Object.entries(ENTITIES).map(([ch, entity]) => [entity, ch]));

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

function mark(text: string, start: number, end: number, spans: Array<[number, number]>): string {
  let out = '';
  let at = start;
  for (const [from, to] of spans) {
    if (to <= start || from >= end) continue;
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    out += `${escapeHtml(text.slice(at, a))}<mark>${escapeHtml(text.slice(a, b))}</mark>`;
    at = b;
  }
  return out + escapeHtml(text.slice(at, end));
}

/** A snippet without markup, for readers that show text (the published site's search box). */
export function plainSnippet(html: string): string {
  return html
    .replace(/<\/?mark>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => DECODE.get(entity) ?? entity);
}
