import { describe, expect, it } from 'vitest';
import { PageAnswers } from '../../src/publish/page-answers.js';
import type { PublishedSite } from '../../src/publish/site-data.js';

/** Kept page answers: bounded, and the ones in use outlive the ones not used since they were kept. */
const published = { fingerprint: 'f' } as unknown as PublishedSite;
const answer = (url: string) => ({
  site: { id: 's' },
  url,
  cookie: undefined,
  etag: `"${url}"`,
  headers: { ETag: `"${url}"` },
  view: undefined,
});

describe('PageAnswers', () => {
  it('keeps at most its capacity, forgetting first the oldest answer not used since', () => {
    const answers = new PageAnswers(3);
    for (const url of ['a', 'b', 'c']) answers.keep(url, published, answer(url));
    expect(answers.get('a')?.etag).toBe('"a"');
    answers.keep('d', published, answer('d'));
    // 'a' was used: it gets a second chance and 'b', the oldest not used, goes.
    expect(answers.size).toBe(3);
    expect(answers.get('b')).toBeUndefined();
    expect(answers.get('a')?.url).toBe('a');
    expect(answers.get('c')?.url).toBe('c');
    expect(answers.get('d')?.url).toBe('d');
  });

  it('forgets one even when every answer was used, and keeps an answer kept again once', () => {
    const answers = new PageAnswers(2);
    answers.keep('a', published, answer('a'));
    answers.keep('b', published, answer('b'));
    answers.get('a');
    answers.get('b');
    answers.keep('c', published, answer('c'));
    expect(answers.size).toBe(2);
    expect(answers.get('c')?.url).toBe('c');
    expect([answers.get('a'), answers.get('b')].filter(Boolean)).toHaveLength(1);
    // The same key kept again replaces its answer, and takes no second place.
    answers.keep('c', published, { ...answer('c'), etag: '"c2"' });
    expect(answers.size).toBe(2);
    expect(answers.get('c')?.etag).toBe('"c2"');
  });
});
