import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { noteDerivation } from '../../src/content/page-indexes.js';
import type { PageNode } from '../../src/content/tree.js';
import { content, edit, generated, random } from './page-trees.js';

function same(derived: PageIndex, built: PageIndex, pages: ReadonlyMap<string, PageNode>): void {
  const ids = [...pages.keys()];
  for (const id of ids) {
    expect(derived.pathOf(id), id).toBe(built.pathOf(id));
    expect(derived.reaches(id), id).toBe(built.reaches(id));
  }
  for (const parent of [null, ...ids, 'missing'])
    expect(derived.childrenOf(parent).map((p) => p.id)).toEqual(built.childrenOf(parent).map((p) => p.id));
  for (const path of new Set(ids.map((id) => built.pathOf(id))))
    expect(derived.pageAt(path)?.id, path).toBe(built.pageAt(path)?.id);
  expect(derived.inOrder().map((p) => p.id)).toEqual(built.inOrder().map((p) => p.id));
  for (const page of derived.inOrder()) {
    const list = built.childrenOf(page.parent);
    expect(derived.siblingIndex(page)).toBe(list.findIndex((p) => p.id === page.id));
  }
}

describe('PageIndex derived from the previous revision', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`matches the index built from scratch, revision after revision (seed ${seed})`, () => {
      const next = random(seed);
      let pages: ReadonlyMap<string, PageNode> = generated(next, 150);
      let index = PageIndex.build(content(pages));
      const serial = { n: 0 };
      for (let step = 0; step < 60; step++) {
        const change = edit(next, pages, 1 + Math.floor(next() * 6), serial);
        const nextContent = content(change.pages);
        const derived = index.derive(nextContent, change.changed);
        same(derived, PageIndex.build(nextContent), change.pages);
        pages = change.pages;
        index = derived;
      }
    });
  }

  it('is what PageIndex.of answers for a content noted as made from another', () => {
    const next = random(9);
    const base = content(generated(next, 80));
    const baseIndex = PageIndex.of(base);
    const change = edit(next, base.pages, 3, { n: 0 });
    const made = content(change.pages);
    noteDerivation(made, base, { pages: change.changed, files: new Set(), reusable: false });
    const index = PageIndex.of(made);
    expect(index).not.toBe(baseIndex);
    same(index, PageIndex.build(made), made.pages);
  });
});
