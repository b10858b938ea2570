import { describe, expect, it } from 'vitest';
import type { ContentRef } from '../../../src/content/document-schema.js';
import {
  documentToMarkdown,
  extractLinks,
  type LinkResolver,
  markdownToDocument,
} from '../../../src/content/markdown/index.js';
import { checkSchema } from '../../helpers/official-spec.js';

describe('extractLinks', () => {
  it('lists every link target in order, with its kind, as written', () => {
    const markdown = [
      '# Links <a href="#links" id="links"></a>',
      '',
      'See [setup](guides/setup.md), [below](#faq), <https://example.com> and ![logo](.gitbook/assets/logo.png).',
      '',
      'A [reference][ref] link.',
      '',
      '[ref]: ../other/page.md',
      '',
      '{% hint style="info" %}',
      '* [in a hint](hint.md)',
      '{% endhint %}',
      '',
      '<figure><img src=".gitbook/assets/shot.png" alt=""><figcaption></figcaption></figure>',
      '',
      '{% embed url="https://youtube.com/watch?v=1" %}',
      '',
      '{% file src=".gitbook/assets/guide.pdf" %}',
      'A caption',
      '{% endfile %}',
      '',
      '{% content-ref url="guides/" %}',
      '[guides](guides/)',
      '{% endcontent-ref %}',
      '',
      '```md',
      '[not a link](in-code.md)',
      '```',
      '',
    ].join('\n');
    expect(extractLinks(markdown)).toEqual([
      { href: 'guides/setup.md', kind: 'link' },
      { href: '#faq', kind: 'link' },
      { href: 'https://example.com', kind: 'link' },
      { href: '.gitbook/assets/logo.png', kind: 'image' },
      { href: '../other/page.md', kind: 'link' },
      { href: 'hint.md', kind: 'link' },
      { href: '.gitbook/assets/shot.png', kind: 'image' },
      { href: 'https://youtube.com/watch?v=1', kind: 'embed' },
      { href: '.gitbook/assets/guide.pdf', kind: 'file' },
      { href: 'guides/', kind: 'content-ref' },
    ]);
  });

  it('finds nothing in plain text', () => {
    expect(extractLinks('Just words.\n')).toEqual([]);
  });
});

/** Knows one page (`guides/setup.md` is p1) and two files, as the content layer would. */
const resolver: LinkResolver = {
  resolve(href) {
    const [path = '', anchor] = href.split('#');
    if (path === 'guides/setup.md')
      return anchor ? { kind: 'anchor', page: 'p1', anchor } : { kind: 'page', page: 'p1' };
    if (path === '' && anchor) return { kind: 'anchor', anchor };
    if (path === '.gitbook/assets/diagram.png') return { kind: 'file', file: 'f1' };
    if (path === '.gitbook/assets/guide.pdf') return { kind: 'file', file: 'f2' };
    return { kind: 'url', url: href };
  },
  href(ref: ContentRef) {
    switch (ref.kind) {
      case 'page':
        return ref.page === 'p1' ? 'guides/setup.md' : ref.page;
      case 'anchor':
        return `${ref.page === 'p1' ? 'guides/setup.md' : ''}#${ref.anchor}`;
      case 'file':
        return { f1: '.gitbook/assets/diagram.png', f2: '.gitbook/assets/guide.pdf' }[ref.file] ?? ref.file;
      case 'url':
        return ref.url;
      default:
        return '#';
    }
  },
};

describe('link resolver hooks', () => {
  const markdown = [
    'Read [Setup](guides/setup.md), then [its install step](guides/setup.md#install) or [this](#faq).',
    '',
    '![Diagram](.gitbook/assets/diagram.png)',
    '',
    'Inline ![diagram](.gitbook/assets/diagram.png) and [external](https://example.com).',
    '',
    '{% file src=".gitbook/assets/guide.pdf" %}',
    '',
    '{% content-ref url="guides/setup.md" %}',
    '[guides/setup.md](guides/setup.md)',
    '{% endcontent-ref %}',
    '',
  ].join('\n');

  it('markdown hrefs become page, anchor and file references', () => {
    const document = markdownToDocument(markdown, resolver);
    expect(checkSchema('JSONDocument', document)).toEqual([]);
    const json = JSON.stringify(document);
    for (const ref of [
      { kind: 'page', page: 'p1' },
      { kind: 'anchor', page: 'p1', anchor: 'install' },
      { kind: 'anchor', anchor: 'faq' },
      { kind: 'file', file: 'f1' },
      { kind: 'url', url: 'https://example.com' },
    ]) {
      expect(json).toContain(JSON.stringify(ref));
    }
    expect(document.nodes[3]).toEqual({
      object: 'block',
      type: 'file',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'f2' } },
    });
    expect(document.nodes[4]).toEqual({
      object: 'block',
      type: 'content-ref',
      isVoid: true,
      data: { ref: { kind: 'page', page: 'p1' } },
    });
  });

  it('references become the same hrefs again', () => {
    const document = markdownToDocument(markdown, resolver);
    expect(documentToMarkdown(document, resolver)).toBe(markdown);
  });

  it('images only take file or URL references', () => {
    const document = markdownToDocument('![Not an image](guides/setup.md)\n', resolver);
    expect(document.nodes[0]).toMatchObject({
      nodes: [{ data: { ref: { kind: 'url', url: 'guides/setup.md' } } }],
    });
    expect(checkSchema('JSONDocument', document)).toEqual([]);
  });

  it('without a resolver, hrefs stay URLs and file sources stay their text', () => {
    const document = markdownToDocument(markdown);
    expect(JSON.stringify(document)).not.toContain('"page"');
    expect(document.nodes[3]).toMatchObject({
      data: { ref: { kind: 'file', file: '.gitbook/assets/guide.pdf' } },
    });
    expect(documentToMarkdown(document)).toBe(markdown);
  });
});
