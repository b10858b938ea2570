import { describe, expect, it } from 'vitest';
import { Draft } from '../../src/content/draft.js';
import { childrenOf } from '../../src/content/page-indexes.js';
import { EMPTY_CONTENT, pathOf, type RevisionContent } from '../../src/content/tree.js';

const NOW = '2026-01-01T00:00:00.000Z';

function draftWith(build: (d: Draft) => void): { draft: Draft; content: RevisionContent } {
  const seed = new Draft(EMPTY_CONTENT, NOW);
  build(seed);
  const content = seed.content;
  return { draft: new Draft(content, NOW), content };
}

describe('Draft paths', () => {
  it('gives a new page a slug free in its namespace, which includes the pages of top-level groups', () => {
    const { draft } = draftWith((d) => {
      const group = d.insertPage({ title: 'Group' }, {}, '', 'g');
      d.pages.set(group.id, { ...group, type: 'group' });
      d.insertPage({ title: 'Intro' }, { into: group.id }, '', 'a');
    });
    const top = draft.insertPage({ title: 'Intro' }, {}, '', 'b');
    expect(top.slug).toBe('intro-2');
    draft.checkPaths('body');
  });

  it('refuses a page moved into a group when a top-level page has its path', () => {
    const { draft, content } = draftWith((d) => {
      const group = d.insertPage({ title: 'Group' }, {}, '', 'g');
      d.pages.set(group.id, { ...group, type: 'group' });
      d.insertPage({ title: 'Setup' }, {}, '', 'a');
      d.insertPage({ title: 'Other' }, {}, '', 'b');
    });
    const ids = new Map([...content.pages.values()].map((p) => [p.title, p.id]));
    draft.updatePage(ids.get('Other')!, { slug: 'setup' }, { into: ids.get('Group')! }, undefined, 'c');
    expect(() => draft.checkPaths('body.changes')).toThrow(/path "setup"/);
  });

  it("lets a page take a group's slug when asked (new slugs avoid it), and pages under different parents share slugs", () => {
    const { draft, content } = draftWith((d) => {
      const group = d.insertPage({ title: 'Guides' }, {}, '', 'g');
      d.pages.set(group.id, { ...group, type: 'group' });
      const a = d.insertPage({ title: 'A' }, {}, '', 'a');
      d.insertPage({ title: 'Setup' }, { into: a.id }, '', 'b');
    });
    const page = draft.insertPage({ title: 'Guides', slug: 'guides' }, {}, '', 'x');
    expect(page.slug).toBe('guides');
    expect(draft.insertPage({ title: 'Guides' }, {}, '', 'w').slug).toBe('guides-2');
    const b = draft.insertPage({ title: 'B' }, {}, '', 'y');
    const setup = draft.insertPage({ title: 'Setup' }, { into: b.id }, '', 'z');
    expect(setup.slug).toBe('setup');
    draft.checkPaths('body');
    expect(pathOf(draft.content, setup.id)).toBe('b/setup');
    expect(content.pages.size).toBe(3);
  });

  it('keeps orders in sibling order after deletes and moves', () => {
    const { draft, content } = draftWith((d) => {
      for (const title of ['One', 'Two', 'Three']) d.insertPage({ title }, {}, '', title);
    });
    const ids = new Map([...content.pages.values()].map((p) => [p.title, p.id]));
    draft.deletePage(ids.get('Two')!, 'd');
    const first = draft.insertPage({ title: 'Zero' }, { at: 0 }, '', 'z');
    draft.updatePage(ids.get('One')!, {}, { at: 5 }, undefined, 'm');
    const order = [...draft.pages.values()].sort((a, b) => a.order - b.order).map((p) => p.title);
    expect(order).toEqual(['Zero', 'Three', 'One']);
    expect(first.order).toBeLessThan(draft.pages.get(ids.get('Three')!)!.order);
  });

  it("works the same from the base's index of children, brought up to date with the changes made before it is used", () => {
    const { content } = draftWith((d) => {
      const tops = ['A', 'B', 'C'].map((title) => d.insertPage({ title }, {}, '', title));
      for (const [i, top] of tops.entries())
        for (const title of ['x', 'y', 'z'])
          d.insertPage({ title: `${title}${i}` }, { into: top.id }, '', title);
    });
    const ids = new Map([...content.pages.values()].map((p) => [p.title, p.id]));
    const moved = new Draft(content, NOW);
    moved.updatePage(ids.get('x0')!, {}, { into: ids.get('B')! }, undefined, 'm');
    const source = moved.content;
    const run = (draft: Draft) => {
      // Changes that do not need the index come first: the index must still reflect them.
      draft.revertPage(ids.get('x0')!, source, 'r');
      draft.updatePage(ids.get('y1')!, { title: 'Y1' }, {}, undefined, 'u');
      const deleted = draft.deletePage(ids.get('B')!, 'd').sort();
      draft.updatePage(ids.get('z2')!, {}, { into: ids.get('A')!, at: 0 }, undefined, 'm');
      draft.checkPaths('body');
      return { deleted, pages: [...draft.pages.values()].sort((a, b) => (a.id < b.id ? -1 : 1)) };
    };
    const walked = run(new Draft(content, NOW));
    const indexed = run(new Draft(content, NOW, () => childrenOf(content.pages)));
    expect(indexed).toEqual(walked);
    // x0 was moved under B by the revert, so it went with B.
    expect(walked.deleted).toContain(ids.get('x0'));
    expect(walked.deleted).toHaveLength(5);
  });
});

