import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../src/publish/render/document-html.js';
import type { DocumentLinks } from '../../../src/publish/render/model.js';
import { officialSpecs } from '../../helpers/official-spec.js';
import { count, dangers, tags, withAttr } from './html-check.js';
import {
  caption,
  cardsTable,
  codeBlock,
  columns,
  doc,
  h,
  images,
  inline,
  openapiOperation,
  p,
  prompt,
  showcase,
  showcaseLinks,
  stepper,
  t,
  typedTable,
  updates,
} from './sample-blocks.js';
import { links } from './sample-site.js';

/** Errors of a node against a component schema of the official 0.202 spec (these nodes are 0.202 only). */
function schema202(name: string, value: unknown): string[] {
  const validate = officialSpecs()
    .find((s) => s.version === '0.202')!
    .componentValidator(name);
  if (!validate) return [`no component ${name}`];
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const render = (node: unknown, hooks: DocumentLinks = showcaseLinks) => renderDocument(doc(node), hooks);

describe('the hand-built nodes', () => {
  it('have the official 0.202 shapes', () => {
    const cases: Array<[string, unknown]> = [
      ['DocumentBlockStepper', stepper],
      ['DocumentBlockUpdates', updates],
      // The official DocumentInlineButton admits no button at all (its `additionalProperties: false`
      // branches reject `label` and `kind`, which the other branch requires): checked without it.
      [
        'DocumentBlockColumns',
        { ...columns, nodes: [columns.nodes[0], { ...columns.nodes[1], nodes: [p(t('Try'))] }] },
      ],
      ['DocumentBlockPrompt', prompt('partial', 14)],
      ['DocumentBlockOpenAPIOperation', openapiOperation],
      ['DocumentBlockTable', cardsTable],
      ['DocumentBlockTable', typedTable],
      ['DocumentBlockImages', images],
      ['DocumentBlockIf', { object: 'block', type: 'if', data: { expression: 'a' }, nodes: [p(t('x'))] }],
      [
        'DocumentBlockReusableContent',
        {
          object: 'block',
          type: 'reusable-content',
          isVoid: true,
          data: { ref: { kind: 'reusable-content', reusableContent: 'rc' } },
        },
      ],
    ];
    for (const [name, node] of cases) expect([name, schema202(name, node)]).toEqual([name, []]);
  });
});

describe('stepper', () => {
  it('is an ordered list of numbered steps whose headings keep their ids', () => {
    const { html, headings } = render(stepper);
    expect(html).toMatch(
      /^<ol class="stepper"><li class="stepper-step"><span class="stepper-badge" aria-hidden="true"><span>1<\/span><\/span><div class="stepper-body"><h3 id="install" class="heading">/,
    );
    expect(count(html, 'li')).toBe(2);
    // The second step has an icon instead of its number.
    expect(html).toMatch(/<span class="stepper-badge" aria-hidden="true"><svg class="fa-icon"/);
    expect(headings.map((x) => x.id)).toEqual(['install', 'launch']);
  });
});

describe('updates', () => {
  const withFormat = (format: string, date = '2026-04-29', tags?: unknown) =>
    render({
      ...updates,
      data: { format },
      nodes: [{ ...updates.nodes[0], data: { date, ...(tags ? { tags } : {}) } }],
    }).html;

  it('formats dates as asked, always with a machine-readable time', () => {
    expect(withFormat('full')).toContain(
      '<time class="update-date" datetime="2026-04-29">April 29, 2026</time>',
    );
    expect(withFormat('numeric')).toContain(
      '<time class="update-date" datetime="2026-04-29">2026-04-29</time>',
    );
    expect(withFormat('short')).toContain(
      '<time class="update-date" datetime="2026-04-29">Apr 29, 2026</time>',
    );
    expect(withFormat('full', '2026-03-02T23:30:00-05:00')).toContain('datetime="2026-03-02">March 2, 2026<');
  });

  it('shows dates that are not dates as text, escaped', () => {
    expect(withFormat('full', 'RELEASE_DATE')).toContain('<span class="update-date">RELEASE_DATE</span>');
    expect(withFormat('full', '2026-02-30')).toContain('<span class="update-date">2026-02-30</span>');
    const hostile = withFormat('full', '2026-01-01"><script>alert(1)</script>');
    expect(hostile).not.toContain('<script');
    expect(hostile).toContain('&lt;script&gt;');
  });

  it('draws tags as badges labelled by the site, else by slug', () => {
    const { html } = render(updates);
    expect(html).toContain(
      '<ul class="update-tags" aria-label="Tags"><li class="tag">Payments</li><li class="tag">beta</li></ul>',
    );
    expect(count(html, 'article')).toBe(2);
    const hostile = withFormat('full', '2026-04-29', [{ kind: 'tag', tag: '<img src=x onerror=alert(1)>' }]);
    expect(hostile).toContain('<li class="tag">&lt;img src=x onerror=alert(1)&gt;</li>');
    expect(renderDocument(doc(updates), links).html).toContain('<li class="tag">payments</li>');
  });
});

describe('columns', () => {
  it('are a row of columns with clamped percent widths and alignment', () => {
    const { html } = render(columns);
    expect(html).toContain('<div class="columns"><div class="column sized w-67 valign-middle">');
    expect(html).toContain('<div class="column sized w-33">');
    const odd = render({
      ...columns,
      data: { fullWidth: true },
      nodes: [
        { ...columns.nodes[0], data: { width: 250, verticalAlignment: '"><x' } },
        { ...columns.nodes[1], data: { width: -4 } },
        { ...columns.nodes[1], data: { width: { unit: 'px', value: 300 } } },
      ],
    }).html;
    expect(odd).toContain('<div class="columns full-width"><div class="column sized w-100">');
    expect(odd).toContain('<div class="column sized w-0">');
    expect(odd).toContain('<div class="column"><p>');
  });
});

describe('if', () => {
  const partnerOnly = {
    object: 'block',
    type: 'if',
    data: { expression: 'visitor.claims.unsigned.persona === "partner"' },
    nodes: [h(2, 'Partner pricing'), p(t('Secret partner discount'))],
  };

  it('shows its content when the site says the condition holds', () => {
    const { html, headings } = render(partnerOnly);
    expect(html).toContain('Secret partner discount');
    expect(headings.map((x) => x.id)).toEqual(['partner-pricing']);
  });

  it('leaves no trace when the condition is false, unknown or fails', () => {
    const hooks: DocumentLinks[] = [
      links,
      { ...links, visible: () => false },
      {
        ...links,
        visible: () => {
          throw new Error('bad expression');
        },
      },
      { ...links, visible: () => 'yes' as unknown as boolean },
    ];
    for (const hook of hooks) {
      const { html, headings } = renderDocument(doc(p(t('before')), partnerOnly, p(t('after'))), hook);
      expect(html).toBe('<p>before</p><p>after</p>');
      expect(headings).toEqual([]);
    }
  });

  it('is never drawn as text by the fallbacks for unknown or too deep nodes', () => {
    let deep: unknown = partnerOnly;
    for (let i = 0; i < 60; i++) deep = { object: 'block', type: 'blockquote', data: {}, nodes: [deep] };
    const unknown = {
      object: 'block',
      type: 'future-container',
      data: {},
      nodes: [p(t('shown')), partnerOnly],
    };
    const { html, headings } = renderDocument(doc(deep, unknown), { ...links, visible: () => false });
    expect(html).not.toContain('Secret');
    expect(html).not.toContain('Partner');
    expect(html).toContain('shown');
    expect(headings).toEqual([]);
  });
});

describe('prompt', () => {
  it('is a card with its description, the prompt text and a copy button', () => {
    const { html } = render(prompt('full'));
    expect(html).toMatch(
      /^<div class="prompt"><details class="prompt-details" open><summary class="prompt-header">/,
    );
    expect(html).toContain('<span class="prompt-title">Integrate the API into this project</span>');
    expect(html).toContain(
      '<pre class="prompt-text" tabindex="0"><code>Step 1: do the &lt;thing&gt; &amp; check it.\nStep 2:',
    );
    const copy = withAttr(html, 'data-copy');
    expect(copy).toHaveLength(1);
    expect(copy[0]!.attrs.has('hidden')).toBe(true);
    expect(copy[0]!.name).toBe('button');
  });

  it('opens as asked: closed for hidden, cut with a toggle for partial', () => {
    expect(render(prompt('hidden')).html).toContain('<details class="prompt-details"><summary');
    const partial = render(prompt('partial', 14)).html;
    expect(partial).toContain(
      '<div class="prompt prompt-partial collapse-10"><details class="prompt-details" open>',
    );
    expect(partial).toContain(
      '<details class="code-more"><summary><span class="code-more-show">Show 4 more lines</span>',
    );
    // A short prompt has nothing to cut.
    expect(render(prompt('partial', 4)).html).not.toContain('code-more');
  });

  it('escapes its description', () => {
    const { html } = render({
      ...prompt('full'),
      data: { description: '<img src=x onerror=alert(1)>', icon: '"><x' },
    });
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(dangers(html)).toEqual([]);
  });
});

describe('reusable content', () => {
  const include = (id: string) => ({
    object: 'block',
    type: 'reusable-content',
    isVoid: true,
    data: { ref: { kind: 'reusable-content', reusableContent: id } },
  });

  it('draws the included document in place, headings included', () => {
    const hooks: DocumentLinks = {
      ...links,
      reusable: (id) => (id === 'rc' ? doc(h(2, 'Shared'), p(t('Shared text'))) : undefined),
    };
    const { html, headings } = renderDocument(doc(include('rc'), include('missing')), hooks);
    expect(html).toMatch(/^<h3 id="shared" class="heading">.*<p>Shared text<\/p>$/);
    expect(headings.map((x) => x.title)).toEqual(['Shared']);
    expect(renderDocument(doc(include('rc')), links).html).toBe('');
  });

  it('cuts contents that include themselves, and draws a repeated one each time', () => {
    const calls: string[] = [];
    const hooks: DocumentLinks = {
      ...links,
      reusable: (id) => {
        calls.push(id);
        if (id === 'a') return doc(p(t('A')), include('b'));
        if (id === 'b') return doc(p(t('B')), include('a'), include('b'));
        return undefined;
      },
    };
    const { html } = renderDocument(doc(include('a'), include('a')), hooks);
    expect(html).toBe('<p>A</p><p>B</p><p>A</p><p>B</p>');
  });

  it('draws at most a hundred per page', () => {
    const hooks: DocumentLinks = {
      ...links,
      reusable: (id) => doc(p(t(id)), include(`${id}x`), include(`${id}y`)),
    };
    const { html } = renderDocument(doc(include('r')), hooks);
    expect(count(html, 'p')).toBe(100);
  });
});

describe('OpenAPI blocks', () => {
  it('are notice cards naming the operation and the specification when the site has no spec', () => {
    const { html } = render(openapiOperation);
    expect(html).toContain(
      '<span class="method-badge method-get">GET</span><code class="api-path">/pets/{id}</code>',
    );
    expect(html).toContain('The OpenAPI specification “petstore” is not available.');
    expect(html).toContain('role="note" aria-label="API operation"');
  });

  it('name webhooks, schemas and legacy swagger sources', () => {
    const { html } = render({
      object: 'block',
      type: 'openapi-webhook',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'events' }, name: 'order.paid', method: 'post' },
    });
    expect(html).toContain(
      '<span class="method-badge method-post">POST</span><span class="api-kind">Webhook</span><code class="api-path">order.paid</code>',
    );
    const schemas = render({
      object: 'block',
      type: 'openapi-schemas',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Pet', 'Error'], grouped: true },
    }).html;
    expect(schemas).toContain(
      '<span class="api-kind">Schemas</span><code class="api-path">Pet</code> <code class="api-path">Error</code>',
    );
    const swagger = render({
      object: 'block',
      type: 'swagger',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'file-cheatsheet' }, path: '/v1/im', method: 'delete' },
    }).html;
    expect(swagger).toContain('method-delete');
    expect(swagger).toContain('The OpenAPI specification file “cheatsheet.pdf” is not available.');
  });

  it('escape every field and link nothing', () => {
    const { html } = render({
      object: 'block',
      type: 'swagger',
      isVoid: true,
      data: {
        ref: { kind: 'url', url: 'javascript:alert(1)' },
        path: '</code><script>alert(1)</script>',
        method: 'get" onclick="x',
      },
    });
    expect(dangers(html)).toEqual([]);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('method-badge');
    expect(count(html, 'a')).toBe(0);
    const spec = render({
      ...openapiOperation,
      data: { ...openapiOperation.data, ref: { kind: 'openapi', spec: '<b>x</b>' } },
    });
    expect(spec.html).toContain('“&lt;b&gt;x&lt;/b&gt;”');
  });
});

