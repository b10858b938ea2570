import { invalidField } from '../../errors.js';

/**
 * One emoji: a recommended (RGI) sequence, with skin tones, flags and joined families, or a
 * single pictographic code point written without its variation selector ("❤").
 */
// biome-ignore lint/complexity/useRegexLiterals: the `v` flag needs an ES2024 target as a literal
const EMOJI = new RegExp('^(?:\\p{RGI_Emoji}|\\p{Extended_Pictographic}\\uFE0F?)$', 'v');

export function checkReactions(list: readonly string[] | undefined, field: string): string[] {
  if (!list) return [];
  list.forEach((value, i) => {
    if (!EMOJI.test(value)) throw invalidField(`${field}.${i}`, 'must be a single emoji');
  });
  return [...new Set(list)];
}
