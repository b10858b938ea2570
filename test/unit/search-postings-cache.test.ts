import { describe, expect, it } from 'vitest';
import { PostingsCache } from '../../src/search/postings/cache.js';

const rows = (bytes: number, positions = false) => [
  {
    chunk: 0,
    entries: new Uint8Array(bytes).fill(1),
    positions: positions ? new Uint8Array(bytes).fill(2) : null,
  },
];

describe('postings kept by a process (search/postings/cache.ts)', () => {
  it('answers a term for the generation it was read at, and forgets it at another', () => {
    const cache = new PostingsCache(1000);
    const put = cache.put('s1', 5, 'harbour', false, rows(10));
    expect(cache.get('s1', 5, 'harbour', false)).toBe(put);
    expect(cache.get('s2', 5, 'harbour', false)).toBeUndefined();
    expect(cache.get('s1', 6, 'harbour', false)).toBeUndefined();
    // Forgotten, not only passed over: the old generation's rows never come back.
    expect(cache.get('s1', 5, 'harbour', false)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps the rows in shared memory, equal to those read', () => {
    const cache = new PostingsCache(1000);
    const [row] = cache.put('s1', 5, 'harbour', true, rows(10, true));
    expect(row!.entries.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(row!.positions!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect([...row!.entries]).toEqual([...rows(10)[0]!.entries]);
  });

  it('reads a term again when its positions are wanted and were not read', () => {
    const cache = new PostingsCache(1000);
    cache.put('s1', 5, 'harbour', false, rows(10));
    expect(cache.get('s1', 5, 'harbour', true)).toBeUndefined();
    cache.put('s1', 5, 'harbour', true, rows(10, true));
    expect(cache.get('s1', 5, 'harbour', true)).toBeDefined();
    expect(cache.get('s1', 5, 'harbour', false)).toBeDefined();
    // Entries and positions, and the index of where the positions of its sections begin.
    const [row] = cache.get('s1', 5, 'harbour', true)!;
    expect(row!.index!.byteLength).toBe(4);
    expect(cache.size).toBe(20 + 4);
  });

  it('drops the terms used longest ago past its budget, and keeps nothing under generation 0', () => {
    const cache = new PostingsCache(100);
    cache.put('s1', 5, 'a', false, rows(20));
    cache.put('s1', 5, 'b', false, rows(20));
    cache.put('s1', 5, 'c', false, rows(20));
    cache.get('s1', 5, 'a', false);
    cache.put('s1', 5, 'd', false, rows(20));
    cache.put('s1', 5, 'e', false, rows(20));
    expect(cache.size).toBe(100);
    cache.put('s1', 5, 'f', false, rows(20));
    expect(cache.size).toBe(100);
    // b was used longest ago (a was asked for since).
    expect(cache.get('s1', 5, 'b', false)).toBeUndefined();
    for (const term of ['a', 'c', 'd', 'e', 'f']) expect(cache.get('s1', 5, term, false)).toBeDefined();
    // A term of more than a quarter of the budget is answered, not kept.
    expect(cache.put('s1', 5, 'g', false, rows(30))[0]!.entries.length).toBe(30);
    expect(cache.get('s1', 5, 'g', false)).toBeUndefined();
    cache.put('s1', 0, 'h', false, rows(10));
    expect(cache.get('s1', 0, 'h', false)).toBeUndefined();
  });
});
