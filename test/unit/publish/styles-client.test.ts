import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash, loadSiteAssets, type SiteAssetSet } from '../../../src/publish/render/assets.js';
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

/** The checks every stylesheet served to sites passes, from source or built. */
function checkStylesheet(css: string): void {
  // Both themes, focus styles, highlight.js colours, small screens.
  expect(css).toMatch(/:root\[data-theme="?dark"?\]/);
  expect(css).toMatch(/@media ?\(prefers-color-scheme: ?dark\)/);
  expect(css).toContain(':focus-visible');
  expect(css).toContain('.hljs-keyword');
  expect(css).toMatch(/@media ?\(max-width: ?900px\)/);
  // Loads nothing from anywhere, and can be inlined in a <style> element.
  expect(css).not.toMatch(/url\(|@import|@font-face|https?:/);
  expect(css).not.toMatch(/<\/style/i);
  // Balanced braces.
  let depth = 0;
  for (const c of css) {
    if (c === '{') depth++;
    if (c === '}') depth--;
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
}

/** The checks every script served to sites passes, from source or built. */
function checkScript(js: string): void {
  expect(() => new Function(js)).not.toThrow();
  // Never inserts data as HTML and loads nothing from elsewhere.
  expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
  expect(js).not.toMatch(/https?:\/\//);
  expect(js).toContain('textContent');
  // Can be inlined in a page.
  expect(js).not.toMatch(/<\/script|<!--/i);
}

const SOURCES = new URL('../../../src/publish/assets/', import.meta.url);

describe('SITE_CSS', () => {
  it('is the stylesheet of src/publish/assets with its imports in place, safe to serve', () => {
    checkStylesheet(SITE_CSS);
    expect(SITE_CSS).toContain('.w-100 {');
    expect(SITE_CSS).toContain('.badge-primary {');
  });

  it('has a content hash', () => {
    expect(SITE_CSS_HASH).toMatch(/^[0-9a-f]{16}$/);
    expect(SITE_CSS_HASH).toBe(contentHash(SITE_CSS));
  });

  it('has the same dark palette for the toggle and for the system preference', () => {
    const theme = readFileSync(new URL('theme.css', SOURCES), 'utf8');
    const declarations = (block: string | undefined) =>
      (block ?? '')
        .split(';')
        .map((d) => d.trim())
        .filter(Boolean);
    const chosen = /:root\[data-theme="dark"\] \{([^}]*)\}/.exec(theme)?.[1];
    const system =
      /@media \(prefers-color-scheme: dark\) \{\s*:root:not\(\[data-theme="light"\]\) \{([^}]*)\}/.exec(
        theme,
      )?.[1];
    expect(declarations(chosen).length).toBeGreaterThan(30);
    expect(declarations(system)).toEqual(declarations(chosen));
  });
});

describe('SITE_JS', () => {
  it('is src/publish/assets/site.js, safe to serve and to inline', () => {
    checkScript(SITE_JS);
    expect(SITE_JS).toBe(readFileSync(new URL('site.js', SOURCES), 'utf8'));
    expect(SITE_JS_HASH).toBe(contentHash(SITE_JS));
  });
});

describe('the asset build (scripts/build-assets.mjs)', () => {
  let out: string;
  let built: SiteAssetSet;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'quire-assets-'));
    // A file of an earlier build, which the build removes.
    writeFileSync(join(out, 'site-0123456789abcdef.css'), 'old');
    const script = new URL('../../../scripts/build-assets.mjs', import.meta.url);
    await promisify(execFile)(process.execPath, [script.pathname, out]);
    built = loadSiteAssets(pathToFileURL(`${out}/`));
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the minified files named by content hash, and a manifest the server reads', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest).toEqual({ 'site.css': built.cssFile, 'site.js': built.jsFile });
    expect(readdirSync(out).sort()).toEqual([built.cssFile, built.jsFile, 'manifest.json'].sort());
    expect(built.cssFile).toBe(`site-${contentHash(built.css)}.css`);
    expect(built.jsFile).toBe(`site-${contentHash(built.js)}.js`);
    expect(built.files.get(built.cssFile)?.body).toBe(built.css);
    expect(built.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it('serves what the sources say, smaller', () => {
    checkStylesheet(built.css);
    checkScript(built.js);
    expect(built.css.length).toBeLessThan(SITE_CSS.length * 0.9);
    expect(built.js.length).toBeLessThan(SITE_JS.length * 0.7);
    expect(built.css).not.toContain('/*');
    // Every class of the sources is still there.
    const classes = (css: string) => new Set(css.match(/\.[a-z][\w-]*/g));
    expect(classes(built.css)).toEqual(classes(SITE_CSS.replace(/\/\*[\s\S]*?\*\//g, '')));
  });

  it('refuses a directory with neither sources nor a build', () => {
    expect(() => loadSiteAssets(pathToFileURL(`${tmpdir()}/quire-no-assets-here/`))).toThrow(/npm run build/);
  });
});
