import { escapeHtml, unescapeHtml } from '../html-escape.js';
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

/** A term that can occur in ASCII text (ASCII text has no other terms). */
const ASCII_TERM = /^[a-z0-9]+$/;

/** Any character outside ASCII: such text is analysed token by token (measured: faster than a loop). */
const NON_ASCII = /[\u0080-\uffff]/;

/** An ASCII letter or digit: in ASCII text a token is a run of them. */
function isWord(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/**
 * The end of `term` read as a term at `at` in lower-cased ASCII text whose token begins there,
 * or -1. A term ends its token, unless it is a prefix or as long as a term can be (the index
 * cut the run there): then it matches the run it begins.
 */
function termAt(lower: string, at: number, term: string, prefix: boolean): number {
  if (!lower.startsWith(term, at)) return -1;
  let end = at + term.length;
  if (prefix || term.length >= MAX_TERM) {
    while (end < lower.length && isWord(lower.charCodeAt(end))) end++;
    return end;
  }
  return end < lower.length && isWord(lower.charCodeAt(end)) ? -1 : end;
}

interface Term {
  term: string;
  prefix: boolean;
}

/**
 * A match read directly in ASCII text, lower-cased: it finds exactly the occurrences that
 * `occurrences` finds in the text's tokens (a token is a run of ASCII letters and digits, its
 * term the run lower-cased), with indexOf and without cutting the text into tokens: a search
 * reads a few hundred sections to choose and mark the ones it shows.
 */
class AsciiMatch {
  /** `any`: the alternatives; `phrase`: the terms in order. Empty: it cannot occur. */
  private readonly terms: Term[];

  constructor(private readonly match: Match) {
    if (match.kind === 'phrase') {
      const last = match.terms.length - 1;
      this.terms = match.terms.every((t) => ASCII_TERM.test(t))
        ? match.terms.map((term, i) => ({ term, prefix: i === last && match.prefixLast }))
        : [];
    } else {
      this.terms = match.terms.filter((t) => ASCII_TERM.test(t)).map((term) => ({ term, prefix: false }));
      if (match.prefix !== undefined && ASCII_TERM.test(match.prefix))
        this.terms.push({ term: match.prefix, prefix: true });
    }
  }

  /** How many times it occurs; with `spans`, where ([start, end] of the text covered). */
  scan(lower: string, spans?: Array<[number, number]>): number {
    const terms = this.terms;
    if (terms.length === 0) return 0;
    if (this.match.kind === 'phrase') return this.scanPhrase(lower, spans);
    let count = 0;
    for (let t = 0; t < terms.length; t++) {
      const { term, prefix } = terms[t]!;
      for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
        if (at > 0 && isWord(lower.charCodeAt(at - 1))) continue;
        const end = termAt(lower, at, term, prefix);
        if (end < 0) continue;
        // A token matched by an earlier alternative (a term and the prefix) counts once.
        let seen = false;
        for (let e = 0; e < t && !seen; e++) seen = termAt(lower, at, terms[e]!.term, terms[e]!.prefix) >= 0;
        if (seen) continue;
        count++;
        spans?.push([at, end]);
      }
    }
    return count;
  }

  private scanPhrase(lower: string, spans?: Array<[number, number]>): number {
    const terms = this.terms;
    const first = terms[0]!;
    let count = 0;
    for (let at = lower.indexOf(first.term); at >= 0; at = lower.indexOf(first.term, at + 1)) {
      if (at > 0 && isWord(lower.charCodeAt(at - 1))) continue;
      let end = termAt(lower, at, first.term, first.prefix);
      for (let k = 1; k < terms.length && end >= 0; k++) {
        let next = end;
        while (next < lower.length && !isWord(lower.charCodeAt(next))) next++;
        end = next === end ? -1 : termAt(lower, next, terms[k]!.term, terms[k]!.prefix);
      }
      if (end < 0) continue;
      count++;
      spans?.push([at, end]);
    }
    return count;
  }
}

export class Highlighter {
  private readonly positive: Match[];
  private readonly ascii: AsciiMatch[];

  constructor(plan: QueryPlan) {
    this.positive = [...plan.must];
    this.ascii = this.positive.map((match) => new AsciiMatch(match));
  }

  /** The last title analysed (the sections of a page share it): whether each match occurs in it. */
  private title: { text: string; found: boolean[] } | undefined;

  /** How many times each match occurs in a text; with `spans`, where (unsorted). */
  private count(text: string, spans?: Array<[number, number]>): number[] {
    if (!NON_ASCII.test(text)) {
      const lower = text.toLowerCase();
      return this.ascii.map((match) => match.scan(lower, spans));
    }
    const tokens = documentTokens(text);
    return this.positive.map((match) => {
      const found = occurrences(match, tokens);
      if (spans) for (const [from, to] of found) spans.push([tokens[from]!.start, tokens[to]!.end]);
      return found.length;
    });
  }

  match(section: SectionText): SectionMatch {
    if (this.title?.text !== section.title)
      this.title = { text: section.title, found: this.count(section.title).map((n) => n > 0) };
    const title = this.title.found;
    const heading = this.count(section.heading);
    const found: Array<[number, number]> = [];
    const body = this.count(section.text, found);
    let all = this.positive.length > 0;
    let content = false;
    let hits = 0;
    for (let i = 0; i < this.positive.length; i++) {
      const n = body[i]! + heading[i]!;
      if (n > 0) content = true;
      else if (!title[i]) all = false;
      hits += n;
    }
    return { all, content, hits, spans: merge(found) };
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
  return unescapeHtml(html.replace(/<\/?mark>/g, ''));
}
