import { fold, words } from './analyzer.js';

/**
 * Search queries: what people type, parsed into a small tree that owes nothing to either
 * engine's syntax, then compiled to FTS5 or tsquery text in which every term is quoted. Nothing
 * a user types reaches an engine as syntax: quotes, asterisks, colons, parentheses, `OR`, `NEAR`
 * are text, and punctuation separates words like spaces do.
 *
 * - words: each must match (in the page title, a heading or the text of one section);
 * - `"exact phrase"`: the words next to each other, as written (no stemming);
 * - `-word`, `-"a phrase"`: pages containing it anywhere are left out;
 * - the last word, when nothing follows it, also matches as a prefix ("configura" finds
 *   "configuration"), so results follow as people type.
 */

export const MAX_QUERY_LENGTH = 512;
const MAX_CLAUSES = 32;
const MAX_TERMS = 64;
const MIN_PREFIX = 2;

/** One piece of a query as typed. */
export interface QueryClause {
  /** The text: a word, or what is between the quotes of a phrase. */
  text: string;
  quoted: boolean;
  negated: boolean;
  /** The last thing typed with nothing after it: its last word may be incomplete. */
  open: boolean;
}

const QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e', '\u00ab', '\u00bb']);
const MINUS = new Set(['-', '\u2212']);

/** Splits what was typed into clauses; never fails, whatever the input. */
export function parseQuery(input: string): QueryClause[] {
  const text = input.slice(0, MAX_QUERY_LENGTH);
  const clauses: QueryClause[] = [];
  let i = 0;
  const isSpace = (ch: string | undefined) => ch !== undefined && /\s/u.test(ch);
  while (i < text.length && clauses.length < MAX_CLAUSES) {
    if (isSpace(text[i])) {
      i++;
      continue;
    }
    let negated = false;
    if (MINUS.has(text[i]!) && i + 1 < text.length && !isSpace(text[i + 1]) && !MINUS.has(text[i + 1]!)) {
      negated = true;
      i++;
    }
    if (QUOTES.has(text[i]!)) {
      const close = findQuote(text, i + 1);
      const end = close < 0 ? text.length : close;
      clauses.push({ text: text.slice(i + 1, end), quoted: true, negated, open: close < 0 });
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    let end = i;
    while (end < text.length && !isSpace(text[end]) && !QUOTES.has(text[end]!)) end++;
    clauses.push({ text: text.slice(i, end), quoted: false, negated, open: end === text.length });
    i = end;
  }
  return clauses;
}

function findQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (QUOTES.has(text[i]!)) return i;
  return -1;
}

/**
 * What a clause matches: `any` is one word (any of its terms, or a term starting with
 * `prefix`); `phrase` is terms next to each other, the last one possibly a prefix.
 */
export type Match =
  | { kind: 'any'; terms: string[]; prefix?: string }
  | { kind: 'phrase'; terms: string[]; prefixLast: boolean };

export interface QueryPlan {
  /** Every one must match within one section (title, heading and text together). */
  must: Match[];
  /** Pages where any of these matches are left out. */
  not: Match[];
  /** The plain words typed, as a phrase: sections that have them together rank higher. */
  together?: Match;
}

/** A word whose stem should be expanded to the indexed terms sharing it. */
export interface StemRequest {
  /** The word as typed (stemmers see its accents). */
  word: string;
  /** Its term. */
  term: string;
}

interface ClauseTerms {
  clause: QueryClause;
  terms: Array<{ term: string; word: string; bigram: boolean; single: boolean }>;
}

function termsOf(clause: QueryClause): ClauseTerms {
  const terms: ClauseTerms['terms'] = [];
  for (const word of words(clause.text)) {
    if (!word.bigram) {
      const term = fold(word.text);
      if (term) terms.push({ term, word: word.text, bigram: false, single: false });
      continue;
    }
    const cs = [...word.text].map((ch) => fold(ch));
    if (cs.length === 1) terms.push({ term: cs[0]!, word: word.text, bigram: true, single: true });
    for (let i = 0; i + 1 < cs.length; i++)
      terms.push({ term: cs[i]! + cs[i + 1]!, word: word.text, bigram: true, single: false });
  }
  return { clause, terms };
}

function analysed(clauses: QueryClause[]): ClauseTerms[] {
  let budget = MAX_TERMS;
  const out: ClauseTerms[] = [];
  for (const clause of clauses) {
    const { terms } = termsOf(clause);
    if (terms.length === 0) continue;
    const kept = terms.slice(0, budget);
    budget -= kept.length;
    out.push({ clause, terms: kept });
    if (budget <= 0) break;
  }
  return out;
}

