import { describe, expect, it } from 'vitest';
import { checkPath, MAX_PATH } from '../../src/areas/sites/rules.js';
import { HeadingAnchors, headingId, pageSlug, Slugger, titleSlug } from '../../src/content/slugs.js';
import { escapeHtml, escapeMarkdownHtml, unescapeHtml } from '../../src/html-escape.js';

describe('heading ids (as GitBook makes them)', () => {
  it('are lowercase ASCII words joined by -', () => {
    expect(headingId('Getting Started!')).toBe('getting-started');
    expect(headingId("What's new in v2.0?")).toBe('whats-new-in-v2.0');
    expect(headingId('Café  au lait')).toBe('cafe-au-lait');
    expect(headingId('日本語')).toBe('');
  });

  it('are numbered when repeated, by the slugger and by the anchors of a drawn page', () => {
    const slugger = new Slugger();
    expect([slugger.slug('Setup'), slugger.slug('Setup'), slugger.slug('日本語')]).toEqual([
      'setup',
      'setup-1',
      undefined,
    ]);
    const anchors = new HeadingAnchors();
    expect(anchors.next(undefined, 'Setup')).toBe('setup');
    expect(anchors.next('setup', 'Other')).toBe('setup-1');
    expect(anchors.next('Not An Id!', '日本語')).toBe('section');
    expect(anchors.next(42, '日本語')).toBe('section-1');
  });
});

describe('slugs made from titles (page slugs, site paths)', () => {
  it('keep letters and digits of every script, drop accents, join the rest with -', () => {
    expect(pageSlug('Getting Started!')).toBe('getting-started');
    expect(pageSlug('API Référence')).toBe('api-reference');
    expect(pageSlug('日本語のガイド')).toBe('日本語のガイド');
    expect(pageSlug('हिन्दी में')).toBe('हिन्दी-में');
    expect(titleSlug('ภาษาไทย', 'space', 100)).toBe('ภาษาไทย');
    for (const title of ['हिन्दी में', '日本語のガイド', 'API Référence'])
      expect(checkPath(titleSlug(title, 'space', MAX_PATH), 'path')).toBeTruthy();
    expect(pageSlug('한국어 문서')).toBe('한국어-문서');
    expect(pageSlug('Über uns — Straße')).toBe('uber-uns-straße');
  });

  it('fall back when a title has no letter or digit, and keep to the length without a trailing -', () => {
    expect(pageSlug('🎉 !!')).toBe('page');
    expect(titleSlug('—', 'space', 100)).toBe('space');
    const long = `${'a'.repeat(79)} b`;
    expect(pageSlug(long)).toBe('a'.repeat(79));
    expect(titleSlug('x'.repeat(150), 'space', 100)).toHaveLength(100);
    expect(Array.from(titleSlug('𝒜'.repeat(120), 'space', 100))).toHaveLength(100);
  });
});

describe('HTML escaping', () => {
  it('escapes all five characters in what Quire serves, and undoes it', () => {
    const text = `<a href="x">Tom & Jerry's</a>`;
    const escaped = escapeHtml(text);
    expect(escaped).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
    expect(unescapeHtml(escaped)).toBe(text);
    expect(escapeHtml(null as unknown as string)).toBe('');
  });

  it('writes HTML in markdown as GitBook does: apostrophes stay', () => {
    expect(escapeMarkdownHtml(`Tom & "Jerry's" <b>`)).toBe(`Tom &amp; &quot;Jerry's&quot; &lt;b&gt;`);
  });
});
