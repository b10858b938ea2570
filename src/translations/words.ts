import { unescapeText } from './placeholders.js';

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(language: string | undefined): Intl.Segmenter {
  const key = language ?? '';
  let found = segmenters.get(key);
  if (!found) {
    try {
      found = new Intl.Segmenter(language, { granularity: 'word' });
    } catch {
      // A language tag Intl does not accept still has words: count them the default way.
      found = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    segmenters.set(key, found);
  }
  return found;
}

/**
 * Words in a text, for stats. Placeholder tags and character references of a segment are set
 * aside first. Intl's word breaks use dictionaries for Chinese and Japanese, which put no
 * spaces between words, so a page counts about the same in any language.
 */
export function countWords(text: string, language?: string): number {
  // A mark may start inside a word (`**un**done`); a void tag stands for something else (code).
  const plain = unescapeText(
    text.replace(/<\/?x(?=[\s/>])[^<>]*>/gi, (tag) => (tag.endsWith('/>') ? ' ' : '')),
  );
  let count = 0;
  for (const part of segmenter(language).segment(plain)) if (part.isWordLike) count++;
  return count;
}