/** The words of a query that stemming may expand: plain single words, not phrases. */
export function stemRequests(clauses: QueryClause[]): StemRequest[] {
  const out: StemRequest[] = [];
  for (const { clause, terms } of analysed(clauses)) {
    if (clause.quoted || terms.length !== 1 || terms[0]!.bigram) continue;
    out.push({ word: terms[0]!.word, term: terms[0]!.term });
  }
  return out;
}

/**
 * The plan of a query, given the expansions found for its stem requests (term -> other terms
 * with the same stem). An empty `must` means there is nothing to search for.
 */
export function planQuery(
  clauses: QueryClause[],
  expansions: ReadonlyMap<string, readonly string[]> = new Map(),
): QueryPlan {
  const must: Match[] = [];
  const not: Match[] = [];
  const plain: string[] = [];
  let plainPrefix = false;
  for (const { clause, terms } of analysed(clauses)) {
    let match: Match;
    const mayPrefix = clause.open && !clause.negated && !clause.quoted;
    if (terms.length === 1) {
      const only = terms[0]!;
      if (only.single) {
        match = { kind: 'any', terms: [only.term], prefix: only.term };
      } else {
        const alternatives =
          clause.quoted || only.bigram ? [only.term] : [only.term, ...(expansions.get(only.term) ?? [])];
        match = { kind: 'any', terms: [...new Set(alternatives)] };
        if (mayPrefix && [...only.term].length >= MIN_PREFIX) match.prefix = only.term;
      }
      if (!clause.quoted && !clause.negated && !only.bigram) {
        plain.push(only.term);
        plainPrefix = match.prefix !== undefined;
      }
    } else {
      const last = terms[terms.length - 1]!;
      match = {
        kind: 'phrase',
        terms: terms.map((t) => t.term),
        prefixLast: last.single || (mayPrefix && !last.bigram && [...last.term].length >= MIN_PREFIX),
      };
    }
    (clause.negated ? not : must).push(match);
  }
  const plan: QueryPlan = { must, not };
  if (plain.length >= 2) plan.together = { kind: 'phrase', terms: plain, prefixLast: plainPrefix };
  return plan;
}

// ---- FTS5 ----------------------------------------------------------------------------------

const fts5String = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * The terms of a word that its prefix does not already cover: the same sections match, and
 * FTS5's ranking neither counts a word twice nor pays for a second pass over its occurrences.
 */
function uncovered(match: Extract<Match, { kind: 'any' }>): string[] {
  const { prefix } = match;
  return prefix === undefined ? match.terms : match.terms.filter((term) => !term.startsWith(prefix));
}

function fts5Match(match: Match): string {
  if (match.kind === 'phrase') return `${fts5String(match.terms.join(' '))}${match.prefixLast ? ' *' : ''}`;
  const parts = uncovered(match).map(fts5String);
  if (match.prefix !== undefined) parts.push(`${fts5String(match.prefix)} *`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
}

/** FTS5 query text: all matches (AND) or any (OR). */
export function toFts5(matches: Match[], options: { any?: boolean } = {}): string {
  return matches.map(fts5Match).join(options.any ? ' OR ' : ' AND ');
}

// ---- PostgreSQL tsquery --------------------------------------------------------------------

const tsLexeme = (term: string) => `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

function tsMatch(match: Match, weight: string, lean: boolean): string {
  if (match.kind === 'phrase') {
    const parts = match.terms.map((t, i) => {
      const label = `${match.prefixLast && i === match.terms.length - 1 ? '*' : ''}${weight}`;
      return `${tsLexeme(t)}${label ? `:${label}` : ''}`;
    });
    return `(${parts.join(' <-> ')})`;
  }
  const terms = lean ? uncovered(match) : match.terms;
  const parts = terms.map((t) => `${tsLexeme(t)}${weight ? `:${weight}` : ''}`);
  if (match.prefix !== undefined) parts.push(`${tsLexeme(match.prefix)}:*${weight}`);
  return `(${parts.join(' | ')})`;
}

/**
 * tsquery text: all matches (AND) or any (OR), optionally only lexemes of one weight. `lean`
 * leaves out a word's terms that its prefix covers: the same sections match, but PostgreSQL
 * estimates a term OR its own prefix at twice the rows and, for a common word, reads every
 * vector instead of the index (measured: 85 ms instead of 10). ts_rank counts each term, so the
 * ranking keeps them.
 */
export function toTsQuery(
  matches: Match[],
  options: { any?: boolean; weight?: string; lean?: boolean } = {},
): string {
  return matches
    .map((m) => tsMatch(m, options.weight ?? '', options.lean ?? false))
    .join(options.any ? ' | ' : ' & ');
}
