import { describe, expect, it } from 'vitest';
import { Highlighter } from '../../src/search/highlight.js';
import { parseQuery, planQuery } from '../../src/search/query.js';

/**
 * ASCII text is matched with indexOf instead of being cut into tokens. A no-break space (not
 * ASCII, not a word) sends the same text through the tokenizer: both must find the same.
 */
const TOKENIZED = '\u00a0';

const WORDS = ['log', 'logs', 'Logging', 'value', 'VALUES', 'x1', 'x12', 'a_b', 'co-op', 'proxy', 'conf'];
const GLUE = [' ', '  ', ', ', '-', '_', '.', '\n', '/', '(', ') '];

/** A deterministic mix of the words above, joined every which way. */
function texts(count: number): string[] {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 48271) % 2147483647;
    return seed % n;
  };
  const out: string[] = ['', 'x'.repeat(70), `${'y'.repeat(64)} ${'y'.repeat(65)}`];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let w = next(12); w >= 0; w--) text += WORDS[next(WORDS.length)]! + GLUE[next(GLUE.length)]!;
    out.push(text);
  }
  return out;
}

const QUERIES = [
  'log',
  'logs value',
  'log valu',
  '"logs value"',
  '"log value"',
  '"value value"',
  'x1',
  '"x1 x12"',
  'a b',
  '"co op"',
  'proxy conf',
  'y'.repeat(64),
  'x'.repeat(70),
];

describe('highlighting ASCII text', () => {
  it('finds what the tokenizer finds, term by term, phrase by phrase', () => {
    const samples = texts(300);
    for (const query of QUERIES) {
      const clauses = parseQuery(query);
      // Stemming adds terms to a word: here every word also matches its plural and singular.
      const expansions = new Map<string, string[]>();
      for (const clause of clauses)
        for (const word of clause.text.toLowerCase().split(/[^a-z0-9]+/))
          if (word) expansions.set(word, [`${word}s`, word.replace(/s$/, '')]);
      const plan = planQuery(clauses, expansions);
      const fast = new Highlighter(plan);
      const slow = new Highlighter(plan);
      for (const text of samples) {
        const section = { title: 'Logs', heading: text.slice(0, 12), text };
        const a = fast.match(section);
        const b = slow.match({
          title: section.title + TOKENIZED,
          heading: section.heading + TOKENIZED,
          text: section.text + TOKENIZED,
        });
        expect(a, `${query} in ${JSON.stringify(text)}`).toEqual(b);
        if (text.length < 200)
          expect(fast.snippet(text, a.spans)).toBe(
            slow.snippet(text + TOKENIZED, b.spans).replace(TOKENIZED, ''),
          );
      }
    }
  });
});
