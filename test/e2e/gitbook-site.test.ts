import { SiteVisibility } from '@gitbook/api';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signVisitorToken } from '../../src/publish/visitor-token.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { importCorpus } from '../helpers/gitbook-corpus.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cookiesOf, publishedSite, visit } from '../helpers/sites.js';

/**
 * The handbook of the fixture corpus published as a site: every page reached by following the
 * site's own links draws GitBook's blocks as components (no `{%` tag, no GitBook HTML shown as
 * text), every internal link and image answers, and conditional content reaches only the
 * visitors whose claims meet its condition, in pages, markdown views and search alike.
 */

let server: TestServer;
let git: GitServer;
let owner: TestUser;
let orgId: string;
let root: string;
let privateKey: string;
let siteId: string;

const SECRETS = [
  'SECRET-PRO-ONLY-7781',
  'SECRET-PRO-BILLING-9034',
  'SECRET-PRO-ADMIN-4420',
  'SECRET-ADMIN-EU-2290',
  'SECRET-BETA-5512',
  'SECRET-PRO-PAGE-3304',
];

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  git = await startGitServer();
  owner = await createUser(server);
  orgId = await createOrg(owner, 'Site corpus org');
  const { spaceId } = await importCorpus(server, git, owner, orgId, 'handbook');
  const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Lumen handbook');
  siteId = site.id;
  await owner.api.orgs.updateSiteById(orgId, site.id, { adaptiveContent: { enabled: true } } as never);
  root = site.urls.published!.replace(/\/?$/, '/');
  privateKey = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data.privateKey;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await git?.close();
});

function elements(tree: Root | Element, out: Element[] = []): Element[] {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    out.push(child);
    elements(child, out);
  }
  return out;
}

/** Every page reachable from the site root by its own links, with the HTML each answered. */
async function crawl(cookie?: string): Promise<{ pages: Map<string, string>; broken: string[] }> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const pages = new Map<string, string>();
  const checked = new Map<string, number>();
  const broken: string[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (pages.has(url)) continue;
    let res = await visit(url, headers);
    if (res.status === 302) res = await visit(new URL(res.headers.get('location')!, url).toString(), headers);
    if (res.status !== 200) {
      broken.push(`${url} -> ${res.status}`);
      continue;
    }
    pages.set(url, res.body);
    for (const element of elements(fromHtml(res.body))) {
      const attr = element.tagName === 'a' ? 'href' : element.tagName === 'img' ? 'src' : undefined;
      const value = attr ? element.properties?.[attr] : undefined;
      if (typeof value !== 'string' || value.startsWith('#') || value.startsWith('mailto:')) continue;
      const target = new URL(value, url);
      if (target.origin !== new URL(root).origin) continue;
      target.hash = '';
      const clean = target.toString();
      const internalPage =
        element.tagName === 'a' &&
        clean.startsWith(root) &&
        !clean.includes('/~') &&
        !/\.\w+$/.test(target.pathname);
      if (internalPage) {
        if (!pages.has(clean) && !queue.includes(clean)) queue.push(clean);
        continue;
      }
      if (!checked.has(clean)) {
        const status = (await fetch(clean, { headers })).status;
        checked.set(clean, status);
        if (status !== 200) broken.push(`${clean} (from ${url}) -> ${status}`);
      }
    }
  }
  return { pages, broken };
}

describe('the handbook published as a site', () => {
  it('has no broken internal link or image, and shows no GitBook syntax as text', async () => {
    const { pages, broken } = await crawl();
    expect(broken).toEqual([]);
    // Every visible page of the handbook (34 minus the hidden page and the pro-only page).
    expect(pages.size).toBeGreaterThanOrEqual(30);
    for (const [url, html] of pages) {
      const tree = fromHtml(html);
      const main = elements(tree).find((e) => e.tagName === 'main') ?? tree;
      const text = JSON.stringify(main);
      expect(text.includes('{%'), `${url} shows a {% tag`).toBe(false);
      for (const raw of [
        '<figure',
        '<table',
        '<details',
        '<picture',
        'data-view=',
        '<mark ',
        '<i class="fa-',
      ]) {
        expect(text.includes(raw.replace(/"/g, '\\"')), `${url} shows ${raw} as text`).toBe(false);
      }
    }
  });

  it('hides every conditional branch from visitors whose claims do not meet it', async () => {
    const { pages } = await crawl();
    const all = [...pages.values()].join('\n');
    for (const secret of SECRETS) expect(all.includes(secret), secret).toBe(false);
    // The negated condition shows to visitors without a plan.
    expect(all).toContain('NOPLAN-WELCOME-1187');
    // The page shown only to pro visitors does not exist for the others.
    expect((await visit(`${root}reference/pro-features`)).status).toBe(404);
    // Nor do its words come back from search, or from a markdown view.
    const search = await visit(`${root}~search?q=SECRET-PRO-ONLY-7781`);
    expect(search.body).not.toContain('SECRET');
    for (const url of pages.keys()) {
      const markdown = await visit(`${url.replace(/\/$/, '/index')}.md`);
      for (const secret of SECRETS) expect(markdown.body.includes(secret), `${url}.md ${secret}`).toBe(false);
    }
  });

  it('shows pro content to a pro visitor, and only that', async () => {
    const token = signVisitorToken(
      { unsigned: { plan: 'pro' }, exp: Math.floor(Date.now() / 1000) + 600 },
      privateKey,
    );
    const cookie = cookiesOf((await visit(`${root}?jwt_token=${token}`)).headers);
    // Pages drawn for claims stay out of shared caches; the anonymous ones vary with the cookie.
    const home = await visit(root);
    const page = home.status === 302 ? new URL(home.headers.get('location')!, root).toString() : root;
    const personal = await visit(page, { cookie });
    expect(personal.headers.get('cache-control')).toBe('private, no-cache');
    const anonymous = await visit(page);
    expect(anonymous.headers.get('cache-control')).toBe('public, no-cache');
    expect(anonymous.headers.get('vary')?.split(/,\s*/)).toContain('Cookie');
    const { pages } = await crawl(cookie);
    const all = [...pages.values()].join('\n');
    expect(all).toContain('SECRET-PRO-ONLY-7781');
    expect(all).toContain('SECRET-PRO-BILLING-9034');
    expect(all).toContain('SECRET-PRO-PAGE-3304');
    // Other conditions still hold them back: pro without the admin role, no beta claim.
    expect(all).not.toContain('SECRET-PRO-ADMIN-4420');
    expect(all).not.toContain('SECRET-BETA-5512');
    expect(all).not.toContain('NOPLAN-WELCOME-1187');
    expect(siteId).toBeTruthy();
  });
});
