import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Site, SiteVisibility } from '@gitbook/api';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/browser/chromium.js';
import { signVisitorToken } from '../../src/publish/visitor-token.js';
import { type Change, newChangeRequest, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { docsSpace, publishedSite } from '../helpers/sites.js';

/** Where screenshots go, to look at after a run (CI prints the path). */
const OUTPUT = path.resolve('test-output');

let server: TestServer;
let owner: TestUser;
let orgId: string;
let spaceId: string;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server, { name: 'Site owner' });
  orgId = await createOrg(owner, 'Browser org');
  spaceId = (await docsSpace(owner, orgId)).spaceId;
  browser = await chromium.launch(await findChromium());
  mkdirSync(OUTPUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server.close();
});

const rootOf = (site: Site) => site.urls.published!.replace(/\/?$/, '/');

async function fresh(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // Fail on the step that hangs, well inside the test's own timeout.
  page.setDefaultTimeout(8000);
  return page;
}

describe('a public site in the browser', () => {
  it('follows the navigation, shows blocks, searches and switches theme', async () => {
    const site = await publishedSite(owner, orgId, [spaceId]);
    const root = rootOf(site);
    const page = await fresh();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    const response = await page.goto(root);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toContain('Welcome');
    expect(await page.locator('h1').first().textContent()).toContain('Welcome');
    expect(await page.getByText('Remember to restart').isVisible()).toBe(true);
    expect(await page.locator('.hljs-keyword').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(OUTPUT, 'published-site.png'), fullPage: true });

    // Children show under their parent once the visitor is on it.
    await page
      .getByRole('navigation', { name: 'Pages', exact: true })
      .getByRole('link', { name: 'Guides' })
      .click();
    await page.waitForURL(`${root}guides`);
    await page
      .getByRole('navigation', { name: 'Pages', exact: true })
      .getByRole('link', { name: 'Install' })
      .click();
    await page.waitForURL(`${root}guides/install`);
    expect(await page.locator('h1').first().textContent()).toContain('Install');

    const search = page.getByRole('combobox', { name: 'Search this site' });
    await search.fill('frobnicator');
    const result = page.getByRole('option').filter({ hasText: 'Reference' });
    await result.waitFor();
    await result.getByRole('link').click();
    await page.waitForURL(`${root}reference`);
    expect(await page.locator('h1').first().textContent()).toContain('Reference');

    const html = page.locator('html');
    const before = await html.getAttribute('data-theme');
    await page.getByRole('button', { name: /^Switch to (dark|light) theme$/ }).click();
    const after = await html.getAttribute('data-theme');
    expect(after).toMatch(/^(light|dark)$/);
    expect(after).not.toBe(before);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.reload();
    expect(await html.getAttribute('data-theme')).toBe(after);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background);
    await page.screenshot({ path: path.join(OUTPUT, `published-site-${after}.png`) });

    expect(errors).toEqual([]);
    await page.context().close();
  });
});

/**
 * A space too large to send its tree in every page: 12 sections of 5 pages, and a catalog of
 * 150 items side by side. Answers the published site's root.
 */
async function largeSite(): Promise<string> {
  const space = (await owner.api.orgs.createSpace(orgId, { title: 'Large docs' })).data.id;
  const crId = await newChangeRequest(owner.api, space, 'Seed');
  const insert = (title: string, slug: string, extra: Record<string, unknown> = {}): Change => ({
    operation: 'insert_page',
    title,
    slug,
    document: { markdown: `All about ${title}.` },
    ...extra,
  });
  const top: Change[] = [insert('Home', 'home')];
  for (let s = 0; s < 12; s++) top.push(insert(`Section ${s}`, `s${s}`, { ref: `s${s}` }));
  top.push(insert('Catalog', 'catalog', { ref: 'catalog' }));
  const ids = new Map<string, string>();
  for (const change of (await write(owner.api, space, crId, top)).changes)
    if (change.ref && typeof change.page === 'object') ids.set(change.ref, change.page.id);
  const below: Change[] = [];
  for (let s = 0; s < 12; s++)
    for (let p = 0; p < 5; p++) below.push(insert(`Page ${s}.${p}`, `p${p}`, { into: ids.get(`s${s}`) }));
  for (let i = 0; i < 150; i++) below.push(insert(`Item ${i}`, `item-${i}`, { into: ids.get('catalog') }));
  for (let at = 0; at < below.length; at += 50) await write(owner.api, space, crId, below.slice(at, at + 50));
  await owner.api.spaces.mergeChangeRequest(space, crId);
  return rootOf(await publishedSite(owner, orgId, [space], SiteVisibility.Public, 'Large'));
}

