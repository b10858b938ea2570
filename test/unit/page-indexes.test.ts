import { describe, expect, it } from 'vitest';
import { CowMap } from '../../src/content/cow-map.js';
import {
  childrenOf,
  indexPages,
  type PageGroups,
  type PageIndexes,
  updateIndexes,
} from '../../src/content/page-indexes.js';
import { DEFAULT_LAYOUT, type PageNode } from '../../src/content/tree.js';

function page(id: string, parent: string | null, slug = id): PageNode {
  return {
    id,
    type: 'document',
    parent,
    order: 0,
    title: id,
    slug,
    layout: DEFAULT_LAYOUT,
    body: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** Comparable form: keys sorted, ids sorted, no empty groups. */
function plain<K>(groups: PageGroups<K>): Array<[K, string[]]> {
  return [...groups]
    .filter(([, ids]) => ids.size > 0)
    .map(([key, ids]): [K, string[]] => [key, [...ids].sort()])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
}

function same(indexes: PageIndexes, pages: ReadonlyMap<string, PageNode>): void {
  const built = indexPages(pages);
  expect(plain(indexes.children)).toEqual(plain(built.children));
  expect(plain(indexes.slugs)).toEqual(plain(built.slugs));
  expect(plain(childrenOf(pages))).toEqual(plain(built.children));
}

describe('page indexes', () => {
  it('derived revision after revision, matches the index built from scratch, and leaves the older ones as they were', () => {
    let state = 11;
    const next = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    let pages: ReadonlyMap<string, PageNode> = new Map(
      Array.from({ length: 200 }, (_, i) => [`p${i}`, page(`p${i}`, i < 20 ? null : `p${i % 20}`)]),
    );
    let indexes = indexPages(pages);
    const history: Array<[PageIndexes, ReadonlyMap<string, PageNode>]> = [];
    for (let step = 0; step < 100; step++) {
      const edited = CowMap.of(pages);
      const changed = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const id = `p${Math.floor(next() * 260)}`;
        changed.add(id);
        const roll = next();
        if (roll < 0.25) edited.delete(id);
        else if (roll < 0.6) edited.set(id, page(id, next() < 0.2 ? null : `p${Math.floor(next() * 40)}`));
        else if (roll < 0.8 && edited.has(id)) edited.set(id, { ...edited.get(id)!, slug: `s${step % 7}` });
        else if (edited.has(id)) edited.set(id, { ...edited.get(id)!, title: `t${step}` });
      }
      // An id listed without a change is fine too.
      changed.add('p0');
      indexes = updateIndexes(indexes, pages, edited, changed);
      pages = edited;
      same(indexes, pages);
      history.push([indexes, pages]);
    }
    for (const [old, oldPages] of history) same(old, oldPages);
  });
});
