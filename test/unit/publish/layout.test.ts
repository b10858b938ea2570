import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE_ASSETS, SITE_CSS_FILE, SITE_JS_FILE } from '../../../src/publish/render/assets.js';
import { SITE_JS } from '../../../src/publish/render/client.js';
import {
  renderAccessDenied,
  renderNotFound,
  renderPage,
  renderStatusPage,
} from '../../../src/publish/render/layout.js';
import type { TreeItem } from '../../../src/publish/render/model.js';
import { SITE_CSS } from '../../../src/publish/render/styles.js';
import { bodyOf, count, dangers, tags, withAttr } from './html-check.js';
import { sampleFrame, sampleLook, samplePage } from './sample-site.js';

const OUTPUT = join(import.meta.dirname, '..', '..', '..', 'test-output');

describe('renderPage', () => {
  const html = renderPage(sampleFrame(), samplePage());

  it('is a complete HTML5 document with its metadata', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en" data-theme-toggle class="has-sections">')).toBe(
      true,
    );
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Quick start | Quire Docs</title>');
    expect(html).toContain('<meta name="description" content="Install Quire and publish your first space.">');
    expect(html).toContain('<link rel="canonical" href="https://docs.example.com/quick-start">');
    expect(html).toContain(
      '<link rel="alternate" type="text/markdown" href="https://docs.example.com/quick-start.md">',
    );
    expect(withAttr(html, 'rel', 'icon')).toHaveLength(1);
    expect(html).not.toContain('name="robots"');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('has the landmarks, one main and one h1', () => {
    expect(count(html, 'main')).toBe(1);
    expect(count(html, 'h1')).toBe(1);
    expect(html).toContain(
      '<h1 class="page-title"><span class="page-emoji" aria-hidden="true">🚀</span>Quick start</h1>',
    );
    expect(count(html, 'header')).toBeGreaterThanOrEqual(1);
    expect(html).toContain('<header class="site-header">');
    expect(html).toContain('<footer class="site-footer">');
    expect(html).toContain('<nav class="sidebar" id="Sidebar" aria-label="Pages">');
    expect(html).toContain('<aside class="toc">');
    expect(html).toContain('<a class="skip-link" href="#Main">Skip to content</a>');
    expect(html).toContain('<main id="Main" tabindex="-1">');
  });

  it('marks the active page in the tree, and only it', () => {
    const current = withAttr(html, 'aria-current', 'page').filter((tag) => tag.name === 'a');
    // The active tree item and the active variant.
    expect(current.map((tag) => tag.attrs.get('href'))).toEqual([
      'https://docs.example.com/',
      'https://docs.example.com/quick-start',
    ]);
    expect(html).toMatch(
      /<a href="https:\/\/docs\.example\.com\/quick-start" aria-current="page"><span>Quick start<\/span><\/a>/,
    );
    expect(html).toContain('<p class="tree-heading">Getting started</p>');
    expect(html).toMatch(
      /<a href="https:\/\/github\.com\/example\/quire" rel="noopener"><span>GitHub<\/span><svg/,
    );
  });

  it('shows the header: brand, section tabs with group dropdowns, links, search, theme toggle', () => {
    expect(html).toContain('<a class="brand" href="https://docs.example.com/"><span>Quire Docs</span></a>');
    expect(html).toContain('<nav class="section-tabs" aria-label="Sections">');
    expect(html).toContain('<a href="https://docs.example.com/" aria-current="true">Guides</a>');
    expect(html).toMatch(
      /<details class="dropdown"><summary><span>More<\/span><svg[\s\S]*?<a href="https:\/\/docs\.example\.com\/changelog">Changelog<\/a>/,
    );
    expect(html).toMatch(
      /<nav class="header-links" aria-label="Links"><a href="https:\/\/example\.com\/blog">Blog<\/a><details class="dropdown">/,
    );
    expect(html).toContain(
      '<form class="search" role="search" data-search="https://docs.example.com/~search">',
    );
    expect(withAttr(html, 'role', 'combobox')).toHaveLength(1);
    expect(withAttr(html, 'data-theme-button')).toHaveLength(1);
    expect(html).toContain(
      '<div class="announcement announcement-info" role="region" aria-label="Announcement">',
    );
  });

  it('shows variants, breadcrumbs, description, contents, pagination, markdown link, footer', () => {
    expect(html).toMatch(
      /<details class="dropdown variants"><summary><span><span class="visually-hidden">Version: <\/span>v2<\/span>/,
    );
    expect(html).toContain(
      '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li>Getting started</li></ol></nav>',
    );
    expect(html).toContain('<p class="page-description">Install Quire and publish your first space.</p>');
    // Markdown `##` is a heading-1 (level 1 in the contents), `###` a heading-2.
    expect(html).toContain('<li class="toc-level-1"><a href="#install">Install</a></li>');
    expect(html).toContain('<li class="toc-level-2"><a href="#environment">Environment</a></li>');
    expect(html).toMatch(
      /<a class="previous" href="https:\/\/docs\.example\.com\/" rel="prev">.*Introduction/,
    );
    expect(html).toMatch(
      /<a class="next" href="https:\/\/docs\.example\.com\/guides\/setup" rel="next">.*Setup/,
    );
    expect(html).toContain('<a href="https://docs.example.com/quick-start.md" type="text/markdown">');
    expect(html).toContain(
      '<div class="footer-group"><h2>Product</h2><ul><li><a href="https://example.com/pricing">Pricing</a></li></ul></div>',
    );
    expect(html).toContain('<p class="copyright">© 2025 Example Inc.</p>');
  });

  it('gives every element a unique id and points every table of contents link at one', () => {
    const ids = tags(html).flatMap((tag) => tag.attrs.get('id') ?? []);
    expect(new Set(ids).size).toBe(ids.length);
    for (const link of tags(html).filter((t) => t.name === 'a' && t.attrs.get('href')?.startsWith('#'))) {
      expect(ids).toContain(decodeURIComponent(link.attrs.get('href')!.slice(1)));
    }
    for (const control of withAttr(html, 'aria-controls'))
      expect(ids).toContain(control.attrs.get('aria-controls'));
  });

  it('inlines the stylesheet and script without an assets URL, and loads nothing from elsewhere', () => {
    expect(html).toContain(`<style>${SITE_CSS}</style>`);
    expect(html).toContain(`<script>${SITE_JS}</script>`);
    expect(html).not.toMatch(/<(?:link|script)[^>]+(?:href|src)="(?:https?:)?\/\/(?!docs\.example\.com)/);
  });

  it('loads the hashed assets when the site serves them', () => {
    const served = renderPage(sampleFrame({ assetsHref: 'https://docs.example.com/~assets' }), samplePage());
    expect(served).toContain(
      `<link rel="stylesheet" href="https://docs.example.com/~assets/${SITE_CSS_FILE}">`,
    );
    expect(served).toContain(`<script src="https://docs.example.com/~assets/${SITE_JS_FILE}"></script>`);
    expect(served).not.toContain(SITE_JS);
    expect(count(served, 'script')).toBe(1);
    expect(SITE_ASSETS.files.get(SITE_CSS_FILE)?.body).toBe(SITE_CSS);
    expect(SITE_ASSETS.files.get(SITE_JS_FILE)?.contentType).toBe('text/javascript; charset=utf-8');
    expect(SITE_ASSETS.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('asks robots not to index when the frame says so', () => {
    expect(renderPage(sampleFrame({ noindex: true }), samplePage())).toContain(
      '<meta name="robots" content="noindex, nofollow">',
    );
  });

  it('follows the theme settings', () => {
    const dark = renderPage(
      sampleFrame({ look: sampleLook({ theme: { default: 'dark', toggleable: false } }) }),
      samplePage(),
    );
    expect(dark).toContain('<html lang="en" data-theme="dark" class="has-sections">');
    expect(withAttr(dark, 'data-theme-button')).toHaveLength(0);
  });

  it('leaves out pagination when the site turns it off, and what the frame does not have', () => {
    const bare = renderPage(
      sampleFrame({
        look: sampleLook({ pagination: false, announcement: undefined, headerLinks: [], footer: undefined }),
        sections: [],
        variants: [],
      }),
      samplePage({ description: undefined, emoji: undefined, breadcrumbs: [] }),
    );
    const body = bodyOf(bare);
    expect(body).not.toContain('class="pagination"');
    expect(body).not.toContain('class="announcement');
    expect(body).not.toContain('class="section-tabs"');
    expect(body).not.toContain('variants');
    expect(body).not.toContain('breadcrumbs');
    expect(body).not.toContain('page-description');
    expect(bare).toContain('<p class="copyright">© Quire Docs</p>');
    expect(bare).toContain('<html lang="en" data-theme-toggle>');
  });

  it('does not repeat the page title or the front matter at the top of the body', () => {
    const page = samplePage();
    const withTitle = {
      ...page.document,
      nodes: [
        {
          object: 'block',
          type: 'code',
          data: { syntax: 'markdown-raw' },
          nodes: [
            {
              object: 'block',
              type: 'code-line',
              data: {},
              nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: '---', marks: [] }] }],
            },
          ],
        },
        {
          object: 'block',
          type: 'heading-1',
          data: { id: 'quick-start' },
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Quick  start', marks: [] }] }],
        },
        ...page.document.nodes,
      ],
    } as typeof page.document;
    const out = renderPage(sampleFrame(), { ...page, document: withTitle });
    expect(out).not.toContain('id="quick-start"');
    expect(out).not.toContain('language-markdown');
  });

  it('opens the tree down to the active page and keeps other branches closed', () => {
    const leaf = (title: string, active = false): TreeItem => ({
      kind: 'document',
      title,
      href: `/${title}`,
      active,
      open: false,
      children: [],
    });
    const tree: TreeItem[] = [
      {
        kind: 'document',
        title: 'a',
        href: '/a',
        active: false,
        open: true,
        children: [{ ...leaf('a1'), open: true, children: [leaf('a1x', true)] }],
      },
      { kind: 'document', title: 'b', href: '/b', active: false, open: false, children: [leaf('b1')] },
      { kind: 'document', title: 'c', href: '/c', active: true, open: false, children: [leaf('c1')] },
    ];
    const out = renderPage(sampleFrame({ tree }), samplePage());
    const toggles = withAttr(out, 'aria-controls').filter((t) =>
      t.attrs.get('class')?.includes('tree-toggle'),
    );
    expect(toggles.map((t) => t.attrs.get('aria-expanded'))).toEqual(['true', 'true', 'false', 'true']);
    for (const toggle of toggles) {
      const list = withAttr(out, 'id', toggle.attrs.get('aria-controls'))[0]!;
      expect(list.attrs.has('hidden')).toBe(toggle.attrs.get('aria-expanded') === 'false');
    }
    expect(withAttr(out, 'aria-current', 'page').map((t) => t.attrs.get('href'))).toContain('/a1x');
  });

  it('writes a sample page to test-output/ to open in a browser', () => {
    mkdirSync(OUTPUT, { recursive: true });
    writeFileSync(join(OUTPUT, 'sample-page.html'), html);
    writeFileSync(
      join(OUTPUT, 'sample-page-dark.html'),
      renderPage(
        sampleFrame({
          look: sampleLook({ theme: { default: 'dark', toggleable: true }, tint: { light: '#7c3aed' } }),
        }),
        samplePage(),
      ),
    );
    writeFileSync(join(OUTPUT, 'sample-404.html'), renderNotFound(sampleFrame()));
    expect(html.length).toBeGreaterThan(10_000);
  });
});

