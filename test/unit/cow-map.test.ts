import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/content/cow-map.js';

/** A small deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function same<K, V>(actual: ReadonlyMap<K, V>, expected: Map<K, V>, probe: K[]): void {
  expect(actual.size).toBe(expected.size);
  expect([...actual]).toEqual([...expected]);
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  expect([...actual.values()]).toEqual([...expected.values()]);
  const read = (map: ReadonlyMap<K, V>) => probe.map((key) => [map.has(key), map.get(key)]);
  expect(read(actual)).toEqual(read(expected));
}

describe('CowMap', () => {
  it('reads and iterates exactly like a copied Map edited the same way, deletes and re-adds included', () => {
    const base = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const copy = CowMap.of(base);
    const expected = new Map(base);
    for (const edit of [
      (m: Map<string, number> | CowMap<string, number>) => m.set('b', 20),
      (m: Map<string, number> | CowMap<string, number>) => m.set('d', 4),
      (m: Map<string, number> | CowMap<string, number>) => m.delete('a'),
      (m: Map<string, number> | CowMap<string, number>) => m.set('a', 10),
      (m: Map<string, number> | CowMap<string, number>) => m.delete('d'),
      (m: Map<string, number> | CowMap<string, number>) => m.delete('zz'),
      (m: Map<string, number> | CowMap<string, number>) => m.set('d', 40),
      (m: Map<string, number> | CowMap<string, number>) => m.set('c', 30),
    ]) {
      expect(edit(copy) === copy).toBe(edit(expected) === expected);
      same(copy, expected, ['a', 'b', 'c', 'd', 'zz']);
    }
    expect([...copy]).toEqual([
      ['b', 20],
      ['c', 30],
      ['a', 10],
      ['d', 40],
    ]);
    // The source is untouched.
    expect([...base]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    const seen: string[] = [];
    copy.forEach((value, key, map) => {
      expect(map).toBe(copy);
      seen.push(`${key}=${value}`);
    });
    expect(seen).toEqual(['b=20', 'c=30', 'a=10', 'd=40']);
  });

  it('keeps every version intact along long chains of copies, through re-basing', () => {
    const next = random(7);
    const keys = Array.from({ length: 400 }, (_, i) => `k${i}`);
    let versions: Array<{ map: ReadonlyMap<string, number>; expected: Map<string, number> }> = [
      { map: new Map(keys.slice(0, 300).map((k, i) => [k, i])), expected: new Map() },
    ];
    versions[0]!.expected = new Map(versions[0]!.map);
    for (let step = 0; step < 200; step++) {
      // Mostly from the latest version, sometimes from an older one, as change requests do.
      const from = versions[next() < 0.8 ? versions.length - 1 : Math.floor(next() * versions.length)]!;
      const map = CowMap.of(from.map);
      const expected = new Map(from.expected);
      for (let i = 0, edits = 1 + Math.floor(next() * 30); i < edits; i++) {
        const key = keys[Math.floor(next() * keys.length)]!;
        if (next() < 0.3) expect(map.delete(key)).toBe(expected.delete(key));
        else {
          map.set(key, step * 1000 + i);
          expected.set(key, step * 1000 + i);
        }
      }
      versions.push({ map, expected });
      if (versions.length > 40) versions = versions.slice(-40);
    }
    for (const { map, expected } of versions) same(map, expected, keys);
  });
});
