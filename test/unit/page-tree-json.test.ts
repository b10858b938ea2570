import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { type ContentContext, presentPages } from '../../src/areas/content/present.js';
import type { OpenContent } from '../../src/areas/content/service.js';
import { type EncodedJson, joinObjects, PageTreeJson } from '../../src/areas/content/tree-json.js';
import { noteDerivation } from '../../src/content/page-indexes.js';
import type { PageNode, RevisionContent } from '../../src/content/tree.js';
import { Urls } from '../../src/http/urls.js';
import { content, edit, generated, node, random } from './page-trees.js';

const urls = new Urls('http://127.0.0.1:1');
const text = (json: EncodedJson) => Buffer.concat(json.parts).toString();

function opened(
  revisionId: string,
  pages: RevisionContent,
): { open: OpenContent; ctx: (metadata: boolean) => ContentContext } {
  const index = PageIndex.of(pages);
  const open = {
    revision: { id: revisionId },
    snapshot: { content: pages },
    index,
  } as unknown as OpenContent;
  return { open, ctx: (metadata) => ({ spaceId: 's1', urls, index, metadata }) };
}

describe('page tree JSON kept per revision', () => {
  it('answers the presented tree, per revision and metadata flag, and forgets beyond its budget', () => {
    const a = opened('rev-a', content(generated(random(1), 60)));
    const b = opened('rev-b', content(generated(random(2), 60)));
    const textA = JSON.stringify({ pages: presentPages(a.open.snapshot.content, a.ctx(true)) });
    const textB = JSON.stringify({ pages: presentPages(b.open.snapshot.content, b.ctx(true)) });
    expect(textA).not.toBe(textB);

    // Room for two trees of this size, not three.
    const budget = Math.ceil(Math.max(textA.length, textB.length) * 2.5);
    const trees = new PageTreeJson(budget);
    const first = trees.of(a.open, a.ctx(true));
    expect(text(first)).toBe(textA);
    expect(text(trees.of(b.open, b.ctx(true)))).toBe(textB);
    // Kept: the very same bytes come back.
    const again = trees.of(a.open, a.ctx(true));
    expect(again).toBe(first);
    expect(JSON.parse(text(joinObjects(again, '{"id":"r"}')))).toEqual({
      ...JSON.parse(textA),
      id: 'r',
    });
    expect(trees.keptBytes).toBe(Buffer.byteLength(textA) + Buffer.byteLength(textB));
    // Another flag is another answer; adding it pushes out the least recently read (b).
    const withoutMetadata = trees.of(a.open, a.ctx(false));
    expect(trees.keptBytes).toBe(Buffer.byteLength(textA) + withoutMetadata.length);
    expect(trees.keptBytes).toBeLessThanOrEqual(budget);
    expect(text(trees.of(b.open, b.ctx(true)))).toBe(textB);
  });

  it('joins the members of two JSON objects, empty or not', () => {
    // In one buffer or several.
    const json = (text: string) => ({ parts: [Buffer.from(text)], length: Buffer.byteLength(text) });
    const parts = (text: string) => ({
      parts: [Buffer.from(text.slice(0, 3)), Buffer.from(text.slice(3))],
      length: Buffer.byteLength(text),
    });
    const joined = (first: string, rest: string) => {
      const one = text(joinObjects(json(first), rest));
      const joinedParts = joinObjects(parts(first), rest);
      expect(text(joinedParts)).toBe(one);
      expect(joinedParts.length).toBe(Buffer.byteLength(one));
      return one;
    };
    expect(JSON.parse(joined('{"pages":[1,2]}', '{}'))).toEqual({ pages: [1, 2] });
    expect(JSON.parse(joined('{"pages":[]}', '{"id":"r","files":[]}'))).toEqual({
      id: 'r',
      files: [],
      pages: [],
    });
  });

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`puts each revision's tree together from the previous one's, as presented whole (seed ${seed})`, () => {
      const next = random(seed);
      // Subtrees of up to 3 pages in one buffer: most are kept as parts, as in a large space.
      const trees = new PageTreeJson(0, { smallSubtree: 3, oneBufferUnder: next() < 0.5 ? 0 : 2 ** 20 });
      let pages = generated(next, 200) as ReadonlyMap<string, PageNode>;
      // Labels, descriptions and text that needs escaping, in the parts as in the whole.
      for (const [id, page] of pages)
        if (next() < 0.2)
          (pages as Map<string, PageNode>).set(id, {
            ...page,
            title: `"pages":[] \u00e9 ${id}`,
            description: 'Ünïcode — "quoted"',
            emoji: '1f600',
          });
      let previous = content(pages);
      const serial = { n: 0 };
      for (let step = 0; step < 50; step++) {
        // Now and then a revision nobody reads: the next one is made from it all the same.
        const change = edit(next, pages, 1 + Math.floor(next() * 6), serial);
        const made = content(change.pages);
        noteDerivation(made, previous, { pages: change.changed, files: new Set(), reusable: false });
        pages = change.pages;
        previous = made;
        if (next() < 0.2) continue;
        const revision = opened(`rev-${step}`, made);
        for (const metadata of next() < 0.5 ? [true, false] : [true]) {
          const whole = JSON.stringify({
            pages: presentPages(revision.open.snapshot.content, revision.ctx(metadata)),
          });
          const answer = trees.of(revision.open, revision.ctx(metadata));
          expect(text(answer)).toBe(whole);
          expect(answer.length).toBe(Buffer.byteLength(whole));
        }
      }
    });
  }

  it('encodes again the pages below a page whose path changed, and for another space', () => {
    const pages = new Map<string, PageNode>([
      ['a', { ...node('a', 'document', null, 'guide', 0) }],
      ['b', { ...node('b', 'document', 'a', 'setup', 0) }],
      ['c', { ...node('c', 'document', 'b', 'more', 0) }],
    ]);
    const trees = new PageTreeJson(0, { smallSubtree: 1, oneBufferUnder: 0 });
    const base = content(pages);
    const first = opened('r1', base);
    expect(text(trees.of(first.open, first.ctx(true)))).toContain('"path":"guide/setup/more"');
    const renamed = new Map(pages).set('a', { ...pages.get('a')!, slug: 'manual' });
    const made = content(renamed);
    noteDerivation(made, base, { pages: new Set(['a']), files: new Set(), reusable: false });
    const second = opened('r2', made);
    const tree = text(trees.of(second.open, second.ctx(true)));
    expect(tree).toContain('"path":"manual/setup/more"');
    expect(tree).not.toContain('guide');
    const elsewhere = { ...second.ctx(true), spaceId: 's2' };
    expect(text(trees.of(second.open, elsewhere))).toContain('/s/s2/manual/setup/more');
  });
});
