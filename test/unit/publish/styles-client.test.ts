import { describe, expect, it } from 'vitest';
import { SITE_JS, SITE_JS_HASH } from '../../../src/publish/render/client.js';
import {
  fontStack,
  isSafeColor,
  renderLookCss,
  SITE_CSS,
  SITE_CSS_HASH,
} from '../../../src/publish/render/styles.js';
import { sampleLook } from './sample-site.js';

describe('isSafeColor', () => {
  it('accepts hex colours only', () => {
    for (const ok of ['#abc', '#ABCD', '#a1b2c3', '#a1b2c3d4']) expect(isSafeColor(ok)).toBe(true);
    for (const bad of [
      'red',
      '#ggg',
      '#12345',
      '#1234567',
      '#fff;',
      '#fff }',
      ' #fff',
      '#fff\n',
      'rgb(0,0,0)',
      'url(javascript:x)',
      '</style>',
      undefined,
      42,
    ]) {
      expect(isSafeColor(bad)).toBe(false);
    }
  });
});

describe('renderLookCss', () => {
  it('sets colour variables for both themes from valid colours', () => {
    const css = renderLookCss(
      sampleLook({
        primaryColor: { light: '#346ddb', dark: '#7aa2ff' },
        tint: { light: '#7c3aed' },
        dangerColor: { light: '#e11d48', dark: 'nope' },
        corners: 'straight',
        font: 'Merriweather',
      }),
    );
    expect(css).toContain(':root { --primary: #346ddb; --tint: #7c3aed; --danger: #e11d48; --radius: 0px;');
    expect(css).toContain('--font: Merriweather, Georgia');
    // The dark theme: chosen, or by the system when nothing was chosen.
    expect(css).toContain(
      ':root[data-theme="dark"] { --primary: #7aa2ff; --tint: #7c3aed; --danger: #e11d48;',
    );
    expect(css).toContain(
      '@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) { --primary: #7aa2ff;',
    );
  });

  it('is empty without customization', () => {
    expect(
      renderLookCss({ theme: { default: 'system', toggleable: false }, headerLinks: [], pagination: true }),
    ).toBe('');
  });

  it('knows fonts from a fixed list only', () => {
    expect(fontStack('Inter')).toMatch(/^Inter, "Inter var", system-ui/);
    expect(fontStack('Comic Sans; } body { color: red')).toMatch(/^system-ui/);
    expect(fontStack('constructor')).toMatch(/^system-ui/);
    expect(
      renderLookCss(sampleLook({ font: '__proto__', primaryColor: undefined, corners: undefined })),
    ).toBe('');
  });
});

describe('SITE_CSS', () => {
  it('has both themes, focus styles and highlight.js colours', () => {
    expect(SITE_CSS).toContain(':root[data-theme="dark"]');
    expect(SITE_CSS).toContain('@media (prefers-color-scheme: dark)');
    expect(SITE_CSS).toContain(':focus-visible');
    expect(SITE_CSS).toContain('.hljs-keyword');
    expect(SITE_CSS).toContain('@media (max-width: 900px)');
  });

  it('loads nothing from anywhere', () => {
    expect(SITE_CSS).not.toMatch(/url\(|@import|@font-face|https?:/);
  });

  it('has balanced braces', () => {
    let depth = 0;
    for (const c of SITE_CSS) {
      if (c === '{') depth++;
      if (c === '}') depth--;
      expect(depth).toBeGreaterThanOrEqual(0);
    }
    expect(depth).toBe(0);
  });

  it('has a content hash', () => {
    expect(SITE_CSS_HASH).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('SITE_JS', () => {
  it('parses as a script', () => {
    expect(() => new Function(SITE_JS)).not.toThrow();
    expect(SITE_JS_HASH).toMatch(/^[0-9a-f]{16}$/);
  });

  it('never inserts data as HTML and loads nothing from elsewhere', () => {
    expect(SITE_JS).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    expect(SITE_JS).not.toMatch(/https?:\/\//);
    expect(SITE_JS).toContain('textContent');
  });

  it('can be inlined in a page', () => {
    expect(SITE_JS).not.toMatch(/<\/script|<!--/i);
  });
});
