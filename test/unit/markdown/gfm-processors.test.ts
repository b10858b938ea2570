import { describe, expect, it } from 'vitest';
import { spacePages } from '../../../bench/scale/content.js';
import { GFM_PROCESSORS, gfmProcessorFor } from '../../../src/content/markdown/gfm-processors.js';
import { fixtureTexts, PAGE } from './fixtures.js';

const { full, withoutEmails, withoutAutolinks } = GFM_PROCESSORS;

/**
 * Texts where one clause of the choice decides: each gets a literal autolink from the full
 * parser, so a cheaper parser chosen for it would answer another tree.
 */
const DECIDING = [
  'Write to ops@example.com for access.',
  'Write to ops\\@example.com, escaped.',
  'See www.example.com/docs for more.',
  'See WWW.EXAMPLE.COM in capitals.',
  'An escaped dot: www\\.example.com.',
  'Read https://example.com/guide?x=1 first.',
  'Or HTTP://EXAMPLE.COM, shouted.',
  'Escaped: https\\://example.com and http:\\/\\/example.org.',
  'An entity: ops&#64;example.com.',
  'Another: &#x77;ww.example.com.',
  'In a list:\n\n- mailto:ops@example.com\n- xmpp:bot@example.com/res',
];

describe('GFM parsers chosen by what a text holds', () => {
  it('each deciding text has a literal autolink, which the parser without them does not see', () => {
    for (const text of DECIDING) {
      const tree = full.parse(text);
      expect(JSON.stringify(tree), text).toContain('"type":"link"');
      expect(withoutAutolinks.parse(text), text).not.toEqual(tree);
      expect(gfmProcessorFor(text).parse(text), text).toEqual(tree);
    }
    // The email construct alone: taken out, an email in a strikethrough parses otherwise.
    const emphasised = 'Struck: ~~ops@example.com~~ now.';
    expect(withoutEmails.parse(emphasised)).not.toEqual(full.parse(emphasised));
    expect(gfmProcessorFor(emphasised)).toBe(full);
  });

  it('answers the tree of the full parser for the fixtures, and for them without emails or links', () => {
    const texts = [['PAGE', PAGE] as [string, string], ...fixtureTexts()];
    expect(texts.length).toBeGreaterThan(50);
    const chosen = new Map<unknown, number>();
    for (const [name, original] of texts) {
      // The same real text with its emails gone, then its links' addresses too: the cheaper
      // parsers get real content, not only texts shaped for them.
      const variants = [
        original,
        original.replaceAll('@', ' at '),
        original
          .replaceAll('@', ' at ')
          .replace(/https?:\/\//gi, '')
          .replace(/www\./gi, '')
          .replaceAll('&', ' and '),
      ];
      for (const text of variants) {
        const processor = gfmProcessorFor(text);
        chosen.set(processor, (chosen.get(processor) ?? 0) + 1);
        expect(processor.parse(text), name).toEqual(full.parse(text));
      }
    }
    // Each of the three parsers was checked on many texts.
    for (const processor of [full, withoutEmails, withoutAutolinks])
      expect(chosen.get(processor) ?? 0).toBeGreaterThan(9);
  });

  it('answers the tree of the full parser for the pages of bench/scale', () => {
    for (const spec of spacePages(300, 3))
      expect(gfmProcessorFor(spec.markdown).parse(spec.markdown)).toEqual(full.parse(spec.markdown));
  });
});
