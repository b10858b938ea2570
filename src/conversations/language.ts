import { fold, stemmerOf, words } from '../search/analyzer.js';
import { STOP_WORD_LANGUAGES, stopWordsOf } from './stop-words.js';

/** No language could be told: terms are then left unstemmed. */
export const UNDETERMINED = 'und';

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;
const SCRIPTS: Array<[RegExp, string]> = [
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Arabic}/u, 'ar'],
];
/** Languages a stop-word vote can choose: those with a list that are written with spaces. */
const VOTERS = STOP_WORD_LANGUAGES.filter((language) => language !== 'zh');

/**
 * A guess at the language of a support message, good enough to pick a stemmer, not to label it:
 *
 * - by script first: any kana is Japanese (Japanese mixes kana into its kanji), Hangul Korean,
 *   other Han Chinese; Cyrillic, Greek and Arabic letters give Russian, Greek and Arabic;
 * - Latin text by vote: each word in a language's stop-word list counts for that language (the
 *   words of a support message are mostly function words), the most votes win, ties go to the
 *   earlier language of the lists (English first, the most common in support);
 * - no vote at all: undetermined, and the words are not stemmed.
 */
export function guessLanguage(text: string): string {
  if (KANA.test(text)) return 'ja';
  if (HANGUL.test(text)) return 'ko';
  if (HAN.test(text)) return 'zh';
  for (const [script, language] of SCRIPTS) if (script.test(text)) return language;
  const votes = new Map<string, number>();
  for (const word of words(text)) {
    const term = fold(word.text);
    for (const language of VOTERS) {
      if (stopWordsOf(language)!.has(term)) votes.set(language, (votes.get(language) ?? 0) + 1);
    }
  }
  let best = UNDETERMINED;
  let most = 0;
  for (const language of VOTERS) {
    const count = votes.get(language) ?? 0;
    if (count > most) {
      best = language;
      most = count;
    }
  }
  return best;
}

const CJK = new Set(['ja', 'zh', 'ko']);

/**
 * A language named by the sender (`fr`, `fr-FR`, `pt_BR`, `Japanese` is not one), when the
 * engine can use it: a stemmer's language or one cut into bigrams. Otherwise undefined.
 */
export function declaredLanguage(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const code = value.trim().toLowerCase().replace('_', '-');
  if (code === 'pt-br') return code;
  const primary = code.split('-')[0]!;
  return stemmerOf(primary) || CJK.has(primary) ? primary : undefined;
}
