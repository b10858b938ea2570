import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../../src/publish/render/document-html.js';
import { faIcon, findFaIcon } from '../../../src/publish/render/fa-icons.js';
import type { DocumentLinks } from '../../../src/publish/render/model.js';
import { officialSpecs } from '../../helpers/official-spec.js';
import { count, dangers, tags, withAttr } from './html-check.js';
import { annotation, doc, inline, p, showcaseLinks, t } from './sample-blocks.js';
import { links } from './sample-site.js';

/** The HTML of one paragraph holding `nodes`, without the `<p>` around it. */
function inlines(nodes: unknown[], hooks: DocumentLinks = showcaseLinks): string {
  return renderDocument(doc(p(...nodes)), hooks).html.replace(/^<p>|<\/p>$/g, '');
}

function schema202(name: string, value: unknown): string[] {
  const validate = officialSpecs()
    .find((s) => s.version === '0.202')!
    .componentValidator(name)!;
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('Font Awesome icons', () => {
  it('are inline SVG for known names, prefixes and aliases', () => {
    const rocket = faIcon('rocket');
    expect(rocket).toMatch(
      /^<svg class="fa-icon" viewBox="0 0 512 512" width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false"><path d="M[^"]+"\/><\/svg>$/,
    );
    expect(faIcon('fa-github')).toContain('viewBox="0 0 512 512"');
    expect(findFaIcon('github')?.iconName).toBe('github');
    expect(findFaIcon('cog')?.iconName).toBe('gear');
    expect(findFaIcon('Windows')?.iconName).toBe('windows');
    // GitBook's Pro names fall back to the nearest free icon.
    expect(findFaIcon('hand-wave')?.iconName).toBe('hand');
    expect(faIcon('apple', 'tab-icon')).toMatch(
      /^<svg class="fa-icon tab-icon" viewBox="0 0 384 512" width="0.75em"/,
    );
  });

  it('are a neutral dot for unknown or hostile names', () => {
    for (const name of ['no-such-icon', '', '"><script>alert(1)</script>', 'rocket rocket', 42, undefined]) {
      const svg = faIcon(name);
      expect(svg).toContain('class="fa-icon fa-missing"');
      expect(svg).toContain('<circle');
      expect(svg).not.toContain('script');
    }
  });

  it('draw inline with a colour of the palette', () => {
    const node = inline('icon', { icon: 'github', color: '$primary' });
    expect(schema202('DocumentInlineIcon', node)).toEqual([]);
    expect(inlines([node])).toMatch(/^<span class="inline-icon tc-primary"><svg class="fa-icon"/);
    expect(inlines([inline('icon', { icon: 'no-such-icon', color: 'red" onclick="x' })])).toMatch(
      /^<span class="inline-icon"><svg class="fa-icon fa-missing"/,
    );
  });
});

describe('buttons', () => {
  it('link to references', () => {
    const html = inlines([
      inline('button', {
        label: 'Setup',
        kind: 'secondary',
        size: 'small',
        ref: { kind: 'page', page: 'page-setup' },
      }),
      inline('button', {
        label: 'Site',
        kind: 'primary',
        icon: 'rocket',
        ref: { kind: 'url', url: 'https://x.test/' },
      }),
    ]);
    expect(html).toContain(
      '<a class="button button-secondary button-small" href="https://docs.example.com/guides/setup"><span class="button-label">Setup</span></a>',
    );
    expect(html).toMatch(
      /<a class="button button-primary button-medium" href="https:\/\/x\.test\/" rel="noopener"><svg class="fa-icon button-icon"[^>]*>.*<\/svg><span class="button-label">Site<\/span><\/a>/,
    );
  });

  it('with a search, ask or select action are buttons the site script wires', () => {
    const html = inlines([
      inline('button', { label: 'Find', kind: 'primary', action: { action: 'search', query: 'install' } }),
      inline('button', { label: 'Ask', kind: 'primary', action: { action: 'ask' } }),
      inline('button', { label: 'Mac', kind: 'secondary', action: { action: 'select', slug: 'Mac OS' } }),
    ]);
    const buttons = tags(html).filter((tag) => tag.name === 'button');
    expect(
      buttons.map((b) => [b.attrs.get('type'), b.attrs.get('data-action'), b.attrs.get('data-query')]),
    ).toEqual([
      ['button', 'search', 'install'],
      ['button', 'search', undefined],
      ['button', 'select', undefined],
    ]);
    expect(buttons[2]!.attrs.get('data-slug')).toBe('mac-os');
  });

  it('escape labels and queries and never link unsafe URLs', () => {
    const html = inlines([
      inline('button', {
        label: '<img src=x onerror=alert(1)>',
        kind: 'primary',
        ref: { kind: 'url', url: 'javascript:alert(1)' },
      }),
      inline('button', {
        label: 'q',
        kind: '"><x',
        action: { action: 'search', query: '"><script>alert(1)</script>' },
      }),
    ]);
    expect(dangers(html)).toEqual([]);
    expect(html).not.toContain('<script');
    expect(html).toContain(
      '<span class="button button-primary button-medium unavailable"><span class="button-label">&lt;img',
    );
    expect(html).toContain('data-query="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(count(html, 'a')).toBe(0);
  });
});

describe('expressions', () => {
  it('draw the value the site gives, escaped, and nothing otherwise', () => {
    const node = inline('expression', { expression: 'space.vars.PRODUCT' });
    expect(schema202('DocumentInlineExpression', node)).toEqual([]);
    expect(inlines([t('Use '), node, t('.')])).toBe('Use <span class="expression">Quire</span>.');
    expect(inlines([t('Use '), node, t('.')], links)).toBe('Use .');
    const hostile: DocumentLinks = { ...links, expression: () => '<script>alert(1)</script>' };
    expect(inlines([node], hostile)).toBe(
      '<span class="expression">&lt;script&gt;alert(1)&lt;/script&gt;</span>',
    );
    const failing: DocumentLinks = {
      ...links,
      expression: () => {
        throw new Error('no such variable');
      },
    };
    expect(inlines([t('a'), node], failing)).toBe('a');
  });

  it('give their value to heading titles', () => {
    const { headings } = renderDocument(
      doc({
        object: 'block',
        type: 'heading-1',
        data: {},
        nodes: [t('About '), inline('expression', { expression: 'space.vars.PRODUCT' })],
      }),
      showcaseLinks,
    );
    expect(headings).toEqual([{ id: 'about-quire', title: 'About Quire', level: 1 }]);
  });
});

describe('annotations', () => {
  it('are a button described by a note of phrasing content', () => {
    expect(schema202('DocumentInlineAnnotation', annotation)).toEqual([]);
    const html = inlines([t('Some '), annotation, t(' here.')]);
    const [trigger] = tags(html).filter((tag) => tag.name === 'button');
    const [note] = withAttr(html, 'role', 'note');
    expect(trigger!.attrs.get('type')).toBe('button');
    expect(trigger!.attrs.get('aria-describedby')).toBe(note!.attrs.get('id'));
    expect(html).toContain('annotated words</button>');
    expect(html).toContain(
      '<span class="annotation-paragraph">The note, with <code>code</code></span><span class="annotation-paragraph">Second paragraph.</span>',
    );
    // Inside a paragraph: no element that would end it.
    for (const name of ['p', 'div', 'ul', 'pre', 'h2', 'h3']) expect(count(html, name)).toBe(0);
  });

  it('escape their text and note', () => {
    const hostile = {
      ...annotation,
      nodes: [t('<b>x</b>')],
      fragments: [{ ...annotation.fragments[0], nodes: [p(t('<script>alert(1)</script>'))] }],
    };
    const html = inlines([hostile]);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;</button>');
  });
});

describe('mentions', () => {
  it('name pages, anchors, files, URLs and users', () => {
    const mention = (ref: unknown) => inline('mention', { ref });
    const page = mention({ kind: 'page', page: 'page-setup' });
    expect(schema202('DocumentInlineMention', page)).toEqual([]);
    const html = inlines([
      page,
      mention({ kind: 'anchor', page: 'page-setup', anchor: 'database' }),
      mention({ kind: 'user', user: 'u1' }),
      mention({ kind: 'user', user: 'u2' }),
      mention({ kind: 'url', url: 'https://example.com/x' }),
      mention({ kind: 'page', page: 'missing' }),
      mention({ kind: 'url', url: 'javascript:alert(1)' }),
    ]);
    expect(html).toContain(
      '<a class="mention" href="https://docs.example.com/guides/setup"><span class="mention-emoji" aria-hidden="true">⚙</span>Setup</a>',
    );
    expect(html).toContain(
      'href="https://docs.example.com/guides/setup#database"><span class="mention-emoji" aria-hidden="true">⚙</span>Setup › database</a>',
    );
    expect(html).toContain(
      '<span class="mention mention-user">Jane Doe</span><span class="mention mention-user">a user</span>',
    );
    expect(html).toContain(
      '<a class="mention" href="https://example.com/x" rel="noopener">https://example.com/x</a>',
    );
    expect(html).toContain('<span class="mention unresolved-link">a page</span>');
    expect(html).toContain('<span class="mention unresolved-link">javascript:alert(1)</span>');
    expect(dangers(html)).toEqual([]);
  });
});

describe('inline images and marks', () => {
  it('draw line-sized and original images, with a dark variant', () => {
    const html = inlines([
      inline('inline-image', {
        ref: { kind: 'url', url: 'https://x.test/l.svg' },
        refDark: { kind: 'url', url: 'https://x.test/d.svg' },
        alt: 'logo',
        size: 'line',
      }),
      inline('inline-image', { ref: { kind: 'url', url: 'https://x.test/o.png' }, size: 'original' }),
    ]);
    expect(html).toBe(
      '<img class="inline-image light-only" src="https://x.test/l.svg" alt="logo" loading="lazy" decoding="async">' +
        '<img class="inline-image dark-only" src="https://x.test/d.svg" alt="logo" loading="lazy" decoding="async">' +
        '<img class="inline-image inline-image-original" src="https://x.test/o.png" alt="" loading="lazy" decoding="async">',
    );
  });

  it('ignore marks and alignments of unknown names, inherited ones included', () => {
    const odd = ['constructor', '__proto__', 'toString'].map((type) => ({ object: 'mark', type }));
    expect(inlines([t('x', odd)])).toBe('x');
    const html = renderDocument(
      doc({ object: 'block', type: 'paragraph', data: { align: 'constructor' }, nodes: [t('y')] }),
      links,
    ).html;
    expect(html).toBe('<p>y</p>');
    expect(faIcon('constructor')).toContain('fa-missing');
  });

  it('colour text and backgrounds with every colour of 0.202', () => {
    const color = (text: string, background: string) => ({
      object: 'mark',
      type: 'color',
      data: { text, background },
    });
    expect(
      inlines([
        t('a', [color('pink', 'cyan')]),
        t('b', [color('$tint', '$warning')]),
        t('c', [color('default', 'violet')]),
        t('k', [{ object: 'mark', type: 'keyboard' }]),
      ]),
    ).toBe(
      '<span class="tc-pink bg-cyan">a</span><span class="tc-tint bg-warning">b</span><span class="bg-violet">c</span><kbd>k</kbd>',
    );
  });
});

describe('cover images of cards', () => {
  it('accept a bare reference, a record or a list of files', () => {
    const table = (cover: unknown) => ({
      object: 'block',
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'cards', columns: ['c'], cardSize: 'medium', coverDefinition: 'c' },
        records: { r: { orderIndex: 'a', values: { c: cover } } },
        definition: { c: { id: 'c', title: 'Cover', type: 'image' } },
      },
      fragments: [],
    });
    for (const cover of [
      { kind: 'file', file: 'file-shot' },
      { ref: { kind: 'file', file: 'file-shot' } },
      ['file-shot'],
    ]) {
      expect(renderDocument(doc(table(cover)), links).html).toContain(
        'src="https://docs.example.com/~files/file-shot/first-space.png"',
      );
    }
    expect(renderDocument(doc(table({ kind: 'url', url: 'javascript:alert(1)' })), links).html).not.toContain(
      '<img',
    );
  });
});
