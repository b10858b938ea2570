import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/lru.js';

describe('Lru', () => {
  it('forgets the least recently used entries beyond its capacity', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('forgets beyond a total weight, keeping the newest entry whatever it weighs', () => {
    const lru = new Lru<string, number>(100, { weigh: (n) => n, maxWeight: 10 });
    lru.set('a', 4);
    lru.set('b', 4);
    expect(lru.totalWeight).toBe(8);
    lru.get('a');
    lru.set('c', 4);
    // b was the least recently used.
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual([4, 4]);
    expect(lru.totalWeight).toBe(8);
    // Setting a key again replaces its weight.
    lru.set('a', 1);
    expect(lru.totalWeight).toBe(5);
    lru.set('huge', 50);
    expect(lru.size).toBe(1);
    expect(lru.get('huge')).toBe(50);
    expect(lru.totalWeight).toBe(50);
  });
});
