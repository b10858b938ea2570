import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { noteDerivation } from '../../src/content/page-indexes.js';
import type { PageNode } from '../../src/content/tree.js';
import { computedReferences, computedSpecs } from '../../src/publish/api-reference.js';
import { content, generated, node, random } from './page-trees.js';

function computed(id: string, spec: string): PageNode {
  return {
    ...node(id, 'computed', null, `ref-${id}`, 0),
    computed: {
      type: 'builtin:openapi',
      dependencies: { spec: { ref: { kind: 'openapi', spec } } },
      props: {},
    },
  };
}

const document = {
  openapi: '3.0.0',
  info: { title: 'T', version: '1' },
  paths: { '/a': { get: { tags: ['a'] } } },
};

/** Specs and references of a content, as read from a copy nobody derived anything for. */
function fresh(pages: ReadonlyMap<string, PageNode>) {
  const index = PageIndex.build(content(new Map(pages)));
  return { specs: computedSpecs(index), refs: computedReferences(index, () => document) };
}

describe('the computed pages of a revision made from another', () => {
  it('follow every change (added, retyped, re-pointed, removed) like a walk over every page', () => {
    const next = random(4);
    let pages = new Map(generated(next, 120));
    pages.set('c1', computed('c1', 'petstore'));
    pages.set('c2', computed('c2', 'billing'));
    let current = content(pages);
    expect(computedSpecs(PageIndex.of(current))).toEqual(new Set(['petstore', 'billing']));

    /** Each step edits the pages and names those it changed (a superset is allowed). */
    const steps: Array<(p: Map<string, PageNode>) => string[]> = [
      (p) => {
        p.set('c3', computed('c3', 'users'));
        return ['c3'];
      },
      (p) => {
        p.set('c1', { ...p.get('c1')!, type: 'document', computed: undefined });
        return ['c1'];
      },
      (p) => {
        p.set('c2', computed('c2', 'users'));
        return ['c2'];
      },
      (p) => {
        p.delete('c3');
        return ['c3'];
      },
      (p) => {
        p.set('p5', computed('p5', 'orders'));
        return ['p5', 'p7'];
      },
      (p) => {
        p.delete('c2');
        p.delete('p5');
        return ['c2', 'p5'];
      },
    ];
    for (const step of steps) {
      const edited = new Map(pages);
      const changed = step(edited);
      const made = content(edited);
      noteDerivation(made, current, { pages: new Set(changed), files: new Set(), reusable: false });
      const index = PageIndex.of(made);
      const expected = fresh(edited);
      expect(computedSpecs(index)).toEqual(expected.specs);
      if (expected.specs.size > 0) expect(expected.refs.size).toBeGreaterThan(0);
      expect(new Set(computedReferences(index, () => document).keys())).toEqual(
        new Set(expected.refs.keys()),
      );
      pages = edited;
      current = made;
    }
    expect(computedSpecs(PageIndex.of(current))).toEqual(new Set());
  });
});
