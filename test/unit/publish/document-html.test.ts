import { describe, expect, it } from 'vitest';
import type { Block, JsonDocument } from '../../../src/content/document-schema.js';
import { markdownToDocument } from '../../../src/content/markdown/index.js';
import { renderDocument } from '../../../src/publish/render/document-html.js';
import { count, dangers, tags, withAttr } from './html-check.js';
import { links, resolver, SAMPLE_MARKDOWN } from './sample-site.js';

function doc(...nodes: unknown[]): JsonDocument {
  return { object: 'document', data: {}, nodes: nodes as Block[] };
}

const t = (text: string, marks: unknown[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks }],
});
const p = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
const mark = (type: string) => ({ object: 'mark', type });

describe('renderDocument on a realistic page', () => {
  const { html, headings } = renderDocument(markdownToDocument(SAMPLE_MARKDOWN, resolver), links);

  it('draws paragraphs with inline marks', () => {
    expect(html).toContain('<strong>GitBook API</strong>');
    expect(html).toContain('<em>about five minutes</em>');
    expect(html).toContain('<s>draft</s>');
    expect(html).toContain('<code>quire.json</code>');
    expect(html).toContain('<kbd>Ctrl</kbd>');
  });

  it('draws headings one level below the page title, with ids and anchors', () => {
    // Markdown `##` is a heading-1 (GitBook's files start body headings at `##`, the `#` is the
    // page title), drawn as <h2>: the page title is the one <h1>.
    expect(html).toMatch(
      /<h2 id="install" class="heading"><span class="heading-text">Install<\/span><a class="anchor" href="#install"/,
    );
    expect(html).toContain('<h2 id="config" class="heading">');
    expect(html).toContain('<h3 id="environment" class="heading">');
    expect(count(html, 'h1')).toBe(0);
    expect(headings).toEqual([
      { id: 'install', title: 'Install', level: 1 },
      { id: 'config', title: 'Configure', level: 1 },
      { id: 'environment', title: 'Environment', level: 2 },
      { id: 'install-1', title: 'Install', level: 1 },
    ]);
  });

  it('draws lists: ordered, nested, tasks', () => {
    expect(html).toMatch(/<ol><li><p>Start the server\.<\/p><\/li>/);
    expect(html).toContain('<ul><li><p>Nested point one</p></li>');
    expect(html).toContain(
      '<ul class="task-list"><li class="task done"><input type="checkbox" disabled checked><div class="task-body"><p>Server running</p></div></li>',
    );
    expect(html).toContain('<li class="task"><input type="checkbox" disabled><div class="task-body">');
  });

  it('draws hints of every style with an icon and a role', () => {
    for (const [style, label] of [
      ['info', 'Info'],
      ['warning', 'Warning'],
      ['success', 'Success'],
      ['danger', 'Danger'],
    ]) {
      expect(html).toContain(
        `<div class="hint hint-${style}" role="note" aria-label="${label}"><span class="hint-icon"><svg`,
      );
    }
  });

  it('draws accessible tabs that show stacked without script', () => {
    const tablist = withAttr(html, 'role', 'tablist');
    expect(tablist).toHaveLength(1);
    expect(tablist[0]!.attrs.has('hidden')).toBe(true);
    const tabs = withAttr(html, 'role', 'tab');
    const panels = withAttr(html, 'role', 'tabpanel');
    expect(tabs.map((tab) => tab.attrs.get('aria-selected'))).toEqual(['true', 'false']);
    expect(panels).toHaveLength(2);
    for (const [i, tab] of tabs.entries()) {
      expect(tab.attrs.get('aria-controls')).toBe(panels[i]!.attrs.get('id'));
      expect(panels[i]!.attrs.get('aria-labelledby')).toBe(tab.attrs.get('id'));
      // No panel is hidden in the HTML: the script hides the unselected ones.
      expect(panels[i]!.attrs.has('hidden')).toBe(false);
    }
    expect(html).toContain('<p class="tab-panel-title">npm</p>');
    expect(html).toContain('<p class="tab-panel-title">Docker</p>');
  });

  it('draws code blocks with title, line numbers, highlighting and a copy button', () => {
    expect(html).toContain('<span class="code-title">quire.json</span>');
    expect(html).toContain('<pre class="code line-numbers" tabindex="0"><code class="hljs language-json">');
    expect(html).toContain('<span class="hljs-attr">&quot;publicUrl&quot;</span>');
    expect(withAttr(html, 'data-copy')).toHaveLength(4);
    // The multi-line comment stays coloured on both lines, each line's spans balanced.
    // Each line holds its own line end: nothing stands between two lines.
    expect(html).not.toMatch(/<\/span>\n<span class="line/);
    const lines = [
      ...html.matchAll(/<span class="line">(.*?)\n?<\/span>(?=<span class="line|<\/code>)/g),
    ].map((m) => m[1]!);
    expect(
      lines.some((line) => line.includes('<span class="hljs-comment">/* comments are not JSON,</span>')),
    ).toBe(true);
    expect(
      lines.some((line) =>
        line.includes('<span class="hljs-comment">     but this one spans lines */</span>'),
      ),
    ).toBe(true);
  });

  it('draws expandables, images, blockquotes, dividers and math', () => {
    expect(html).toMatch(
      /<details class="expandable"><summary>.*<span class="expandable-title">Troubleshooting<\/span><\/summary>/,
    );
    expect(html).toContain(
      '<figure class="image"><img src="https://docs.example.com/~files/file-shot/first-space.png" alt="The first space" loading="lazy" decoding="async"><figcaption>Your first space</figcaption></figure>',
    );
    expect(html).toContain('<blockquote><p>Quire stores every page as markdown');
    expect(html).toContain('<hr>');
    expect(html).toContain('<code class="math">\\frac{1}{n}\\sum_i x_i</code>');
    expect(html).toContain('<pre class="math-block" tabindex="0"><code class="math">\\text{latency}');
  });

  it('draws files, embeds and content references as cards, never frames', () => {
    expect(html).toMatch(
      /<a class="card file-card" href="https:\/\/docs\.example\.com\/~files\/file-cheatsheet\/cheatsheet\.pdf" download>.*cheatsheet\.pdf.*PDF/,
    );
    expect(html).toMatch(
      /<a class="card embed-card" href="https:\/\/www\.youtube\.com\/watch\?v=quire" rel="noopener">.*youtube\.com/,
    );
    expect(html).toMatch(
      /<a class="card content-ref" href="https:\/\/docs\.example\.com\/guides\/setup">.*<span class="card-title">Setup<\/span><span class="card-subtitle">Configure Quire for production\.<\/span>/,
    );
    expect(count(html, 'iframe')).toBe(0);
  });

  it('draws tables with header cells and alignment', () => {
    expect(html).toContain(
      '<div class="table-wrap" role="region" aria-label="Table" tabindex="0"><table><thead><tr><th scope="col">Setting</th><th scope="col" class="align-center">Default</th>',
    );
    expect(html).toContain('<td class="align-center"><em>(required)</em></td>');
    expect(html).toContain('SQLite file or <code>postgres://</code> URL<br>Both');
  });

  it('resolves page, anchor and URL links', () => {
    expect(html).toContain('<a href="https://docs.example.com/guides/setup">Setup</a>');
    expect(html).toContain('<a href="#config">the configuration</a>');
    expect(html).toContain(
      '<a href="http://localhost:8080/admin" class="external" rel="noopener">the admin page</a>',
    );
  });

  it('makes ids unique across headings, tabs and panels', () => {
    const ids = tags(html).flatMap((tag) => tag.attrs.get('id') ?? []);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('renderDocument on hand-built nodes', () => {
  it('draws the marks markdown has no syntax for, emoji and inline images', () => {
    const { html } = renderDocument(
      doc(
        p(
          t('green on yellow', [
            { object: 'mark', type: 'color', data: { text: 'green', background: 'yellow' } },
          ]),
          t('primary', [
            { object: 'mark', type: 'color', data: { text: '$primary', background: 'default' } },
          ]),
          t('2', [mark('superscript')]),
          t('i', [mark('subscript')]),
          t('bold code', [mark('code'), mark('bold')]),
          { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f44d' } },
          {
            object: 'inline',
            type: 'inline-image',
            isVoid: true,
            data: { ref: { kind: 'url', url: 'https://x.test/i.png' }, alt: 'icon' },
          },
        ),
      ),
      links,
    );
    expect(html).toContain('<span class="tc-green bg-yellow">green on yellow</span>');
    expect(html).toContain('<span class="tc-primary">primary</span>');
    expect(html).toContain('<sup>2</sup><sub>i</sub><strong><code>bold code</code></strong>');
    expect(html).toContain('<span class="emoji">👍</span>');
    expect(html).toContain(
      '<img class="inline-image" src="https://x.test/i.png" alt="icon" loading="lazy" decoding="async">',
    );
  });

  it('draws ordered lists from their start, aligned paragraphs, line breaks', () => {
    const { html } = renderDocument(
      doc(
        {
          object: 'block',
          type: 'list-ordered',
          data: { start: 3 },
          nodes: [{ object: 'block', type: 'list-item', data: {}, nodes: [p(t('three'))] }],
        },
        { object: 'block', type: 'paragraph', data: { align: 'center' }, nodes: [t('a\nb')] },
      ),
      links,
    );
    expect(html).toContain('<ol start="3"><li><p>three</p></li></ol>');
    expect(html).toContain('<p class="align-center">a<br>b</p>');
  });

  it('leaves references it cannot resolve as text', () => {
    const { html } = renderDocument(
      doc(
        p(
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'page', page: 'missing' } },
            nodes: [t('gone')],
          },
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'user', user: 'u1' } },
            nodes: [t('someone')],
          },
        ),
        { object: 'block', type: 'file', isVoid: true, data: { ref: { kind: 'file', file: 'missing' } } },
        {
          object: 'block',
          type: 'content-ref',
          isVoid: true,
          data: { ref: { kind: 'page', page: 'missing' } },
        },
      ),
      links,
    );
    expect(html).toContain('<span class="unresolved-link">gone</span>');
    expect(html).toContain('<span class="unresolved-link">someone</span>');
    expect(html).toContain('File not available');
    expect(html).toContain('<div class="card content-ref unavailable">');
    expect(count(html, 'a')).toBe(0);
  });

  it('draws nodes of unknown kinds as their escaped text', () => {
    const { html } = renderDocument(
      doc(
        { object: 'block', type: 'future-block', data: {}, nodes: [p(t('<b>kept</b>'))] },
        p(t('before '), { object: 'inline', type: 'mention', data: {}, nodes: [t('<i>inline</i>')] }),
      ),
      links,
    );
    expect(html).toContain('<p>&lt;b&gt;kept&lt;/b&gt;</p>');
    expect(html).toContain('<p>before &lt;i&gt;inline&lt;/i&gt;</p>');
  });

  it('highlights registered languages only, and marks highlighted lines', () => {
    const code = (syntax: string | undefined, lines: string[], extra: Record<string, unknown> = {}) => ({
      object: 'block',
      type: 'code',
      data: { ...(syntax ? { syntax } : {}), ...extra },
      nodes: lines.map((line, i) => ({
        object: 'block',
        type: 'code-line',
        data: i === 1 ? { highlighted: true } : {},
        nodes: [t(line)],
      })),
    });
    const { html } = renderDocument(
      doc(
        code('brainfuck', ['+++<>']),
        code(undefined, ['<script>alert(1)</script>']),
        code('ts', ['const a = 1;', 'const b = "<b>";'], { overflow: 'wrap' }),
        code('markdown-raw', ['{% unknown %}']),
      ),
      links,
    );
    expect(html).toContain('<code class="hljs"><span class="line">+++&lt;&gt;</span></code>');
    expect(html).toContain('<span class="line">&lt;script&gt;alert(1)&lt;/script&gt;</span>');
    expect(html).toContain(
      '<pre class="code wrap" tabindex="0"><code class="hljs language-ts"><span class="line"><span class="hljs-keyword">const</span>',
    );
    expect(html).toContain(
      '<span class="line hl"><span class="hljs-keyword">const</span> b = <span class="hljs-string">&quot;&lt;b&gt;&quot;</span>;</span>',
    );
    expect(html).toContain('<span class="code-lang">markdown</span>');
    expect(html).toContain('language-markdown');
  });
});

describe('heading ids', () => {
  const heading = (level: 1 | 2 | 3, text: string, id?: string) => ({
    object: 'block',
    type: `heading-${level}`,
    data: id === undefined ? {} : { id },
    nodes: [t(text)],
  });

  it('are unique per page, whatever the document says', () => {
    const { html, headings } = renderDocument(
      doc(
        heading(1, 'Setup'),
        heading(2, 'Setup'),
        heading(2, 'Other', 'setup'),
        heading(3, 'Setup', 'setup-1'),
        heading(2, 'Évite les «accents»'),
        heading(2, '!!!'),
        heading(2, 'Bad', 'Bad ID"><script>alert(1)</script>'),
      ),
      links,
    );
    expect(headings.map((h) => h.id)).toEqual([
      'setup',
      'setup-1',
      'setup-2',
      'setup-1-1',
      'evite-les-accents',
      'section',
      'bad',
    ]);
    expect(headings.map((h) => h.level)).toEqual([1, 2, 2, 3, 2, 2, 2]);
    const ids = tags(html).flatMap((tag) => tag.attrs.get('id') ?? []);
    expect(new Set(ids).size).toBe(ids.length);
    expect(html).not.toContain('<script');
  });

  it('take their titles from the heading text, marks and links included', () => {
    const { headings } = renderDocument(
      doc({
        object: 'block',
        type: 'heading-2',
        data: {},
        nodes: [
          t('Use '),
          t('quire', [mark('code')]),
          {
            object: 'inline',
            type: 'link',
            data: { ref: { kind: 'url', url: 'https://x.test' } },
            nodes: [t(' today')],
          },
        ],
      }),
      links,
    );
    expect(headings).toEqual([{ id: 'use-quire-today', title: 'Use quire today', level: 2 }]);
  });
});

describe('renderDocument on hostile input', () => {
  const hostile = doc(
    p(
      t('<script>alert("text")</script> & "quotes" \'single\''),
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: 'javascript:alert(1)' } },
        nodes: [t('js')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: ' JaVaScRiPt:alert(1)' } },
        nodes: [t('js2')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: 'java\tscript:alert(1)' } },
        nodes: [t('js3')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: 'data:text/html,<script>alert(1)</script>' } },
        nodes: [t('data')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: 'vbscript:msgbox' } },
        nodes: [t('vb')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: 'https://ok.test/"onmouseover="alert(1)' } },
        nodes: [t('quote')],
      },
      {
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'anchor', anchor: '"><script>alert(1)</script>' } },
        nodes: [t('anchor')],
      },
      {
        object: 'inline',
        type: 'inline-image',
        isVoid: true,
        data: { ref: { kind: 'url', url: 'x" onerror="alert(1)' }, alt: '" onerror="alert(2)' },
      },
      { object: 'inline', type: 'emoji', isVoid: true, data: { code: '<img src=x onerror=alert(1)>' } },
      {
        object: 'inline',
        type: 'inline-math',
        isVoid: true,
        data: { formula: '</code><script>alert(1)</script>' },
      },
      t('colour', [
        {
          object: 'mark',
          type: 'color',
          data: { text: 'red" onclick="alert(1)', background: 'url(javascript:x)' },
        },
      ]),
    ),
    {
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: {
            ref: { kind: 'url', url: 'https://x.test/a.png" onerror="alert(1)' },
            alt: '"><script>alert(1)</script>',
            width: '100" onload="x',
          },
          fragments: [
            {
              object: 'fragment',
              fragment: 'caption',
              nodes: [p(t('" onerror="alert(1)<script>x</script>'))],
            },
          ],
        },
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'javascript:alert(1)' } },
          fragments: [],
        },
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'data:image/svg+xml,<svg onload=alert(1)>' } },
          fragments: [],
        },
      ],
    },
    { object: 'block', type: 'embed', isVoid: true, data: { url: 'javascript:alert(1)' } },
    { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://evil.test/"><iframe src=x>' } },
    {
      object: 'block',
      type: 'content-ref',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'javascript:alert(1)' } },
    },
    {
      object: 'block',
      type: 'code',
      data: { syntax: '"><script>', title: '<script>alert(1)</script>' },
      nodes: [
        {
          object: 'block',
          type: 'code-line',
          data: {},
          nodes: [t('</code></pre><script>alert(1)</script>')],
        },
      ],
    },
    { object: 'block', type: 'hint', data: { style: '"><script>' }, nodes: [p(t('hint'))] },
    {
      object: 'block',
      type: 'tabs',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'tabs-item',
          data: { title: '<img src=x onerror=alert(1)>' },
          nodes: [p(t('tab'))],
        },
      ],
    },
    {
      object: 'block',
      type: 'heading-2',
      data: { id: '"><svg onload=alert(1)>' },
      nodes: [t('<svg onload=alert(1)>')],
    },
    { object: 'block', type: 'list-ordered', data: { start: '1" onclick="x' }, nodes: [] },
    { object: 'block', type: 'math', isVoid: true, data: { formula: '</pre><script>alert(1)</script>' } },
    {
      object: 'block',
      type: 'raw-html',
      data: { html: '<script>alert(1)</script>' },
      nodes: [p(t('<script>alert(2)</script>'))],
    },
    {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0'], hideHeader: false },
        records: { r0: { orderIndex: 'a0', values: { c0: 'f0' } } },
        definition: {
          c0: { id: 'c0', title: '<script>alert(1)</script>', type: 'text', textAlignment: '" onclick="x' },
        },
      },
      fragments: [{ object: 'fragment', fragment: 'f0', nodes: [p(t('<script>cell</script>'))] }],
    },
  );
  const { html } = renderDocument(hostile, {
    ...links,
    file: () => ({ href: 'javascript:alert(1)', name: '<script>name</script>' }),
  });

  it('contains no script, handler, style attribute or unsafe URL', () => {
    expect(dangers(html)).toEqual([]);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<svg onload/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<img src=x/i);
    // `javascript:` may show as text (an embed card names its URL), never in an attribute.
    for (const tag of tags(html))
      expect([...tag.attrs.values()].join(' ').toLowerCase()).not.toContain('javascript');
  });

  it('keeps the hostile text visible, escaped', () => {
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;text&quot;)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;single&#39;',
    );
    expect(html).toContain('&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('<span class="unresolved-link">js</span>');
    expect(html).toContain('<span class="unresolved-link">data</span>');
    expect(html).toContain('href="https://ok.test/&quot;onmouseover=&quot;alert(1)"');
    expect(html).toContain('alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html).toContain(
      '<figcaption>&quot; onerror=&quot;alert(1)&lt;script&gt;x&lt;/script&gt;</figcaption>',
    );
    expect(html).toContain('<div class="hint hint-info"');
  });

  it('draws embeds of unsafe URLs as plain cards', () => {
    expect(html).toContain('<div class="card embed-card unavailable">');
  });
});