describe('Draft slugs and orders kept across many changes', () => {
  /** The slugs a page placed under `parent` must avoid, listed from the whole content. */
  function slugsAround(content: RevisionContent, parent: string | null): Set<string> {
    const pages = [...content.pages.values()];
    let owner = parent;
    while (owner !== null && content.pages.get(owner)?.type === 'group')
      owner = content.pages.get(owner)!.parent;
    const slugs = new Set<string>();
    for (const page of pages) {
      if (page.parent !== owner) continue;
      slugs.add(page.slug);
      if (page.type === 'group')
        for (const child of pages) if (child.parent === page.id) slugs.add(child.slug);
    }
    return slugs;
  }
  const freeIn = (taken: Set<string>, wanted: string) => {
    if (!taken.has(wanted)) return wanted;
    for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
  };
  /** The order of a page placed last under `parent`: after its highest, 1 under no page. */
  const orderAtEnd = (content: RevisionContent, parent: string | null, except?: string) => {
    const orders = [...content.pages.values()]
      .filter((p) => p.parent === parent && p.id !== except)
      .map((p) => p.order);
    return orders.length === 0 ? 1 : Math.max(...orders) + 1;
  };

  it('gives every insert and move the slug and order a listing of the whole content gives', () => {
    // A seeded sequence of inserts (a few titles, so slugs collide), moves, renames and deletes.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const { draft: base } = draftWith((d) => {
      const group = d.insertPage({ title: 'Guides' }, {}, '', 'g');
      d.pages.set(group.id, { ...group, type: 'group' });
    });
    const draft = base;
    const titles = ['Setup', 'Intro', 'Limits', 'Guides', 'FAQ'];
    for (let step = 0; step < 1500; step++) {
      const pages = [...draft.pages.values()];
      const pick = () => pages[Math.floor(random() * pages.length)]!;
      const parentOf = () => {
        const roll = random();
        if (roll < 0.4) return null;
        const candidate = pick();
        return candidate.type === 'group' || roll < 0.8 ? candidate.id : null;
      };
      const roll = random();
      if (roll < 0.6 || pages.length < 5) {
        const into = parentOf();
        const title = titles[Math.floor(random() * titles.length)]!;
        const expected = freeIn(slugsAround(draft.content, into), title.toLowerCase());
        // Now and then at a place among the siblings rather than last.
        const at = random() < 0.2 ? Math.floor(random() * 4) : undefined;
        const order = orderAtEnd(draft.content, into);
        const page = draft.insertPage({ title }, { into, at }, '', `i${step}`);
        expect(page.slug).toBe(expected);
        if (at === undefined) expect(page.order).toBe(order);
      } else if (roll < 0.8) {
        const page = pick();
        if (page.type === 'group') continue;
        const into = parentOf();
        if (into === page.id) continue;
        let inside = false;
        for (let p = into; p !== null; p = draft.pages.get(p)?.parent ?? null)
          if (p === page.id) inside = true;
        if (inside) continue;
        const at = random() < 0.2 ? Math.floor(random() * 4) : undefined;
        const order = orderAtEnd(draft.content, into, page.id);
        const moved = draft.updatePage(page.id, {}, { into, at }, undefined, `m${step}`);
        if (at === undefined) expect(moved.order).toBe(order);
      } else if (roll < 0.9) {
        const page = pick();
        draft.updatePage(page.id, { slug: `s${Math.floor(random() * 5)}` }, {}, undefined, `r${step}`);
      } else {
        const page = pick();
        if (page.type !== 'group') draft.deletePage(page.id, `d${step}`);
      }
    }
    expect(draft.pages.size).toBeGreaterThan(100);
  });

  it('inserts thousands of pages under one parent, each with a free slug, in order', () => {
    const { draft } = draftWith(() => {});
    const made = Array.from({ length: 5000 }, (_, n) =>
      draft.insertPage({ title: n % 2 ? 'Release notes' : `Page ${n}` }, {}, '', `p${n}`),
    );
    expect(new Set(made.map((p) => p.slug)).size).toBe(5000);
    expect(made[4999]!.slug).toBe('release-notes-2500');
    for (let i = 1; i < made.length; i++) expect(made[i]!.order).toBeGreaterThan(made[i - 1]!.order);
    draft.checkPaths('body');
  });
});
