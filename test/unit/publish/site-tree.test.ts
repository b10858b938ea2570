import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../../src/areas/content/page-index.js';
import type { PageNode, RevisionContent } from '../../../src/content/tree.js';
import { renderPage } from '../../../src/publish/render/layout.js';
import type { TreeItem } from '../../../src/publish/render/model.js';
import { renderTree } from '../../../src/publish/render/navigation-html.js';
import { INLINE_LIMIT, sidebarTree, type TreeSource, wholeTree } from '../../../src/publish/site-tree.js';
import { sampleFrame, samplePage } from './sample-site.js';

/** A space's pages from `[id, parent, type?]` rows, in the order given. */
function space(rows: Array<[string, string | null, PageNode['type']?]>): PageIndex {
  const pages = new Map<string, PageNode>();
  rows.forEach(([id, parent, type], order) => {
    pages.set(id, {
      id,
      type: type ?? 'document',
      parent,
      order,
      // Realistic lengths: titles of a few words, slugs of a few words.
      title: `Configuring the ${id} component`,
      slug: `configuring-the-${id}-component`,
      createdAt: '2024-01-01T00:00:00Z',
      updatedAt: '2024-01-01T00:00:00Z',
    });
  });
  const content: RevisionContent = { pages, files: new Map(), reusableContents: new Map(), variables: {} };
  return PageIndex.of(content);
}

const ROOT = 'https://docs.example.com/sites/site_0123456789abcdefghij/';

function sourceOf(index: PageIndex): TreeSource {
  return {
    index,
    spaceRoot: ROOT,
    first: index.inOrder()[0],
    shows: () => true,
    references: new Map(),
  };
}

function flat(items: TreeItem[]): TreeItem[] {
  return items.flatMap((i) => [i, ...flat(i.children)]);
}

/** Bytes the sidebar tree adds to a page when the visitor is on `at`. */
function treeBytes(index: PageIndex, at: string): number {
  const { items } = sidebarTree(sourceOf(index), { page: index.content.pages.get(at) });
  const page = (tree: TreeItem[]) => Buffer.byteLength(renderPage(sampleFrame({ tree }), samplePage()));
  return page(items) - page([]);
}

