import { describe, expect, it } from 'vitest';
import { escapeHtml, safeHref, safeSrc } from '../../../src/publish/render/escape.js';
import { renderLlmsTxt, renderRobots, renderSitemap } from '../../../src/publish/render/site-files.js';

describe('renderSitemap', () => {
  it('lists the URLs, escaped', () => {
    expect(renderSitemap(['https://docs.example.com/', 'https://docs.example.com/a?x=1&y=<2>'])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '  <url><loc>https://docs.example.com/</loc></url>\n' +
        '  <url><loc>https://docs.example.com/a?x=1&amp;y=&lt;2&gt;</loc></url>\n' +
        '</urlset>\n',
    );
  });

  it('drops characters XML cannot hold', () => {
    expect(renderSitemap(['https://x.test/\u0001a'])).toContain('<loc>https://x.test/a</loc>');
  });

  it('is a valid empty sitemap without URLs', () => {
    expect(renderSitemap([])).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>',
    );
  });
});

describe('renderRobots', () => {
  it('allows crawling and names the sitemap', () => {
    expect(renderRobots({ allow: true, sitemapUrl: 'https://docs.example.com/sitemap.xml' })).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://docs.example.com/sitemap.xml\n',
    );
  });

  it('disallows everything for sites that must not be indexed', () => {
    expect(renderRobots({ allow: false, sitemapUrl: 'https://x.test/sitemap.xml' })).toBe(
      'User-agent: *\nDisallow: /\n',
    );
  });

  it('cannot be given extra lines', () => {
    expect(renderRobots({ allow: true, sitemapUrl: 'https://x.test/s.xml\nDisallow: /' })).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://x.test/s.xml Disallow: /\n',
    );
  });
});

describe('renderLlmsTxt', () => {
  it('writes the llms.txt format', () => {
    expect(
      renderLlmsTxt({ title: 'Quire Docs', description: 'Docs for Quire.' }, [
        {
          title: 'Quick start',
          href: 'https://docs.example.com/quick-start.md',
          description: 'Install Quire.',
        },
        { title: 'Setup', href: 'https://docs.example.com/guides/setup.md' },
      ]),
    ).toBe(
      '# Quire Docs\n\n> Docs for Quire.\n\n## Pages\n\n' +
        '- [Quick start](https://docs.example.com/quick-start.md): Install Quire.\n' +
        '- [Setup](https://docs.example.com/guides/setup.md)\n',
    );
  });

  it('groups pages by section, in order of appearance', () => {
    const text = renderLlmsTxt({ title: 'Docs' }, [
      { title: 'A', href: '/a', section: 'Guides' },
      { title: 'B', href: '/b', section: 'API' },
      { title: 'C', href: '/c', section: 'Guides' },
    ]);
    expect(text).toBe('# Docs\n\n## Guides\n\n- [A](/a)\n- [C](/c)\n\n## API\n\n- [B](/b)\n');
  });

  it('keeps every entry on one line and its link intact', () => {
    const text = renderLlmsTxt({ title: 'Two\nlines', description: 'a\r\nb' }, [
      { title: 'Bra[ck]ets\n# injected', href: 'https://x.test/a b(c).md', description: 'one\ntwo' },
    ]);
    expect(text).toBe(
      '# Two lines\n\n> a b\n\n## Pages\n\n- [Bra\\[ck\\]ets # injected](https://x.test/a%20b%28c%29.md): one two\n',
    );
  });
});

describe('escaping', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('lets links use http, https, mailto and relative URLs only', () => {
    for (const ok of [
      'https://x.test/a',
      'HTTP://x.test',
      'mailto:a@x.test',
      '/a',
      './a',
      '../a',
      '#a',
      '?q=1',
      'a/b:c',
      '//x.test/a',
    ]) {
      expect(safeHref(ok)).toBe(ok);
    }
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'blob:https://x.test/1',
      '',
      '  ',
    ]) {
      expect(safeHref(bad)).toBeUndefined();
    }
  });

  it('lets images use http, https and relative URLs only', () => {
    expect(safeSrc('https://x.test/a.png')).toBe('https://x.test/a.png');
    expect(safeSrc('/a.png')).toBe('/a.png');
    expect(safeSrc('mailto:a@x.test')).toBeUndefined();
    expect(safeSrc('data:image/svg+xml,<svg onload=alert(1)>')).toBeUndefined();
  });
});
