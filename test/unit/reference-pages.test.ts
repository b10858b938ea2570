import { describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown/to-document.js';
import { referencePageMarkdown, referencePages } from '../../src/openapi/reference-pages.js';

/** A spec written the way public APIs write theirs: declared tags, an untagged health check. */
const spec = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  tags: [
    { name: 'Stores', description: 'Where pets live.' },
    { name: 'Pets', description: 'Everything about your *pets*.' },
    { name: 'Unused' },
  ],
  paths: {
    '/pets': {
      get: { tags: ['Pets'], summary: 'List pets' },
      post: { tags: ['Pets', 'Stores'], summary: 'Add a pet' },
      parameters: [{ name: 'x', in: 'query' }],
    },
    '/pets/{petId}': { get: { tags: ['Pets'], summary: 'Get a pet' }, delete: { tags: ['Pets'] } },
    '/stores': { get: { tags: ['Stores'], summary: 'List stores' } },
    '/health': { get: { summary: 'Health' } },
    '/owners': { get: { tags: ['Owners & "friends"'], summary: 'List owners' } },
    'not-a-path': { get: { summary: 'ignored' } },
  },
  components: { schemas: { Pet: { type: 'object' }, Store: { type: 'object' } } },
};

describe('reference pages', () => {
  it('makes one page per tag, declared tags first, operations under their first tag', () => {
    const pages = referencePages(spec, { models: true });
    expect(pages.map((p) => [p.slug, p.title, p.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ['stores', 'Stores', ['get /stores']],
      ['pets', 'Pets', ['get /pets', 'post /pets', 'get /pets/{petId}', 'delete /pets/{petId}']],
      ['owners-friends', 'Owners & "friends"', ['get /owners']],
      ['other-operations', 'Other operations', ['get /health']],
      ['models', 'Models', []],
    ]);
    expect(pages[1]!.description).toBe('Everything about your *pets*.');
    expect(pages.at(-1)!.schemas).toEqual(['Pet', 'Store']);
    // An operation without a summary is named by its method and path.
    expect(pages[1]!.operations[3]!.summary).toBe('DELETE /pets/{petId}');
  });

  it('makes one page per operation when asked', () => {
    const pages = referencePages(spec, { grouping: 'by-operation' });
    expect(pages.map((p) => p.slug)).toEqual([
      'list-pets',
      'add-a-pet',
      'get-a-pet',
      'delete-pets-petid',
      'list-stores',
      'health',
      'list-owners',
    ]);
  });

  it('writes pages as GitBook markdown that reads back into operation blocks', () => {
    const [stores, pets] = referencePages(spec);
    const markdown = referencePageMarkdown('petstore', pets!);
    const document = markdownToDocument(markdown, { profile: 'v0202' }) as unknown as {
      nodes: Array<{ type: string; data?: Record<string, unknown> }>;
    };
    expect(document.nodes.map((n) => n.type)).toEqual([
      'paragraph',
      'openapi-operation',
      'openapi-operation',
      'openapi-operation',
      'openapi-operation',
    ]);
    expect(document.nodes[3]!.data).toEqual({
      ref: { kind: 'openapi', spec: 'petstore' },
      path: '/pets/{petId}',
      method: 'get',
    });
    expect(referencePageMarkdown('petstore', stores!)).toContain('Where pets live.');
  });

  it('reads hostile documents without throwing', () => {
    for (const bad of [
      null,
      'x',
      [],
      { paths: [] },
      { paths: { '/a': 'b' } },
      { tags: 'x', paths: { '/a': { get: 1 } } },
    ])
      expect(referencePages(bad, { models: true })).toEqual([]);
  });
});
