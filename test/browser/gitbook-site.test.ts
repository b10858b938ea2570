import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SiteVisibility } from '@gitbook/api';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/browser/chromium.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { CORPUS, importCorpus } from '../helpers/gitbook-corpus.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { publishedSite } from '../helpers/sites.js';

/**
 * The fixture corpus's handbook and developer portal, published and read in headless Chromium:
 * each page as a reader sees it has no code box showing `{%` or GitBook's HTML, no broken
 * image, no element that overflows the page, and the blocks are there as components. Screenshots
 * of a few pages in both themes go to test-output/.
 */

const OUTPUT = path.resolve('test-output');

let server: TestServer;
let git: GitServer;
let owner: TestUser;
let browser: Browser;
const roots: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  git = await startGitServer();
  owner = await createUser(server);
  const orgId = await createOrg(owner, 'Browser corpus');
  // The developer portal's API blocks draw the spec kept in its own repository.
  await owner.api.orgs.createOpenApiSpec(orgId, {
    slug: 'lumen-api',
    source: {
      text: readFileSync(path.join(CORPUS, 'developers/docs/.gitbook/assets/lumen-openapi.yaml'), 'utf8'),
    },
  });
  await server.app.quire.services.jobs.runDue();
  for (const repository of ['handbook', 'developers'] as const) {
    const { spaceId } = await importCorpus(server, git, owner, orgId, repository);
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, repository);
    roots.push(site.urls.published!.replace(/\/?$/, '/'));
  }
  browser = await chromium.launch(await findChromium());
  mkdirSync(OUTPUT, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await git?.close();
});

/**
 * A full-page screenshot to look at after the run. It is a picture for people, not a check: a
 * browser that cannot capture one (a busy machine, a page taller than its texture limit) is
 * told once more, then left.
 */
async function snapshot(page: Page, name: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await page.screenshot({ path: path.join(OUTPUT, name), fullPage: attempt === 0 });
      return;
    } catch {
      // Retried once, without the full page.
    }
  }
}

/** The pages of a site, from its sitemap (every visible page). */
async function pagesOf(root: string): Promise<string[]> {
  const xml = await (await fetch(`${root}sitemap.xml`)).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
}

describe('GitBook content in the browser', () => {
  it('shows every block as a component: no raw tags, no broken image, nothing wider than the page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const problems: string[] = [];
    let visited = 0;
    for (const root of roots) {
      for (const url of await pagesOf(root)) {
        await page.goto(url, { waitUntil: 'load' });
        visited++;
        const found = await page.evaluate(() => {
          const out: string[] = [];
          const main = document.querySelector('main') ?? document.body;
          for (const code of Array.from(main.querySelectorAll('pre, code, .code'))) {
            const text = code.textContent ?? '';
            // Code samples may show tags on purpose only inside fences of liquid or markdown.
            if (
              /\{%\s*(hint|tabs|stepper|step|updates|columns|if|include|openapi|embed|file|code)\b/.test(
                text,
              ) &&
              !code.closest('[data-language="markdown"], [data-language="liquid"], .prompt')
            )
              out.push(`code shows a tag: ${text.slice(0, 60)}`);
          }
          const text = main.textContent ?? '';
          for (const raw of [
            '{% ',
            '<figure',
            '<table',
            '<details',
            'data-view=',
            '<mark style',
            'class="button',
          ]) {
            if (text.includes(raw)) out.push(`text shows ${raw}`);
          }
          for (const img of Array.from(main.querySelectorAll('img'))) {
            const style = getComputedStyle(img);
            if (style.display === 'none' || img.closest('[hidden]')) continue;
            if (img.complete && img.naturalWidth === 0) out.push(`broken image ${img.getAttribute('src')}`);
          }
          if (document.documentElement.scrollWidth > window.innerWidth + 1)
            out.push('page wider than the window');
          return out;
        });
        for (const problem of found) problems.push(`${url}: ${problem}`);
      }
    }
    expect(visited).toBeGreaterThan(45);
    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws steppers, cards, columns, tabs, timelines and dark images, in both themes', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: scheme,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const handbook = roots[0]!;
      await page.goto(handbook, { waitUntil: 'load' });
      await snapshot(page, `corpus-home-${scheme}.png`);
      expect(await page.locator('main a[href] .card, main .cards a, main .card').count()).toBeGreaterThan(0);
      await page.goto(`${handbook}getting-started/quickstart`, { waitUntil: 'load' });
      expect(await page.locator('main .stepper-step').count()).toBeGreaterThan(1);
      await snapshot(page, `corpus-quickstart-${scheme}.png`);
      await page.goto(`${handbook}whats-new`, { waitUntil: 'load' });
      expect(await page.locator('main time').count()).toBeGreaterThan(1);
      await page.goto(`${handbook}guides/analytics/dashboards`, { waitUntil: 'load' });
      // The dark variant shows in the dark theme only.
      const shown = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main img'))
          .filter((img) => getComputedStyle(img).display !== 'none')
          .map((img) => img.getAttribute('src') ?? ''),
      );
      expect(shown.some((src) => /dark/.test(src))).toBe(scheme === 'dark');
      await snapshot(page, `corpus-dashboards-${scheme}.png`);
      await context.close();
    }
  });

  it('draws API references readable without script, in both themes', async () => {
    const colors: Record<string, string> = {};
    for (const scheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: scheme,
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const developers = roots[1]!;
      await page.goto(`${developers}api/payments`, { waitUntil: 'load' });
      const operations = page.locator('main .oa-operation');
      expect(await operations.count()).toBe(3);
      expect(await operations.first().isVisible()).toBe(true);
      expect(await page.locator('main').textContent()).toContain('Create a payment');
      // What is folded opens by itself: <details>, no script.
      // A handle, not a locator: once open, the element no longer matches `:not([open])`.
      const folded = (await page
        .locator('main .oa-operation details:not([open]):visible')
        .first()
        .elementHandle())!;
      await (await folded.$('summary'))!.click();
      expect(await folded.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
      colors[scheme] = await operations
        .first()
        .evaluate(
          (element) => `${getComputedStyle(element).color} ${getComputedStyle(element).backgroundColor}`,
        );
      await snapshot(page, `corpus-api-payments-${scheme}.png`);
      // A reference page computed from SUMMARY.md.
      await page.goto(`${developers}reference/lumen-api/refunds`, { waitUntil: 'load' });
      expect(await page.locator('main .oa-operation').count()).toBeGreaterThan(0);
      await context.close();
    }
    expect(colors.light).not.toBe(colors.dark);
  });
});
