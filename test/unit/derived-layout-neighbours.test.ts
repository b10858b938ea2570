import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { pageLinks } from '../../src/areas/content/page-links.js';
import { noteDerivation } from '../../src/content/page-indexes.js';
import type { PageNode, RevisionContent } from '../../src/content/tree.js';
import { pagePaths } from '../../src/git/content-to-repo.js';
import { RepoLayout } from '../../src/git/repo-layout.js';
import { firstDocument, neighbours } from '../../src/publish/site-frame.js';
import { content, edit, generated, random } from './page-trees.js';

/** What `neighbours` answered before it walked from the page: filter the whole reading order. */
function neighboursByFilter(
  index: PageIndex,
  page: PageNode,
  shows: (page: PageNode) => boolean,
): { previous?: string; next?: string } {
  const order = index.inOrder().filter((p) => p.type === 'document' && !p.hidden && shows(p));
  const at = order.findIndex((p) => p.id === page.id);
  const out: { previous?: string; next?: string } = {};
  if (at > 0) out.previous = order[at - 1]!.id;
  if (at >= 0 && order[at + 1]) out.next = order[at + 1]!.id;
  return out;
}

const HREFS = [
  'setup.md',
  '../guide.md',
  'intro/',
  'api/README.md',
  '/setup',
  '/intro/setup#x',
  'SETUP.md',
  '#top',
];

describe('previous and next pages', () => {
  for (const seed of [11, 12, 13]) {
    it(`match the filtered reading order, for every page and visitor (seed ${seed})`, () => {
      const next = random(seed);
      const made = content(generated(next, 200));
      const index = PageIndex.build(made);
      const hiddenFrom = new Set([...made.pages.keys()].filter(() => next() < 0.2));
      const shows = (p: PageNode) => !hiddenFrom.has(p.id);
      const first = firstDocument(index);
      expect(first?.id).toBe(index.inOrder().find((p) => p.type === 'document' && !p.hidden)?.id);
      for (const page of made.pages.values()) {
        for (const filter of [() => true, shows]) {
          const got = neighbours(index, '/s/', page, first, filter);
          const want = neighboursByFilter(index, page, filter);
          expect(got.previous?.href, page.id).toBe(
            want.previous ? pageHref(index, made.pages.get(want.previous)!, first) : undefined,
          );
          expect(got.next?.href, page.id).toBe(
            want.next ? pageHref(index, made.pages.get(want.next)!, first) : undefined,
          );
        }
      }
    });
  }
});

function pageHref(index: PageIndex, page: PageNode, first: PageNode | undefined): string {
  if (first && page.id === first.id) return '/s/';
  return `/s/${index.pathOf(page.id).split('/').map(encodeURIComponent).join('/')}`;
}

describe('repository layout of a derived content', () => {
  for (const seed of [21, 22, 23, 24]) {
    it(`is kept only when the changes lay nothing out elsewhere, and then equals a fresh one (seed ${seed})`, () => {
      const next = random(seed);
      let base: RevisionContent = content(generated(next, 150));
      const serial = { n: 0 };
      let kept = 0;
      for (let step = 0; step < 40; step++) {
        const change = edit(next, base.pages, 1 + Math.floor(next() * 3), serial);
        const made = content(change.pages);
        noteDerivation(made, base, { pages: change.changed, files: new Set(), reusable: false });
        const layout = RepoLayout.of(made);
        const fresh = pagePaths({ ...made }, '');
        expect([...layout.paths].sort()).toEqual([...fresh].sort());
        if (RepoLayout.keepsLayout(base, made, { pages: change.changed, files: false, reusable: false }))
          kept++;
        // Links resolve as they would in a content read from the store (nothing derived).
        const fresher: RevisionContent = { ...made };
        const index = PageIndex.of(made);
        const freshIndex = PageIndex.of(fresher);
        for (const page of [...made.pages.values()].slice(0, 30)) {
          const derived = pageLinks(made, index, { page: page.id });
          const built = pageLinks(fresher, freshIndex, { page: page.id });
          for (const href of HREFS)
            expect(derived.resolve(href), `${page.id} ${href}`).toEqual(built.resolve(href));
        }
        base = made;
      }
      expect(kept).toBeGreaterThan(0);
    });
  }
});
