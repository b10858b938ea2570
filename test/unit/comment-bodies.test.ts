import { describe, expect, it } from 'vitest';
import { bodyIn, markdownOfBody } from '../../src/areas/comments/bodies.js';
import { checkReactions } from '../../src/areas/comments/reactions.js';

describe('comment reactions', () => {
  it('accepts single emoji, with modifiers, flags and joined sequences', () => {
    expect(checkReactions(['👍', '👍🏽', '❤️', '❤', '🇫🇷', '👨‍👩‍👧', '👍'], 'f')).toEqual([
      '👍',
      '👍🏽',
      '❤️',
      '❤',
      '🇫🇷',
      '👨‍👩‍👧',
    ]);
  });

  it('refuses words, shortcodes and several emoji at once, naming the item', () => {
    for (const bad of ['thumbsup', ':+1:', '1', '#', '👍👍', 'a👍']) {
      expect(() => checkReactions(['🎉', bad], 'body.addedReactions')).toThrow(
        /body\.addedReactions\.1 must be a single emoji/,
      );
    }
  });
});

describe('comment bodies', () => {
  it('stores markdown as written and converts documents to markdown', () => {
    expect(markdownOfBody({ markdown: 'Hi **there**' }, 'body.body')).toBe('Hi **there**');
    const document = bodyIn('Hi **there**', 'document').document;
    expect(markdownOfBody({ document }, 'body.body').trim()).toBe('Hi **there**');
  });

  it('refuses empty, ambiguous and oversized bodies', () => {
    expect(() => markdownOfBody({}, 'body.body')).toThrow(/body\.body must hold exactly one/);
    expect(() => markdownOfBody({ markdown: 'a', document: {} }, 'body.body')).toThrow(/exactly one/);
    expect(() => markdownOfBody({ markdown: '  \n ' }, 'body.body')).toThrow(
      /body\.body\.markdown must not be empty/,
    );
    expect(() => markdownOfBody({ markdown: 'x'.repeat(20_001) }, 'body.body')).toThrow(/at most 20000/);
    expect(() => markdownOfBody({ document: { object: 'nope' } }, 'body.body')).toThrow(
      /body\.body\.document/,
    );
  });
});
