import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';

/**
 * Text analysis, the same for indexing and for queries and for both database engines, so a
 * search finds the same pages on SQLite and on PostgreSQL:
 *
 * - words are runs of letters, digits and combining marks; everything else separates them;
 * - a word becomes a term: lower-cased, diacritics removed from Latin, Greek and Cyrillic
 *   letters, at most MAX_TERM characters. The index holds these surface terms, so a prefix
 *   typed so far ("configura") matches the words it begins ("configuration");
 * - stemming is by expansion: the stem of every indexed term is recorded per stemmer (the
 *   vocabulary), and a query word matches every term sharing its stem in the space's language
 *   (Snowball/Porter stemmers: "configured" finds "configuration", "développeurs" finds
 *   "développement");
 * - Chinese, Japanese, Korean and South-East Asian scripts, written without spaces, are cut
 *   into overlapping bigrams plus the run's last character alone, so any substring of two or
 *   more characters is a phrase of bigrams and a single character is a prefix.
 */

/**
 * Bump when analysis or what is indexed changes: every space is then re-indexed by the
 * reconciliation (2: section keys; 3: SQLite title and heading tier tables; 4: sections as
 * the site reads them, conditional content and hidden, unindexed or conditional pages left out;
 * 5: the words of OpenAPI operations, and the specs each page draws; 6: the postings of
 * search/postings, so every space gets them).
 */
export const ANALYZER_VERSION = 6;

export const MAX_TERM = 64;

type Stem = (word: string) => string;

/** Stemmer of each space language that has one (`Space.language` codes); others are not stemmed. */
const STEMMERS: Record<string, { name: string; stem: Stem }> = {
  en: { name: 'english', stem: english },
  fr: { name: 'french', stem: french },
  de: { name: 'german', stem: german },
  es: { name: 'spanish', stem: spanish },
  it: { name: 'italian', stem: italian },
  pt: { name: 'portuguese', stem: portuguese },
  'pt-br': { name: 'portuguese', stem: portuguese },
  nl: { name: 'dutch', stem: dutch },
  ru: { name: 'russian', stem: russian },
  uk: { name: 'ukrainian', stem: ukrainian },
  bg: { name: 'bulgarian', stem: bulgarian },
  sv: { name: 'swedish', stem: swedish },
  no: { name: 'norwegian', stem: norwegian },
  da: { name: 'danish', stem: danish },
  fi: { name: 'finnish', stem: finnish },
  hu: { name: 'hungarian', stem: hungarian },
  ro: { name: 'romanian', stem: romanian },
  tr: { name: 'turkish', stem: turkish },
  el: { name: 'greek', stem: greek },
  ar: { name: 'arabic', stem: arabic },
  lt: { name: 'lithuanian', stem: lithuanian },
  id: { name: 'indonesian', stem: indonesian },
};

/** Scripts written without spaces between words: cut into bigrams. */
const BIGRAM_CLASS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc\\u3005';
const HAS_BIGRAM = new RegExp(`[${BIGRAM_CLASS}]`, 'u');
/** Runs of letters, digits and marks (marks stay with the letters they modify). */
const RUN = /[\p{L}\p{N}\p{M}]+/gu;
/** Inside a run: the parts in bigram scripts and the parts in others. */
const PARTS = new RegExp(`([${BIGRAM_CLASS}]+)|((?:(?![${BIGRAM_CLASS}])[\\p{L}\\p{N}\\p{M}])+)`, 'gu');
/** Words of plain ASCII letters and digits need no Unicode folding. */
const ASCII = /^[A-Za-z0-9]*$/;
const FOLDABLE = /(\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic})\p{M}+/gu;

/** A term and where its text lies in the analysed string (UTF-16 offsets). */
export interface Token {
  term: string;
  start: number;
  end: number;
}

/** A run of word characters as written: `bigram` for the scripts cut into bigrams. */
export interface Word {
  text: string;
  start: number;
  end: number;
  bigram: boolean;
}

