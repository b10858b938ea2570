import { describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { type ContentContext, presentPages } from '../../src/areas/content/present.js';
import type { OpenContent } from '../../src/areas/content/service.js';
import { joinObjects, PageTreeJson } from '../../src/areas/content/tree-json.js';
import type { RevisionContent } from '../../src/content/tree.js';
import { Urls } from '../../src/http/urls.js';
import { content, generated, random } from './page-trees.js';

const urls = new Urls('http://127.0.0.1:1');

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
    expect(first.toString()).toBe(textA);
    expect(trees.of(b.open, b.ctx(true)).toString()).toBe(textB);
    // Kept: the very same bytes come back.
    const again = trees.of(a.open, a.ctx(true));
    expect(again).toBe(first);
    expect(JSON.parse(joinObjects(again, '{"id":"r"}').toString())).toEqual({
      ...JSON.parse(textA),
      id: 'r',
    });
    expect(trees.keptBytes).toBe(Buffer.byteLength(textA) + Buffer.byteLength(textB));
    // Another flag is another answer; adding it pushes out the least recently read (b).
    const withoutMetadata = trees.of(a.open, a.ctx(false));
    expect(trees.keptBytes).toBe(Buffer.byteLength(textA) + withoutMetadata.length);
    expect(trees.keptBytes).toBeLessThanOrEqual(budget);
    expect(trees.of(b.open, b.ctx(true)).toString()).toBe(textB);
  });

  it('joins the members of two JSON objects, empty or not', () => {
    const json = (text: string) => Buffer.from(text);
    expect(JSON.parse(joinObjects(json('{"pages":[1,2]}'), '{}').toString())).toEqual({ pages: [1, 2] });
    expect(JSON.parse(joinObjects(json('{"pages":[]}'), '{"id":"r","files":[]}').toString())).toEqual({
      id: 'r',
      files: [],
      pages: [],
    });
  });
});
