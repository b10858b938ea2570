import { request } from 'node:http';
import { type Site, SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signVisitorToken } from '../../src/publish/visitor-token.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cookiesOf, docsSpace, publishedSite, visit } from '../helpers/sites.js';

let server: TestServer;
let owner: TestUser;
let orgId: string;
let spaceId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server, { name: 'Site owner' });
  orgId = await createOrg(owner, 'Published org');
  spaceId = (await docsSpace(owner, orgId)).spaceId;
});
afterAll(async () => {
  await server.close();
});

function rootOf(site: Site): string {
  const url = site.urls.published;
  if (!url) throw new Error('a published site has urls.published');
  return url.endsWith('/') ? url : `${url}/`;
}

describe('a public site', () => {
  let site: Site;
  let root: string;
  beforeAll(async () => {
    site = await publishedSite(owner, orgId, [spaceId]);
    root = rootOf(site);
  });

  it('serves its first page at the root with navigation, blocks and highlighted code', async () => {
    expect(root.startsWith(server.url)).toBe(true);
    const page = await visit(root);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-robots-tag')).toBeNull();
    expect(page.body).toContain('<h1');
    expect(page.body).toContain('Welcome');
    expect(page.body).toContain('Remember to restart');
    expect(page.body).toMatch(/class="[^"]*hljs-keyword/);
    // The sidebar links every page, nested ones under their parent.
    expect(page.body).toContain(`href="${root}guides/install"`);
    expect(page.body).toContain(`href="${root}reference"`);
    // The relative link in the markdown points at the published page.
    expect(page.body).toContain(`${root}guides/install`);
  });

  it('serves nested pages by path, with breadcrumbs and previous/next', async () => {
    const page = await visit(`${root}guides/install`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('npm install acme');
    expect(page.body).toContain('Guides');
    expect(page.body).toContain(`href="${root}reference"`);
  });

  it('answers 304 to a matching If-None-Match, and a new ETag once the content changes', async () => {
    const first = await visit(`${root}reference`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await visit(`${root}reference`, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');

    const { spaceId: other } = await docsSpace(owner, orgId, 'Changing docs');
    const changing = await publishedSite(owner, orgId, [other], SiteVisibility.Public, 'Changing');
    const before = await visit(`${rootOf(changing)}reference`);
    const cr = (await owner.api.spaces.createChangeRequest(other, { subject: 'Edit' })).data.id;
    const pages = (await owner.api.spaces.listPages(other)).data.pages;
    const reference = pages.find((p) => p.title === 'Reference')!;
    await owner.api.spaces.updateChangeRequestContent(
      other,
      cr,
      {
        changes: [
          { operation: 'update_page', page: reference.id, document: { markdown: 'Rewritten reference.' } },
        ],
      } as never,
      { compat: false },
    );
    await owner.api.spaces.mergeChangeRequest(other, cr);
    const after = await visit(`${rootOf(changing)}reference`, {
      'if-none-match': before.headers.get('etag')!,
    });
    expect(after.status).toBe(200);
    expect(after.body).toContain('Rewritten reference.');
  });

  it('counts a view for every revalidation, and hears a change of who may see the site at once', async () => {
    const kept = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Revalidated');
    const url = `${rootOf(kept)}guides/install`;
    const etag = (await visit(url)).headers.get('etag')!;
    const views = server.app.quire.services.siteViews;
    const recorded = vi.spyOn(views, 'record');
    try {
      for (let i = 0; i < 3; i++) expect((await visit(url, { 'if-none-match': etag })).status).toBe(304);
      expect(recorded).toHaveBeenCalledTimes(3);
      expect(
        new Set(recorded.mock.calls.map(([view]) => `${view.siteId} ${view.pageId} ${view.url}`)).size,
      ).toBe(1);
      expect(recorded.mock.calls[0]![0]).toMatchObject({ siteId: kept.id, url });
      // Another ETag is a full answer, and a view.
      expect((await visit(url, { 'if-none-match': '"other"' })).status).toBe(200);
      expect(recorded).toHaveBeenCalledTimes(4);
    } finally {
      recorded.mockRestore();
    }
    // The same URL and ETag, once the site needs a share link: refused, not revalidated.
    await owner.api.orgs.updateSiteById(orgId, kept.id, { visibility: SiteVisibility.ShareLink } as never);
    expect((await visit(url, { 'if-none-match': etag })).status).toBe(404);
    // Public again: answered (the site's settings are part of its pages' ETags).
    await owner.api.orgs.updateSiteById(orgId, kept.id, { visibility: SiteVisibility.Public } as never);
    expect((await visit(url, { 'if-none-match': etag })).status).toBe(200);
  });

  it('serves markdown views, llms.txt, sitemap.xml and robots.txt', async () => {
    const markdown = await visit(`${root}guides/install.md`);
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    expect(markdown.body).toContain('# Install');
    expect(markdown.body).toContain('npm install acme');

    const llms = await visit(`${root}llms.txt`);
    expect(llms.body).toMatch(/^# Acme Docs/);
    expect(llms.body).toContain(`(${root}guides/install.md)`);

    const sitemap = await visit(`${root}sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`<loc>${root}guides/install</loc>`);

    const robots = await visit(`${root}robots.txt`);
    expect(robots.body).toContain(`Sitemap: ${root}sitemap.xml`);
    expect(robots.body).not.toContain('Disallow: /\n');
  });

  it("searches the site's content", async () => {
    const res = await visit(`${root}~search?q=frobnicator`);
    expect(res.status).toBe(200);
    const { results } = JSON.parse(res.body) as { results: Array<{ title: string; href: string }> };
    expect(results.map((r) => r.title).sort()).toEqual(['Install', 'Reference']);
    expect(results.find((r) => r.title === 'Install')!.href).toBe(`${root}guides/install`);
  });

  it('answers a 404 page for unknown paths, and for everything once unpublished', async () => {
    const missing = await visit(`${root}no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<html');
    await owner.api.orgs.unpublishSite(orgId, site.id);
    expect((await visit(root)).status).toBe(404);
    await owner.api.orgs.publishSite(orgId, site.id);
    expect((await visit(root)).status).toBe(200);
  });

  it('applies the customization: colours, announcement and footer', async () => {
    await owner.api.orgs.updateSiteCustomizationById(orgId, site.id, {
      styling: { primaryColor: { light: '#ff5500', dark: '#ffaa00' } },
      announcement: { enabled: true, message: 'Version 2 is out', style: 'info' },
      footer: { copyright: 'Acme Inc.', groups: [] },
    } as never);
    const page = await visit(root);
    expect(page.body.toLowerCase()).toContain('#ff5500');
    expect(page.body).toContain('Version 2 is out');
    expect(page.body).toContain('Acme Inc.');
  });
});

describe('an unlisted site', () => {
  it('is readable but asks robots not to index it and has no sitemap', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Unlisted, 'Unlisted');
    const page = await visit(rootOf(site));
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(page.body).toMatch(/<meta name="robots" content="noindex/);
    expect((await visit(`${rootOf(site)}sitemap.xml`)).status).toBe(404);
    expect((await visit(`${rootOf(site)}robots.txt`)).body).toContain('Disallow: /');
  });
});

describe('a share-link site', () => {
  it('needs an active share key; the key is kept in a cookie; deactivating ends access at once', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.ShareLink, 'Shared');
    const root = rootOf(site);
    expect((await visit(root)).status).toBe(404);

    const link = (await owner.api.orgs.createSiteShareLink(orgId, site.id, { name: 'Partners' })).data;
    const shared = link.urls.published!;
    expect(shared).toContain('shareKey=');
    expect((await visit(`${root}?shareKey=not-the-key`)).status).toBe(404);

    const entry = await visit(shared);
    expect(entry.status).toBe(302);
    expect(entry.headers.get('location')).toBe(root);
    const cookie = cookiesOf(entry.headers);
    expect(entry.headers.get('set-cookie')).toContain('HttpOnly');

    const page = await visit(`${root}guides/install`, { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-robots-tag')).toBe('noindex');

    await owner.api.orgs.updateSiteShareLinkById(orgId, site.id, link.id, { active: false });
    expect((await visit(`${root}guides/install`, { cookie })).status).toBe(404);
    await owner.api.orgs.updateSiteShareLinkById(orgId, site.id, link.id, { active: true });
    expect((await visit(`${root}guides/install`, { cookie })).status).toBe(200);
    await owner.api.orgs.deleteSiteShareLinkById(orgId, site.id, link.id);
    expect((await visit(`${root}guides/install`, { cookie })).status).toBe(404);
  });
});

describe('a visitor-auth site', () => {
  it('lets in visitors with a token signed by the site key, and refuses expired and forged ones', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.VisitorAuth, 'Private');
    const root = rootOf(site);
    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;
    const now = Math.floor(Date.now() / 1000);

    expect((await visit(root)).status).toBe(401);

    const valid = signVisitorToken({ sub: 'visitor-1', exp: now + 600 }, privateKey);
    const entry = await visit(`${root}reference?jwt_token=${valid}`);
    expect(entry.status).toBe(302);
    expect(entry.headers.get('location')).toBe(`${root}reference`);
    const page = await visit(`${root}reference`, { cookie: cookiesOf(entry.headers) });
    expect(page.status).toBe(200);
    expect(page.body).toContain('frobnicator');

    const expired = signVisitorToken({ sub: 'visitor-1', exp: now - 600 }, privateKey);
    expect((await visit(`${root}?jwt_token=${expired}`)).status).toBe(401);
    const forged = signVisitorToken({ sub: 'visitor-1', exp: now + 600 }, 'not-the-site-key');
    expect((await visit(`${root}?jwt_token=${forged}`)).status).toBe(401);
  });

  it('sends visitors without a valid token to the configured login URL', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.VisitorAuth, 'Login');
    await owner.api.orgs.updateSitePublishingAuthById(orgId, site.id, {
      fallbackURL: 'https://login.example.test/start',
    } as never);
    const res = await visit(`${rootOf(site)}reference`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://login.example.test/start');
    expect(location.searchParams.get('location')).toBe(`${rootOf(site)}reference`);
  });
});

