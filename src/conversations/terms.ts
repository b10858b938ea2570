import { fold, stemmerOf, stemTerm, words } from '../search/analyzer.js';
import { isStopWord } from './stop-words.js';

/** Digits alone: a number relates issues ("429", "500") only from three digits on. */
const DIGITS = /^\p{N}+$/u;

/** Japanese words by the ICU dictionary, when this Node has one (full ICU, the default). */
const JAPANESE =
  typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('ja', { granularity: 'word' }) : undefined;

/**
 * The terms of an issue's text for clustering, with repeats (term frequency counts them). Words
 * are cut and folded by Quire's search analyzer, so a term is what search would index:
 *
 * - words of space-separated scripts: folded, stop words and one-letter words (the "t" of
 *   "can't", the "l" of "l'export") dropped, numbers under three digits dropped, then stemmed in
 *   `language` when it has a stemmer ("exports", "exporting" and "exported" are one term);
 * - Chinese and Korean runs: the analyzer's overlapping bigrams, without the single last
 *   character it also indexes (one character is too ambiguous to relate two issues) and without
 *   bigrams across grammatical characters (see stop-words.ts);
 * - Japanese runs: words from `Intl.Segmenter` (AREAS-2 §4.2's tokenizer) instead, without the
 *   kana-only ones (particles, endings) and single characters. Bigrams of katakana loanwords
 *   relate unrelated issues ("ダークモード" and "パスワード" share "ード"); the dictionary keeps
 *   "モード" and "パスワード" whole. Chinese stays in bigrams: ICU cuts many of its compounds
 *   into single characters ("重置" into "重" and "置"), which bigrams keep.
 *
 * Stems of different languages are different terms; words written the same in every language
 * ("SSO", "PDF", "API", "webhook", "Windows") are what relate issues across languages.
 */
export function issueTerms(text: string, language: string): string[] {
  const stemmer = stemmerOf(language);
  const out: string[] = [];
  for (const word of words(text)) {
    if (word.bigram && language === 'ja' && JAPANESE) {
      for (const segment of JAPANESE.segment(word.text)) {
        const term = fold(segment.segment);
        if (segment.isWordLike && [...term].length >= 2 && !isStopWord(term)) out.push(term);
      }
      continue;
    }
    if (word.bigram) {
      const chars = [...word.text].map(fold);
      for (let i = 0; i + 1 < chars.length; i++) {
        const bigram = chars[i]! + chars[i + 1]!;
        if (!isStopWord(bigram)) out.push(bigram);
      }
      continue;
    }
    const term = fold(word.text);
    if (term.length < 2 || isStopWord(term)) continue;
    if (DIGITS.test(term)) {
      if (term.length >= 3) out.push(term);
      continue;
    }
    out.push(stemmer ? stemTerm(stemmer, word.text) : term);
  }
  return out;
}