describe('renderPage with hostile site data', () => {
  const evil = '"><script>alert(1)</script>';
  const frame = sampleFrame({
    siteTitle: `Docs ${evil}`,
    homeHref: 'javascript:alert(1)',
    lang: 'en" onload="alert(1)',
    searchHref: 'javascript:alert(1)',
    noindex: false,
    look: sampleLook({
      primaryColor: {
        light: 'red; } body { display: none',
        dark: '#fff;background:url(javascript:alert(1))',
      },
      tint: { light: '</style><script>alert(1)</script>' },
      infoColor: { light: 'expression(alert(1))' },
      font: 'Inter; } * { background: url(https://evil.test/x)',
      corners: 'rounded; }' as 'rounded',
      logo: { light: 'javascript:alert(1)', dark: `https://x.test/logo.png${evil}` },
      favicon: { light: 'data:text/html,<script>alert(1)</script>' },
      headerLinks: [
        { title: evil, href: 'javascript:alert(1)', links: [{ title: evil, href: 'vbscript:x' }] },
      ],
      footer: {
        groups: [{ title: evil, links: [{ title: evil, href: ' javascript:alert(1)' }] }],
        copyright: evil,
      },
      announcement: { message: evil, style: evil as 'info', link: { title: evil, href: 'data:text/html,x' } },
    }),
    sections: [
      { kind: 'section', title: evil, href: 'javascript:alert(1)', active: true },
      {
        kind: 'group',
        title: evil,
        items: [{ kind: 'section', title: evil, href: 'https://ok.test/', active: false }],
      },
    ],
    variants: [
      { title: evil, href: 'javascript:alert(1)', active: true },
      { title: 'v1', href: '/v1', active: false },
    ],
    tree: [
      { kind: 'group', title: evil, active: false, open: true, children: [] },
      {
        kind: 'document',
        title: evil,
        emoji: evil,
        href: 'javascript:alert(1)',
        active: true,
        open: false,
        children: [],
      },
      { kind: 'link', title: evil, href: 'data:text/html,x', active: false, open: false, children: [] },
    ],
  });
  const page = samplePage({
    title: evil,
    description: evil,
    emoji: evil,
    href: 'javascript:alert(1)',
    markdownHref: 'javascript:alert(1)',
    breadcrumbs: [{ title: evil, href: 'javascript:alert(1)' }],
    previous: { title: evil, href: 'javascript:alert(1)' },
    next: { title: evil, href: 'https://ok.test/next' },
  });
  const html = renderPage(frame, page);
  const body = bodyOf(html);

  it('contains no script, handler or unsafe URL in the body', () => {
    expect(dangers(body)).toEqual([]);
    // The only script is the site's own, inlined in the head.
    expect(count(html, 'script')).toBe(1);
    expect(html.indexOf('<script')).toBeLessThan(html.indexOf('</head>'));
    for (const tag of tags(html)) {
      const values = [...tag.attrs.entries()]
        .filter(([name]) => name !== 'content')
        .map(([, v]) => v.toLowerCase());
      expect(values.join(' ')).not.toMatch(/javascript|vbscript|data:text/);
    }
  });

  it('keeps malicious colours, corners and fonts out of the CSS', () => {
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(2);
    const look = styles[1]!;
    expect(look).not.toMatch(/display: none|url\(|expression|<\/style|script|evil|rounded; }/);
    // The dark primary colour was unsafe: the light one would be used, but it was unsafe too.
    expect(look).not.toContain('--primary');
    expect(look).not.toContain('--font');
  });

  it('escapes titles everywhere and falls back to safe values', () => {
    expect(html).toContain(
      '<title>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; | Docs &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>',
    );
    expect(html).toContain('<html lang="en" data-theme-toggle class="has-sections">');
    expect(html).toContain('<a class="brand" href="/">');
    expect(html).not.toContain('role="search"');
    expect(html).not.toContain('rel="canonical"');
    expect(html).toContain(
      '<img src="https://x.test/logo.png&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
  });
});

describe('status pages', () => {
  it('draw a bare 404 page without a frame', () => {
    const html = renderNotFound();
    expect(count(html, 'main')).toBe(1);
    expect(count(html, 'h1')).toBe(1);
    expect(html).toContain('<h1 class="page-title">Page not found</h1>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(count(html, 'script')).toBe(0);
    expect(html).not.toContain('class="sidebar"');
  });

  it('draw a 404 page inside the site frame', () => {
    const html = renderNotFound(sampleFrame(), 'No such page <here>');
    expect(html).toContain('<p class="page-description">No such page &lt;here&gt;</p>');
    expect(html).toContain('<a class="button" href="https://docs.example.com/">Go to the home page</a>');
    expect(html).toContain('class="sidebar"');
    expect(html).toContain('<title>Page not found | Quire Docs</title>');
  });

  it('draw access denied and other statuses', () => {
    const denied = renderAccessDenied(undefined, {
      action: { title: 'Sign in', href: 'https://auth.example.com/login' },
    });
    expect(denied).toContain('<h1 class="page-title">Access denied</h1>');
    expect(denied).toContain('<a class="button" href="https://auth.example.com/login">Sign in</a>');
    expect(renderStatusPage(undefined, 500, 'Boom')).toContain(
      '<h1 class="page-title">Something went wrong</h1>',
    );
    expect(renderStatusPage(undefined, 410)).toContain('<p class="status-code">410</p>');
    expect(
      renderAccessDenied(undefined, { action: { title: 'x', href: 'javascript:alert(1)' } }),
    ).not.toContain('javascript');
  });
});

describe('page covers', () => {
  it('draw above the title, decorative, following the theme, and only from safe URLs', async () => {
    const { renderPage } = await import('../../../src/publish/render/layout.js');
    const { sampleFrame, samplePage } = await import('./sample-site.js');
    const html = renderPage(sampleFrame(), {
      ...samplePage(),
      cover: { src: '/files/a/cover.png', srcDark: '/files/b/cover-dark.png', yPos: -40, size: 'full' },
    });
    expect(html).toMatch(
      /<figure class="page-cover page-cover-full"><img class="page-cover-image light-only" src="\/files\/a\/cover.png" alt=""/,
    );
    expect(html).toContain('dark-only" src="/files/b/cover-dark.png"');
    expect(html.indexOf('<figure class="page-cover')).toBeLessThan(html.indexOf('<h1 class="page-title'));
    const hostile = renderPage(sampleFrame(), {
      ...samplePage(),
      cover: { src: 'javascript:alert(1)', yPos: 0, size: 'hero' },
    });
    expect(hostile).not.toContain('<figure class="page-cover');
  });
});