describe('the tree of a large space in the browser', () => {
  it('lists the children of a closed branch, and the rest of a long list, from the whole tree', async () => {
    const root = await largeSite();
    const page = await fresh();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const fragments: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/~tree/')) fragments.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${root}s2/p1`);
    const nav = page.getByRole('navigation', { name: 'Pages', exact: true });
    // Sent closed: no pages of section 7 in the page.
    expect(await nav.getByRole('link', { name: 'Page 7.0' }).count()).toBe(0);
    const toggle = nav.getByRole('button', { name: 'Section 7: show or hide pages' });
    const before = (await toggle.boundingBox())!.y;
    await toggle.click();
    await nav.getByRole('link', { name: 'Page 7.0' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Page 7.4' }).isVisible()).toBe(true);
    expect(page.url()).toBe(`${root}s2/p1`);
    expect(fragments).toHaveLength(1);
    expect(fragments[0]).toMatch(/^200 /);
    // The current page is still marked, its branch still open, the branch opened where it was.
    expect(await nav.locator('[aria-current="page"]').textContent()).toBe('Page 2.1');
    expect(await nav.getByRole('link', { name: 'Page 2.4' }).isVisible()).toBe(true);
    const opened = nav.getByRole('button', { name: 'Section 7: show or hide pages' });
    expect(await opened.getAttribute('aria-expanded')).toBe('true');
    expect(Math.abs((await opened.boundingBox())!.y - before)).toBeLessThan(2);
    // The whole tree's branches open and close as a small tree's do.
    await nav.getByRole('button', { name: 'Section 9: show or hide pages' }).click();
    expect(await nav.getByRole('link', { name: 'Page 9.3' }).isVisible()).toBe(true);
    await opened.click();
    expect(await nav.getByRole('link', { name: 'Page 7.0' }).isVisible()).toBe(false);
    await page.context().close();

    // A long list shows a window around the current page; "more" lists the rest in place.
    const wide = await fresh();
    wide.on('pageerror', (error) => errors.push(error.message));
    await wide.goto(`${root}catalog/item-100`);
    const list = wide.getByRole('navigation', { name: 'Pages', exact: true });
    expect(await list.getByRole('link', { name: 'Item 0', exact: true }).count()).toBe(0);
    const more = list.getByRole('link', { name: /^\d+ more pages$/ }).first();
    const next = (await more.getAttribute('href'))!;
    const at = (await more.boundingBox())!.y;
    await more.click();
    await list.getByRole('link', { name: 'Item 0', exact: true }).waitFor();
    // The first page the entry stood for is where the entry was.
    const shown = list.locator(`a[href="${next}"]`);
    expect(Math.abs((await shown.boundingBox())!.y - at)).toBeLessThan(2);
    expect(wide.url()).toBe(`${root}catalog/item-100`);
    expect(await list.locator('[aria-current="page"]').textContent()).toBe('Item 100');
    await wide.screenshot({ path: path.join(OUTPUT, 'published-site-large-tree.png') });
    await wide.context().close();
    expect(errors).toEqual([]);
  });

  it('follows the links of a closed branch without script', async () => {
    const root = await largeSite();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(`${root}s2/p1`);
    const nav = page.getByRole('navigation', { name: 'Pages', exact: true });
    await nav.getByRole('link', { name: 'Section 7', exact: true }).click();
    await page.waitForURL(`${root}s7`);
    await nav.getByRole('link', { name: 'Page 7.3' }).click();
    await page.waitForURL(`${root}s7/p3`);
    await context.close();
  });
});

describe('protected sites in the browser', () => {
  it('opens a share-link site only with the key, and not after the link is deactivated', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.ShareLink, 'Shared');
    const root = rootOf(site);
    const link = (await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'Team' })).data;
    const page = await fresh();

    expect((await page.goto(root))?.status()).toBe(404);
    expect((await page.goto(link.urls.published!))?.status()).toBe(200);
    expect(page.url()).toBe(root);
    expect(await page.locator('h1').first().textContent()).toContain('Welcome');
    expect((await page.goto(`${root}reference`))?.status()).toBe(200);

    await owner.api.orgs.updateSiteShareLinkById(orgId, site.id, link.id, { active: false });
    expect((await page.reload())?.status()).toBe(404);
    await page.context().close();
  });

  it('opens a visitor-auth site with a valid token, not with an expired or forged one', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.VisitorAuth, 'Private');
    const root = rootOf(site);
    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;
    const now = Math.floor(Date.now() / 1000);

    const valid = await fresh();
    const token = signVisitorToken({ sub: 'reader', exp: now + 600 }, privateKey);
    expect((await valid.goto(`${root}?jwt_token=${token}`))?.status()).toBe(200);
    expect(await valid.locator('h1').first().textContent()).toContain('Welcome');
    expect((await valid.goto(`${root}guides/install`))?.status()).toBe(200);
    await valid.context().close();

    for (const bad of [
      signVisitorToken({ sub: 'reader', exp: now - 600 }, privateKey),
      signVisitorToken({ sub: 'reader', exp: now + 600 }, 'forged-key'),
    ]) {
      const page = await fresh();
      expect((await page.goto(`${root}?jwt_token=${bad}`))?.status()).toBe(401);
      expect((await page.goto(root))?.status()).toBe(401);
      await page.context().close();
    }
  });

  it('hides a section from visitors whose claims do not meet its condition', async () => {
    const { spaceId: proSpace } = await docsSpace(owner, orgId, 'Pro docs');
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Adaptive');
    await owner.api.orgs.updateSiteById(orgId, site.id, { adaptiveContent: { enabled: true } } as never);
    await owner.api.orgs.addSectionToSite(orgId, site.id, { spaceId, title: 'Basics' } as never);
    const pro = await owner.api.orgs.addSectionToSite(orgId, site.id, {
      spaceId: proSpace,
      title: 'Pro',
    } as never);
    await owner.api.orgs.updateSiteSectionById(orgId, site.id, pro.data.id, {
      condition: 'visitor.claims.plan == "pro"',
    } as never);
    const root = rootOf((await owner.api.orgs.getSiteById(orgId, site.id)).data as Site);
    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;

    const anonymous = await fresh();
    await anonymous.goto(root);
    expect(await anonymous.getByRole('link', { name: 'Basics' }).count()).toBe(0);
    expect(await anonymous.getByRole('link', { name: 'Pro' }).count()).toBe(0);
    expect((await anonymous.goto(`${root}${pro.data.path}`))?.status()).toBe(404);
    await anonymous.context().close();

    const subscriber = await fresh();
    const token = signVisitorToken({ plan: 'pro', exp: Math.floor(Date.now() / 1000) + 600 }, privateKey);
    await subscriber.goto(`${root}?jwt_token=${token}`);
    await subscriber.getByRole('link', { name: 'Pro' }).first().click();
    await subscriber.waitForURL(`${root}${pro.data.path}`);
    expect(await subscriber.locator('h1').first().textContent()).toContain('Welcome');
    await subscriber.context().close();
  });
});