describe('adaptive content', () => {
  it('hides a section whose condition the visitor does not meet, from navigation and by URL', async () => {
    const { spaceId: proSpace } = await docsSpace(owner, orgId, 'Pro docs');
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Adaptive');
    await owner.api.orgs.updateSiteById(orgId, site.id, { adaptiveContent: { enabled: true } } as never);
    const base = await owner.api.orgs.addSectionToSite(orgId, site.id, { spaceId, title: 'Basics' } as never);
    const pro = await owner.api.orgs.addSectionToSite(orgId, site.id, {
      spaceId: proSpace,
      title: 'Pro',
    } as never);
    await owner.api.orgs.updateSiteSectionById(orgId, site.id, pro.data.id, {
      condition: 'visitor.claims.plan == "pro"',
    } as never);
    const root = rootOf((await owner.api.orgs.getSiteById(orgId, site.id)).data as Site);
    const proPath = pro.data.path;
    expect(base.data.path).not.toBe(proPath);

    const anonymous = await visit(root);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).not.toContain(`href="${root}${proPath}"`);
    expect((await visit(`${root}${proPath}`)).status).toBe(404);

    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;
    const token = signVisitorToken({ plan: 'pro', exp: Math.floor(Date.now() / 1000) + 600 }, privateKey);
    const entry = await visit(`${root}?jwt_token=${token}`);
    const cookie = cookiesOf(entry.headers);
    const withClaims = await visit(root, { cookie });
    expect(withClaims.body).toContain(`href="${root}${proPath}"`);
    expect((await visit(`${root}${proPath}`, { cookie })).status).toBe(200);
  });
});