describe('images', () => {
  it('draw a dark variant, alignment, a frame, a percent width and a caption', () => {
    const { html } = render(images);
    expect(html).toBe(
      '<div class="images images-left framed"><figure class="image sized w-50">' +
        '<img class="light-only" src="https://x.test/light.png" alt="Diagram" loading="lazy" decoding="async">' +
        '<img class="dark-only" src="https://x.test/dark.png" alt="Diagram" loading="lazy" decoding="async">' +
        '<figcaption>The diagram</figcaption></figure></div>',
    );
  });

  it('take pixel lengths as sizes and keep plain images as they were', () => {
    const image = images.nodes[0]!;
    const { html } = render({
      ...images,
      data: {},
      nodes: [
        {
          ...image,
          data: { ref: image.data.ref, width: { unit: 'px', value: 320 }, height: 200 },
          fragments: [],
        },
      ],
    });
    expect(html).toBe(
      '<div class="images"><figure class="image"><img src="https://x.test/light.png" alt="" width="320" height="200" loading="lazy" decoding="async"></figure></div>',
    );
  });
});

describe('tables', () => {
  it('draw a cards view: covers for both themes, text, the whole card a link', () => {
    const { html } = render(cardsTable);
    expect(html).toMatch(
      /^<ul class="table-cards cards-medium"><li class="table-card linked"><a class="table-card-link" href="https:\/\/docs\.example\.com\/guides\/setup">/,
    );
    expect(html).toContain(
      '<div class="table-card-media"><img class="table-card-cover fit-cover light-only" src="https://x.test/cover-light.png" alt="" loading="lazy" decoding="async"><img class="table-card-cover fit-contain dark-only" src="https://x.test/cover-dark.png"',
    );
    expect(html).toContain(
      '<span class="table-card-label">Title</span><div class="table-card-value"><strong>Setup guide</strong></div>',
    );
    // The second card has no target: no link around it; its cover is a file.
    expect(html).toContain(
      '<li class="table-card"><div class="table-card-media"><img class="table-card-cover fit-cover" src="https://docs.example.com/~files/file-shot/first-space.png"',
    );
    expect(count(html, 'li')).toBe(2);
  });

  it('link cards holding links of their own with a covering link, never nested links', () => {
    const table = structuredClone(cardsTable);
    table.data.records.r2.values = {
      ...table.data.records.r2.values,
      target: { kind: 'url', url: 'https://example.com/x' },
    } as never;
    table.data.view = { ...table.data.view, hideColumnTitle: true, cardSize: 'large' } as never;
    const { html } = render(table);
    expect(html).toContain('<ul class="table-cards cards-large">');
    expect(html).toContain(
      '<a class="table-card-cover-link" href="https://example.com/x" rel="noopener" aria-label="Screenshots"></a></li>',
    );
    expect(html).not.toContain('table-card-label');
    // No <a> opens inside another.
    let depth = 0;
    for (const tag of html.matchAll(/<(\/?)a[\s>]/g)) {
      depth += tag[1] ? -1 : 1;
      expect(depth).toBeLessThanOrEqual(1);
    }
  });

  it('draw typed cells, column widths and a hidden header', () => {
    const { html } = render(typedTable);
    expect(html).toContain(
      '<colgroup><col width="220"><col><col width="80"><col><col><col><col><col></colgroup>',
    );
    expect(html).toContain(
      '<td class="align-center"><span class="checkbox-value checked" role="img" aria-label="Yes">☑</span></td>',
    );
    expect(html).toContain('<span class="checkbox-value" role="img" aria-label="No">☐</span>');
    expect(html).toContain('<td class="align-right">42</td>');
    expect(html).toContain('<td><a href="https://docs.example.com/guides/setup">Setup</a></td>');
    expect(html).toContain(
      '<td><a href="https://docs.example.com/~files/file-cheatsheet/cheatsheet.pdf">cheatsheet.pdf</a></td>',
    );
    expect(html).toContain(
      '<span class="badge badge-blue">In progress</span> <span class="badge badge-red">Blocked</span>',
    );
    expect(html).toContain(
      '<span class="rating" role="img" aria-label="3 out of 5"><span class="rating-on">★★★</span><span class="rating-off">★★</span></span>',
    );
    expect(html).toContain('aria-label="5 out of 5"');
    expect(html).toContain(
      '<img class="cell-image" src="https://docs.example.com/~files/file-shot/first-space.png" alt="Shot"',
    );
    expect(count(html, 'thead')).toBe(1);
    const hidden = render({
      ...typedTable,
      data: { ...typedTable.data, view: { ...typedTable.data.view, hideHeader: true } },
    });
    expect(count(hidden.html, 'thead')).toBe(0);
  });

  it('escape labels and drop unsafe values', () => {
    const table = structuredClone(typedTable);
    Object.assign(table.data.definition.state.options[0]!, {
      label: '<script>x</script>',
      color: 'red" onclick="x',
    });
    Object.assign(table.data.records.r1.values, {
      link: { kind: 'url', url: 'javascript:alert(1)' },
      count: '<b>1</b>',
      shot: { kind: 'url', url: 'data:image/svg+xml,<svg onload=alert(1)>' },
    });
    const { html } = render(table);
    expect(dangers(html)).toEqual([]);
    expect(html).not.toContain('<script');
    expect(html).toContain('<span class="badge">&lt;script&gt;x&lt;/script&gt;</span>');
    expect(html).toContain('<span class="unresolved-link">javascript:alert(1)</span>');
    expect(html).toContain('&lt;b&gt;1&lt;/b&gt;');
    expect(count(html, 'img')).toBe(0);
  });
});

