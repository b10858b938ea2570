import fastJsonStringify from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { SearchPageResult, SearchSpaceResult } from '../../src/areas/search/schemas.js';
import { answerParts } from '../../src/http/answer-pieces.js';
import { listOf } from '../../src/http/schemas.js';
import { responseSerializerCompiler } from '../../src/http/validators.js';

const schema = listOf(SearchPageResult);
const whole = fastJsonStringify(schema as never) as (data: unknown) => string;
const serializerOf = (of: object) =>
  responseSerializerCompiler()({ schema: of, method: 'GET', url: '/', httpStatus: '200' }) as unknown as (
    data: unknown,
  ) => string | Buffer;
const serializer = () => serializerOf(schema);

/** A search hit as the presenter makes it, in the words of a GitBook runbook (curly quotes, dashes, accents). */
function hit(n: number) {
  const url = `https://docs.example.com/app/s/space/runbooks/replica-${n}`;
  return {
    id: `page${n}`,
    title: `Replica ${n} — “failover” runbook`,
    description: `Restoring replica ${n} after a failover; the operator’s checklist, café edition.`,
    path: `runbooks/replica-${n}`,
    score: 3.5 - n / 1000,
    rank: n + 1,
    resultType: 'section',
    sections: [0, 1].map((s) => ({
      id: `page${n}#step-${s}`,
      title: `Step ${s}: copy the snapshot`,
      path: `runbooks/replica-${n}#step-${s}`,
      score: 2,
      resultType: 'section',
      body: `…the snapshot of the last <mark>failover</mark> is copied from the primary — never promote a replica that is more than one <mark>failover</mark> behind. 日本語のテキスト…`,
      urls: { app: `${url}#step-${s}` },
      // Not in the schema: left out, as the whole answer's serializer leaves it out.
      internal: 'not sent',
    })),
    ancestors: [{ title: 'Runbooks' }],
    urls: { app: url },
  };
}

describe('long answers', () => {
  it('sends a long list as bytes, the same bytes as the whole answer serialized at once', () => {
    const serialize = serializer();
    for (const next of [undefined, { page: 'cursor-“1”' }]) {
      const answer = {
        items: Array.from({ length: 100 }, (_, n) => hit(n)),
        count: 4321,
        ...(next ? { next } : {}),
      };
      const sent = serialize(answer);
      const text = whole(answer);
      // The path taken: the answer is past one text's size (64K characters).
      expect(text.length).toBeGreaterThan(64 * 1024);
      expect(Buffer.isBuffer(sent)).toBe(true);
      expect((sent as Buffer).equals(Buffer.from(text))).toBe(true);
      expect(JSON.parse(sent.toString()).items[0].sections[0].internal).toBeUndefined();
    }
  });

  it('sends a short list as the same text as the whole answer', () => {
    const serialize = serializer();
    for (const items of [[], [hit(0)], Array.from({ length: 30 }, (_, n) => hit(n))]) {
      const answer = { items, count: items.length };
      expect(serialize(answer)).toBe(whole(answer));
    }
  });

  it('splits an organization search whose hits are all in one space at the pages of that space', () => {
    const spaces = listOf(SearchSpaceResult);
    const serialize = serializerOf(spaces);
    const answer = {
      items: [
        {
          type: 'space',
          id: 'space1',
          title: 'Runbooks — “ops”',
          score: 3.5,
          pages: Array.from({ length: 100 }, (_, n) => hit(n)),
        },
      ],
      count: 100,
    };
    const text = (fastJsonStringify(spaces as never) as (data: unknown) => string)(answer);
    expect(text.length).toBeGreaterThan(64 * 1024);
    const sent = serialize(answer);
    expect(Buffer.isBuffer(sent)).toBe(true);
    expect((sent as Buffer).equals(Buffer.from(text))).toBe(true);
    // Made a page at a time: the space's item is not one text.
    const parts = answerParts(spaces, fastJsonStringify(spaces as never) as (data: unknown) => string)!(
      answer,
    );
    expect(Math.max(...parts.map((part) => part.length))).toBeLessThan(4096);
    expect(parts.join('')).toBe(text);
  });

  it('writes whole an object whose list is not where its serializer writes it', () => {
    // Properties beyond those declared come after them: the last declared is not written last.
    const open = {
      type: 'object',
      properties: {
        id: { type: 'string' },
        pages: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } },
      },
      additionalProperties: true,
    };
    const answer = {
      id: 'x',
      pages: Array.from({ length: 3000 }, (_, n) => ({ title: `Page ${n} — “draft”` })),
      extra: 'kept',
    };
    const text = (fastJsonStringify(open as never) as (data: unknown) => string)(answer);
    expect(text.endsWith('"extra":"kept"}')).toBe(true);
    expect(Buffer.from(serializerOf(open)(answer)).equals(Buffer.from(text))).toBe(true);
  });

  it('fails on items that are not a list, as the whole answer does', () => {
    const serialize = serializer();
    expect(() => whole({ items: 'x', count: 1 })).toThrow();
    expect(() => serialize({ items: 'x', count: 1 })).toThrow();
  });
});