/** A GET sent to the test server under another Host name, as a custom domain's DNS would. */
function hostGet(hostname: string, pathName: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathName, headers: { host: hostname } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a custom hostname', () => {
  it('serves the site at the root of its hostname, and leaves other hosts alone', async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Custom domain');
    await owner.api.orgs.updateSiteById(orgId, site.id, { hostname: 'docs.acme-example.test' } as never);
    const updated = (await owner.api.orgs.getSiteById(orgId, site.id)).data as Site;
    expect(updated.urls.published).toBe('http://docs.acme-example.test/');

    const page = await hostGet('docs.acme-example.test', '/guides/install');
    expect(page.status).toBe(200);
    expect(page.body).toContain('npm install acme');
    expect(page.body).toContain('href="http://docs.acme-example.test/reference"');

    expect((await hostGet('docs.acme-example.test', '/no/such/page')).status).toBe(404);
    const other = await hostGet('unknown.example.test', '/healthz');
    expect(other.status).toBe(200);
  });
});

describe('published URLs in the API', () => {
  it('lead to the pages of each section and site space, variants included', async () => {
    const { spaceId: second } = await docsSpace(owner, orgId, 'Version 2');
    const { spaceId: api } = await docsSpace(owner, orgId, 'API docs');
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Structured');
    const guides = await owner.api.orgs.addSectionToSite(orgId, site.id, {
      spaceId,
      title: 'Guides',
    } as never);
    await owner.api.orgs.addSectionToSite(orgId, site.id, { spaceId: api, title: 'API' } as never);
    await owner.api.orgs.addSpaceToSite(orgId, site.id, {
      spaceId: second,
      sectionId: guides.data.id,
    } as never);

    const sections = (await owner.api.orgs.listSiteSections(orgId, site.id)).data.items;
    const siteSpaces = (await owner.api.orgs.listSiteSpaces(orgId, site.id)).data.items;
    expect(sections.length).toBeGreaterThanOrEqual(2);
    expect(siteSpaces.length).toBeGreaterThanOrEqual(3);
    const seen = new Set<string>();
    for (const siteSpace of siteSpaces) {
      const url = siteSpace.urls.published!;
      const res = await visit(url);
      expect(res.status, url).toBe(200);
      // Its section's tab is the current one.
      const section = sections.find((s) => s.id === siteSpace.section)!;
      expect(res.body).toMatch(new RegExp(`aria-current="[a-z]+"[^>]*>(<[^>]+>)*\\s*${section.title}`));
      seen.add(url);
    }
    expect(seen.size).toBe(siteSpaces.length);
    for (const section of sections) expect((await visit(section.urls.published!)).status).toBe(200);

    const published = (await owner.api.orgs.getPublishedContentSite(orgId, site.id)).data as {
      structure: { type: string };
    };
    expect(published.structure.type).toBe('sections');
  });
});