describe('code blocks', () => {
  it('wrap without blank lines between lines: each line holds its own line end', () => {
    const { html } = render(
      codeBlock(['one', '', 'three'], { overflow: 'wrap', title: 'x.txt', lineNumbers: true }),
    );
    expect(html).toContain('<span class="code-title">x.txt</span>');
    expect(html).toContain(
      '<pre class="code line-numbers wrap" tabindex="0"><code class="hljs"><span class="line">one\n</span><span class="line">\n</span><span class="line">three</span></code></pre>',
    );
    expect(html).not.toMatch(/<\/span>\s+<span class="line/);
  });

  it('collapse long expandable blocks behind a toggle that needs no script', () => {
    const long = Array.from({ length: 12 }, (_, i) => `line ${i}`);
    const { html } = render(codeBlock(long, { expandable: true }));
    expect(html).toMatch(/^<figure class="code-block expandable-code collapse-10">/);
    expect(html).toContain(
      '<details class="code-more"><summary><span class="code-more-show">Show 2 more lines</span>',
    );
    expect(render(codeBlock(long, { expandable: true, collapsedLineCount: 5 })).html).toContain('collapse-5');
    expect(render(codeBlock(long.slice(0, 10), { expandable: true })).html).not.toContain('code-more');
  });

  it('draw the values of expressions in code lines', () => {
    const line = {
      object: 'block',
      type: 'code-line',
      data: { highlighted: true },
      nodes: [t('npm i '), inline('expression', { expression: 'space.vars.PRODUCT' })],
    };
    expect(schema202('DocumentBlockCodeLine', line)).toEqual([]);
    const { html } = render({ object: 'block', type: 'code', data: {}, nodes: [line] });
    expect(html).toContain('<span class="line hl">npm i Quire</span>');
  });
});

describe('other blocks', () => {
  it('draw captions under embeds and files', () => {
    const { html } = render({
      object: 'block',
      type: 'file',
      isVoid: true,
      data: { ref: { kind: 'file', file: 'file-cheatsheet' } },
      fragments: caption(t('The '), t('cheat', [{ object: 'mark', type: 'bold' }]), t(' sheet')),
    });
    expect(html).toMatch(
      /^<figure class="captioned"><a class="card file-card" .*<\/a><figcaption>The <strong>cheat<\/strong> sheet<\/figcaption><\/figure>$/,
    );
    const embed = render({
      object: 'block',
      type: 'embed',
      isVoid: true,
      data: { url: 'https://x.test/v' },
      fragments: caption(t('<i>cap</i>')),
    });
    expect(embed.html).toContain('<figcaption>&lt;i&gt;cap&lt;/i&gt;</figcaption>');
  });

  it('open expandables that say so', () => {
    const expandable = {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: { defaultExpanded: true },
      fragments: [
        {
          object: 'fragment',
          fragment: 'expandable-title',
          type: 'expandable-title',
          nodes: [p(t('x-flag', [{ object: 'mark', type: 'code' }]))],
        },
        { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [p(t('Body'))] },
      ],
    };
    expect(schema202('DocumentBlockExpandable', expandable)).toEqual([]);
    const { html } = render(expandable);
    expect(html).toMatch(
      /^<details class="expandable" open><summary>.*<span class="expandable-title"><code>x-flag<\/code><\/span>/,
    );
  });

  it('draw icons in hints and tabs', () => {
    const { html } = render({
      object: 'block',
      type: 'hint',
      data: { style: 'success', icon: 'rocket' },
      nodes: [p(t('Go'))],
    });
    expect(html).toMatch(/<span class="hint-icon"><svg class="fa-icon" viewBox="0 0 512 512"/);
    const tabs = render({
      object: 'block',
      type: 'tabs',
      data: {},
      nodes: [
        { object: 'block', type: 'tabs-item', data: { title: 'macOS', icon: 'apple' }, nodes: [p(t('Mac'))] },
      ],
    }).html;
    expect(tabs).toMatch(/data-slug="macos"><svg class="fa-icon tab-icon"/);
  });

  it('draw raw text as escaped paragraphs, never as code', () => {
    const { html } = render({
      object: 'block',
      type: 'raw',
      isVoid: true,
      data: { text: '<div onclick="x">a</div>\nb\n\n  \n{% weird %}' },
    });
    expect(html).toBe(
      '<p class="raw-text">&lt;div onclick=&quot;x&quot;&gt;a&lt;/div&gt;\nb</p><p class="raw-text">{% weird %}</p>',
    );
    expect(render({ object: 'block', type: 'raw', isVoid: true, data: { text: 42 } }).html).toBe('');
  });
});

describe('the whole showcase', () => {
  const { html, headings } = renderDocument(showcase(), showcaseLinks);

  it('is safe, with unique ids and no hidden branch', () => {
    expect(dangers(html)).toEqual([]);
    const ids = tags(html).flatMap((tag) => tag.attrs.get('id') ?? []);
    expect(new Set(ids).size).toBe(ids.length);
    expect(html).toContain('Partners only.');
    expect(html).not.toContain('Secret heading');
    expect(headings.map((x) => x.title)).not.toContain('Secret heading');
  });

  it('renders for a site that gives none of the optional hooks', () => {
    const bare = renderDocument(showcase(), links).html;
    expect(dangers(bare)).toEqual([]);
    expect(bare).not.toContain('Partners only.');
    expect(bare).toContain('<span class="mention mention-user">a user</span>');
  });
});

describe('malformed nodes', () => {
  const TYPES = [
    'paragraph',
    'heading-1',
    'list-ordered',
    'list-unordered',
    'list-tasks',
    'list-item',
    'blockquote',
    'hint',
    'tabs',
    'tabs-item',
    'code',
    'code-line',
    'expandable',
    'images',
    'image',
    'file',
    'embed',
    'content-ref',
    'table',
    'divider',
    'math',
    'stepper',
    'stepper-step',
    'updates',
    'update',
    'columns',
    'column',
    'if',
    'prompt',
    'reusable-content',
    'openapi-operation',
    'openapi-schemas',
    'openapi-webhook',
    'swagger',
    'integration',
    'drawing',
    'raw',
  ];
  const INLINES = [
    'link',
    'inline-image',
    'emoji',
    'inline-math',
    'icon',
    'expression',
    'mention',
    'button',
    'annotation',
  ];
  const ODD: unknown[] = [
    null,
    42,
    'text',
    {},
    [],
    [null],
    [42],
    [{}],
    { ref: 42 },
    { ref: { kind: 'page' } },
  ];

  it('draw without throwing, whatever their fields hold', () => {
    for (const odd of ODD) {
      const blocks = TYPES.map((type) => ({ object: 'block', type, data: odd, nodes: odd, fragments: odd }));
      const inlines = INLINES.map((type) => ({
        object: 'inline',
        type,
        data: odd,
        nodes: odd,
        fragments: odd,
      }));
      const nested = TYPES.map((type) => ({
        object: 'block',
        type,
        data: {},
        nodes: [p(...inlines), ...blocks],
      }));
      const html = (() => {
        try {
          return renderDocument(doc(...blocks, p(...inlines), ...nested), showcaseLinks).html;
        } catch (error) {
          throw new Error(`${JSON.stringify(odd)}: ${(error as Error).stack}`);
        }
      })();
      expect(dangers(html)).toEqual([]);
    }
  });

  it('draw text leaves, marks, table records and code lines of odd shapes', () => {
    for (const odd of ODD) {
      const text = { object: 'text', leaves: odd };
      const leaf = { object: 'text', leaves: [{ object: 'leaf', text: odd, marks: odd }, null, 42] };
      const marks = {
        object: 'text',
        leaves: [{ object: 'leaf', text: 'x', marks: [odd, { type: 'color', data: odd }] }],
      };
      const table = {
        object: 'block',
        type: 'table',
        data: {
          view: {
            type: odd === 42 ? 'cards' : 'grid',
            columns: odd,
            columnWidths: odd,
            coverDefinition: 'c',
          },
          records: {
            r: odd,
            s: { orderIndex: odd, values: odd },
            t: { orderIndex: 'a', values: { c: odd } },
          },
          definition: { c: odd, d: { type: 'select', options: odd } },
        },
        fragments: [odd, { fragment: 'f', nodes: odd }],
      };
      const code = {
        object: 'block',
        type: 'code',
        data: odd,
        nodes: [odd, { object: 'block', type: 'code-line', nodes: odd }],
      };
      const html = renderDocument(doc(p(text, leaf, marks), table, code), showcaseLinks).html;
      expect(dangers(html)).toEqual([]);
    }
  });
});

describe('headings in table cells and cards', () => {
  it('are drawn but stay out of the page outline, as do headings without words', async () => {
    const { renderDocument } = await import('../../../src/publish/render/document-html.js');
    const heading = (text: string) => ({
      object: 'block',
      type: 'heading-2',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }],
    });
    const table = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'cards', columns: ['c0'], cardSize: 'medium' },
        records: { r0: { orderIndex: 'a0', values: { c0: 'r0c0' } } },
        definition: { c0: { id: 'c0', title: '', type: 'text', textAlignment: 'left' } },
      },
      fragments: [{ object: 'fragment', fragment: 'r0c0', nodes: [heading('Card title'), heading('')] }],
    };
    const rendered = renderDocument(
      { object: 'document', data: {}, nodes: [heading('Section'), table, heading('')] } as never,
      { page: () => undefined, file: () => undefined, url: (u) => u },
    );
    expect(rendered.html).toContain('Card title');
    expect(rendered.headings.map((h) => h.title)).toEqual(['Section']);
  });
});
