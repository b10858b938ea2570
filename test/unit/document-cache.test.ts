import { describe, expect, it } from 'vitest';
import { DocumentCache, type DocumentRequest } from '../../src/areas/content/document-cache.js';
import type { ContentRef, JsonDocument } from '../../src/content/document-schema.js';
import type { LinkResolver } from '../../src/content/markdown/links.js';

/** Links of a tree where `other.md` is the page `p2`, found at `path`. */
function treeLinks(path: string, target = 'p2'): LinkResolver {
  return {
    resolve: (href) =>
      href === 'other.md'
        ? ({ kind: 'page', page: target } as ContentRef)
        : ({ kind: 'url', url: href } as ContentRef),
    href: (ref) => (ref.kind === 'page' ? `/${path}` : 'elsewhere'),
  };
}

/** A request for a document not kept in the database. */
function asked(
  key: string,
  tree: string,
  links: LinkResolver,
  markdown: string,
  convert: DocumentRequest['convert'],
): DocumentRequest {
  return { key, tree, links, markdown: () => Promise.resolve(markdown), convert };
}

describe('DocumentCache', () => {
  it('keeps a document across trees while its links answer the same, and converts it again when one does not', async () => {
    const cache = new DocumentCache(10, 10_000);
    let conversions = 0;
    const convert = (_markdown: string, links: LinkResolver) => {
      conversions++;
      const ref = links.resolve('other.md');
      return { object: 'document', data: { href: links.href(ref) }, nodes: [] } as unknown as JsonDocument;
    };
    const first = await cache.get(
      asked('body1\0page1\0v0146', 't1', treeLinks('guide/other'), 'See [other](other.md).', convert),
    );
    expect(
      await cache.get(
        asked('body1\0page1\0v0146', 't1', treeLinks('guide/other'), 'See [other](other.md).', convert),
      ),
    ).toBe(first);
    // Another tree (a merge elsewhere in the space): the same answers, the same document.
    expect(
      await cache.get(
        asked('body1\0page1\0v0146', 't2', treeLinks('guide/other'), 'See [other](other.md).', convert),
      ),
    ).toBe(first);
    expect(conversions).toBe(1);
    // The linked page moved: converted again, with its new place.
    const moved = await cache.get(
      asked('body1\0page1\0v0146', 't3', treeLinks('reference/other'), 'See [other](other.md).', convert),
    );
    expect(conversions).toBe(2);
    expect((moved as unknown as { data: { href: string } }).data.href).toBe('/reference/other');
    // The link now names another page: converted again.
    await cache.get(
      asked(
        'body1\0page1\0v0146',
        't4',
        treeLinks('reference/other', 'p3'),
        'See [other](other.md).',
        convert,
      ),
    );
    expect(conversions).toBe(3);
    // Other markdown is another document.
    await cache.get(
      asked(
        'body2\0page1\0v0146',
        't4',
        treeLinks('reference/other', 'p3'),
        'See [other](other.md).',
        convert,
      ),
    );
    expect(conversions).toBe(4);
  });

  it('forgets the least recently used documents past its bound in markdown', async () => {
    const cache = new DocumentCache(100, 2_500);
    let conversions = 0;
    const convert = () => {
      conversions++;
      return { object: 'document', data: {}, nodes: [] } as unknown as JsonDocument;
    };
    const markdown = 'x'.repeat(999);
    for (const key of ['a', 'b', 'a', 'c'])
      await cache.get(asked(key, 't', treeLinks('p'), markdown, convert));
    expect(conversions).toBe(3);
    // Room for two of 1,000 bytes: b went when c came; a is kept.
    await cache.get(asked('a', 't', treeLinks('p'), markdown, convert));
    expect(conversions).toBe(3);
    await cache.get(asked('b', 't', treeLinks('p'), markdown, convert));
    expect(conversions).toBe(4);
  });
});