describe('the sidebar tree of a page', () => {
  it('is the whole tree, current branch open, while the space is small', () => {
    const index = space([
      ['a', null],
      ['a1', 'a'],
      ['b', null],
      ['b1', 'b'],
    ]);
    const { items, trimmed } = sidebarTree(sourceOf(index), { page: index.content.pages.get('a1') });
    expect(trimmed).toBe(false);
    expect(items[1]!.children.map((i) => i.title)).toEqual(['Configuring the b1 component']);
    expect(items[0]!.open).toBe(true);
    expect(items[0]!.children[0]!.active).toBe(true);
  });

  it('in a large space, opens the path to the current page and closes every other branch', () => {
    // The bench's shape: 40 sections of 7 topics of 6 pages.
    const rows: Array<[string, string | null]> = [];
    for (let s = 0; s < 40; s++) {
      rows.push([`s${s}`, null]);
      for (let t = 0; t < 7; t++) {
        rows.push([`s${s}t${t}`, `s${s}`]);
        for (let p = 0; p < 6; p++) rows.push([`s${s}t${t}p${p}`, `s${s}t${t}`]);
      }
    }
    const index = space(rows);
    const { items, trimmed } = sidebarTree(sourceOf(index), { page: index.content.pages.get('s20t3p2') });
    expect(trimmed).toBe(true);
    expect(items).toHaveLength(40);
    const section = items[20]!;
    expect(section.open).toBe(true);
    expect(section.children).toHaveLength(7);
    expect(section.children[3]!.children.map((i) => i.active)).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    // Another section: its title links to its page, its children are not sent.
    expect(items[5]!.href).toBe(`${ROOT}configuring-the-s5-component`);
    expect(items[5]!.closed).toBe(true);
    expect(items[5]!.children).toEqual([]);
    expect(section.children[0]!.closed).toBe(true);
    // The whole tree has every page, nothing current.
    const whole = flat(wholeTree(sourceOf(index)));
    expect(whole).toHaveLength(rows.length);
    expect(whole.some((i) => i.active || i.open)).toBe(false);
    expect(Buffer.byteLength(renderTree(wholeTree(sourceOf(index))))).toBeGreaterThan(400_000);
    expect(treeBytes(index, 's20t3p2')).toBeLessThan(20_000);
  });

  it('closes only the branches with a page the visitor may see under them', () => {
    // The branches are last: the count that tells a small tree from a large one lists none of them.
    const rows: Array<[string, string | null, PageNode['type']?]> = [];
    for (let s = 0; s < INLINE_LIMIT; s++) rows.push([`t${s}`, null]);
    for (let s = 0; s < 5; s++) rows.push([`s${s}`, null]);
    rows.push(['s1x', 's1'], ['s2x', 's2'], ['s3x', 's3'], ['s3y', 's3'], ['s4x', 's4', 'computed']);
    const index = space(rows);
    index.content.pages.get('s1x')!.hidden = true;
    const source: TreeSource = {
      ...sourceOf(index),
      // s2's only page, and s3's first, are for other visitors.
      shows: (page) => page.id !== 's2x' && page.id !== 's3x',
    };
    const { items, trimmed } = sidebarTree(source, { page: index.content.pages.get('t0') });
    expect(trimmed).toBe(true);
    // s1: hidden; s2: not shown; s3: its second page is; s4: a reference not processed yet.
    expect(items.slice(-5).map((i) => i.closed ?? false)).toEqual([false, false, false, true, false]);
  });

  it('shows a window of a huge level, with "more" entries leading on', () => {
    const rows: Array<[string, string | null]> = [];
    for (let i = 0; i < 2000; i++) rows.push([`p${i}`, null]);
    const index = space(rows);
    const { items } = sidebarTree(sourceOf(index), { page: index.content.pages.get('p1000') });
    const more = items.filter((i) => i.kind === 'more');
    expect(more.map((m) => m.title)).toEqual([
      expect.stringMatching(/^\d+ more pages$/),
      expect.stringMatching(/^\d+ more pages$/),
    ]);
    const shown = items.filter((i) => i.kind === 'document');
    expect(shown.length).toBeLessThanOrEqual(150);
    expect(shown.some((i) => i.active)).toBe(true);
    const first = index.content.pages.get(shown[0]!.title.split(' ')[2]!)!;
    // The entry before the window leads to the page just before it.
    expect(more[0]!.href).toBe(`${ROOT}configuring-the-p${first.order - 1}-component`);
    expect(Number(more[0]!.title.split(' ')[0]) + shown.length + Number(more[1]!.title.split(' ')[0])).toBe(
      2000,
    );
    // At the first page, the window starts at the top.
    const top = sidebarTree(sourceOf(index), { page: index.content.pages.get('p0') }).items;
    expect(top[0]!.active).toBe(true);
    expect(top.filter((i) => i.kind === 'more')).toHaveLength(1);
  });

  it('adds under 40 KB to a page whatever the shape of the tree', () => {
    const shapes: Record<string, Array<[string, string | null, PageNode['type']?]>> = {};
    // 2,000 pages side by side.
    shapes.flat = Array.from({ length: 2000 }, (_, i) => [`p${i}`, null] as [string, null]);
    // 100 groups of 20 pages, each with a child.
    shapes.groups = [];
    for (let g = 0; g < 100; g++) {
      shapes.groups.push([`g${g}`, null, 'group']);
      for (let p = 0; p < 20; p++) {
        shapes.groups.push([`g${g}p${p}`, `g${g}`]);
        shapes.groups.push([`g${g}p${p}c`, `g${g}p${p}`]);
      }
    }
    // 2,000 groups of one page.
    shapes.manyGroups = [];
    for (let g = 0; g < 2000; g++) shapes.manyGroups.push([`g${g}`, null, 'group'], [`g${g}p`, `g${g}`]);
    // 14 levels deep, 150 pages wide at every level.
    shapes.deepAndWide = [];
    let parent: string | null = null;
    for (let level = 0; level < 14; level++) {
      for (let i = 0; i < 150; i++) shapes.deepAndWide.push([`l${level}n${i}`, parent]);
      parent = `l${level}n75`;
    }
    for (const [name, rows] of Object.entries(shapes)) {
      const index = space(rows);
      const ids = [...index.content.pages.values()].filter((p) => p.type === 'document').map((p) => p.id);
      for (const at of [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids.at(-1)!]) {
        const bytes = treeBytes(index, at);
        expect(bytes, `${name} at ${at}`).toBeLessThan(40_000);
      }
    }
    const small = space(Array.from({ length: INLINE_LIMIT }, (_, i) => [`p${i}`, null] as [string, null]));
    expect(sidebarTree(sourceOf(small), { page: undefined }).trimmed).toBe(false);
  });
});