/** Any character outside ASCII. */
const NON_ASCII = /\P{ASCII}/u;
/** What RUN matches in ASCII text: the only ASCII letters and digits are these. */
const ASCII_RUN = /[A-Za-z0-9]+/g;

/** The words of a text, in order. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  if (!NON_ASCII.test(text)) {
    // The common case, without the Unicode classes: the same words, found faster.
    for (const run of text.matchAll(ASCII_RUN))
      out.push({ text: run[0], start: run.index, end: run.index + run[0].length, bigram: false });
    return out;
  }
  for (const run of text.matchAll(RUN)) {
    const start = run.index;
    const value = run[0];
    if (!HAS_BIGRAM.test(value)) {
      out.push({ text: value, start, end: start + value.length, bigram: false });
      continue;
    }
    for (const part of value.matchAll(PARTS)) {
      const from = start + part.index;
      out.push({ text: part[0], start: from, end: from + part[0].length, bigram: part[1] !== undefined });
    }
  }
  return out;
}

/** Lower case, diacritics removed where they are accents, compatibility forms unified. */
export function fold(word: string): string {
  const folded = ASCII.test(word)
    ? word.toLowerCase()
    : word.toLowerCase().normalize('NFKD').replace(FOLDABLE, '$1').normalize('NFC');
  return folded.length > MAX_TERM ? folded.slice(0, MAX_TERM) : folded;
}

/** The characters of a bigram-script run with their offsets. */
function chars(word: Word): Array<{ ch: string; start: number; end: number }> {
  const out: Array<{ ch: string; start: number; end: number }> = [];
  let offset = word.start;
  for (const ch of word.text) {
    out.push({ ch: fold(ch), start: offset, end: offset + ch.length });
    offset += ch.length;
  }
  return out;
}

/** Terms of a text as the index stores them: bigram runs give their bigrams and last character. */
export function documentTokens(text: string): Token[] {
  const out: Token[] = [];
  for (const word of words(text)) {
    if (!word.bigram) {
      const term = fold(word.text);
      if (term) out.push({ term, start: word.start, end: word.end });
      continue;
    }
    const cs = chars(word);
    for (let i = 0; i + 1 < cs.length; i++)
      out.push({ term: cs[i]!.ch + cs[i + 1]!.ch, start: cs[i]!.start, end: cs[i + 1]!.end });
    const last = cs[cs.length - 1]!;
    out.push({ term: last.ch, start: last.start, end: last.end });
  }
  return out;
}

/** A section's terms (`termsOf` its heading and its text). */
export interface SectionTerms {
  heading: readonly string[];
  text: readonly string[];
}

/** The terms of a text in order, without their places: what the index stores of it. */
export function termsOf(text: string): string[] {
  return documentTokens(text).map((t) => t.term);
}

/**
 * Terms of a piece of query text: bigram runs give their bigrams only (a phrase of them is a
 * substring), or for a single character a prefix term (it begins a bigram or ends a run).
 */
export function queryTerms(text: string): Array<{ term: string; prefix: boolean; bigram: boolean }> {
  const out: Array<{ term: string; prefix: boolean; bigram: boolean }> = [];
  for (const word of words(text)) {
    if (!word.bigram) {
      const term = fold(word.text);
      if (term) out.push({ term, prefix: false, bigram: false });
      continue;
    }
    const cs = chars(word);
    if (cs.length === 1) out.push({ term: cs[0]!.ch, prefix: true, bigram: true });
    for (let i = 0; i + 1 < cs.length; i++)
      out.push({ term: cs[i]!.ch + cs[i + 1]!.ch, prefix: false, bigram: true });
  }
  return out;
}

/** The stemmer of a space language, if it has one. */
export function stemmerOf(language: string | null | undefined): { name: string; stem: Stem } | undefined {
  return language ? STEMMERS[language] : undefined;
}

/** The stem of a term under a stemmer, folded like terms are (the stemmer sees the accents). */
export function stemTerm(stemmer: { stem: Stem }, original: string): string {
  const lower = original.toLowerCase();
  if (lower.length > MAX_TERM || /\p{N}/u.test(lower)) return fold(lower);
  return fold(stemmer.stem(lower));
}
