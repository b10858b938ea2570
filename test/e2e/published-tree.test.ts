import { type Site, SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signVisitorToken } from '../../src/publish/visitor-token.js';
import { type Change, newChangeRequest, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cookiesOf, publishedSite, visit } from '../helpers/sites.js';

/**
 * The sidebar of a large space: pages carry a trimmed tree (the path to the current page open,
 * other branches closed, links to their pages) and name the whole tree, served once per
 * revision at a URL keyed by what it depends on, cached for good, never showing a visitor the
 * pages they may not see.
 */

let server: TestServer;
let git: GitServer;
let owner: TestUser;
let orgId: string;
let spaceId: string;
let root: string;

/** The bench's shape: 40 sections of 7 topics of 6 pages (2,000 pages), slugs s{n}/t{n}/p{n}. */
const SECTIONS = 40;
const TOPICS = 7;
const PAGES = 6;

/** Writes the space level by level (50 inserts a request) in one change request, then merges. */
async function seedLargeSpace(): Promise<number> {
  const crId = await newChangeRequest(owner.api, spaceId, 'Seed 2,000 pages');
  const ids = new Map<string, string>();
  const levels: Array<Array<Change & { ref: string }>> = [[], [], []];
  const body = (title: string) => `${title} explains one part of the product in a few words.`;
  for (let s = 0; s < SECTIONS; s++) {
    levels[0]!.push({
      operation: 'insert_page',
      ref: `s${s}`,
      title: `Section ${s}`,
      slug: `s${s}`,
      document: { markdown: body(`Section ${s}`) },
    });
    for (let t = 0; t < TOPICS; t++) {
      const topic = `s${s}t${t}`;
      levels[1]!.push({
        operation: 'insert_page',
        ref: topic,
        parent: `s${s}`,
        title: `Topic ${s}.${t}`,
        slug: `t${t}`,
        document: { markdown: body(`Topic ${s}.${t}`) },
      });
      for (let p = 0; p < PAGES; p++)
        levels[2]!.push({
          operation: 'insert_page',
          ref: `${topic}p${p}`,
          parent: topic,
          title: `Page ${s}.${t}.${p}`,
          slug: `p${p}`,
          document: { markdown: body(`Page ${s}.${t}.${p}`) },
        });
    }
  }
  for (const level of levels)
    for (let at = 0; at < level.length; at += 50) {
      const batch = level
        .slice(at, at + 50)
        .map(({ parent, ...change }) => (parent ? { ...change, into: ids.get(parent as string)! } : change));
      const result = await write(owner.api, spaceId, crId, batch);
      for (const change of result.changes)
        if (change.ref && typeof change.page === 'object') ids.set(change.ref, change.page.id);
    }
  const merged = await owner.api.spaces.mergeChangeRequest(spaceId, crId);
  if (merged.data.result !== 'merge') throw new Error(`seed merge gave ${merged.data.result}`);
  return ids.size;
}

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  git = await startGitServer();
  owner = await createUser(server, { name: 'Site owner' });
  orgId = await createOrg(owner, 'Large tree org');
  spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Large docs' })).data.id;
  expect(await seedLargeSpace()).toBe(SECTIONS * (1 + TOPICS * (1 + PAGES)));
  // The merge's search job, which a search leaves to the background for so many pages: run here
  // (the tests' server runs no worker).
  while ((await server.app.quire.services.jobs.runDue()) > 0);
  root = rootOf(await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Large docs'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await git?.close();
});

function rootOf(site: Site): string {
  return site.urls.published!.replace(/\/?$/, '/');
}

/** The whole tree's URL a page names. */
function treeUrlOf(html: string): string {
  const url = /<nav class="sidebar"[^>]* data-tree="([^"]+)"/.exec(html)?.[1];
  if (!url) throw new Error('the page names no whole tree');
  return url.replace(/&amp;/g, '&');
}

/** The sidebar of a page: the `<nav>` holding the tree. */
function sidebarOf(html: string): string {
  const start = html.indexOf('<nav class="sidebar"');
  return html.slice(start, html.indexOf('</nav>', start));
}

const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);

describe('a page of a 2,000-page space', () => {
  it('weighs under 60 KB, with the path to it open and the other branches closed', async () => {
    const page = await visit(`${root}s20/t3/p2`);
    expect(page.status).toBe(200);
    expect(Buffer.byteLength(page.body)).toBeLessThan(60_000);
    const sidebar = sidebarOf(page.body);
    const links = hrefs(sidebar);
    // The top level, the current section's topics, the current topic's pages; nothing more.
    expect(links).toHaveLength(SECTIONS + TOPICS + PAGES);
    expect(sidebar).toContain(`<a href="${root}s20/t3/p2" aria-current="page">`);
    for (let t = 0; t < TOPICS; t++) expect(links).toContain(`${root}s20/t${t}`);
    for (let p = 0; p < PAGES; p++) expect(links).toContain(`${root}s20/t3/p${p}`);
    // A closed branch: its title links to its page, nothing is sent under it.
    expect(sidebar).toMatch(
      new RegExp(`<li class="tree-item" data-tree-closed><div class="tree-row"><a href="${root}s5">`),
    );
    expect(links.some((href) => href.startsWith(`${root}s5/`))).toBe(false);
    // Its page shows that branch open.
    const section = hrefs(sidebarOf((await visit(`${root}s5`)).body));
    expect(section).toContain(`${root}s5/t6`);
    // Breadcrumbs and previous/next still come from the whole tree.
    expect(page.body).toContain(`href="${root}s20/t3"`);
    expect(page.body).toMatch(
      new RegExp(`class="pagination[^"]*"[\\s\\S]*${root}s20/t3/p1[\\s\\S]*${root}s20/t3/p3`),
    );
  });

  it('names the whole tree: served once per revision, cached for good', async () => {
    const page = await visit(`${root}s20/t3/p2`);
    const url = treeUrlOf(page.body);
    expect(url.startsWith(`${root}~tree/`)).toBe(true);
    // Every page of the space names the same tree.
    expect(treeUrlOf((await visit(`${root}s1/t1`)).body)).toBe(url);

    const tree = await visit(url);
    expect(tree.status).toBe(200);
    expect(tree.headers.get('content-type')).toContain('text/html');
    expect(tree.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(tree.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(tree.headers.get('x-content-type-options')).toBe('nosniff');
    expect(tree.headers.get('x-robots-tag')).toBe('noindex');
    expect(tree.body.startsWith('<ul class="tree">')).toBe(true);
    const all = hrefs(tree.body);
    expect(all).toHaveLength(2000);
    expect(all).toContain(`${root}s5/t6/p5`);
    // Shared by every page: nothing marked current, every branch closed.
    expect(tree.body).not.toContain('aria-current');
    expect(tree.body).not.toContain('aria-expanded="true"');

    // In gzip to a client that takes it (fetch does), the same bytes as sent to one that does not.
    expect(tree.headers.get('content-encoding')).toBe('gzip');
    expect(tree.headers.get('vary')).toContain('Accept-Encoding');
    const plain = await visit(url, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body).toBe(tree.body);
    expect(Number(tree.headers.get('content-length')) * 5).toBeLessThan(
      Number(plain.headers.get('content-length')),
    );

    const etag = tree.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await visit(url, { 'if-none-match': etag })).status).toBe(304);
    // A key that is not this revision's answers nothing.
    const wrong = await visit(url.replace(/[^/]+$/, 'not-the-key'));
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps search, markdown views, llms.txt and the sitemap whole', async () => {
    expect((await visit(`${root}s39/t6/p5.md`)).body).toContain('# Page 39.6.5');
    const llms = await visit(`${root}llms.txt`);
    expect(llms.body).toContain(`(${root}s39/t6/p5.md)`);
    const sitemap = await visit(`${root}sitemap.xml`);
    expect(sitemap.body.match(/<loc>/g)).toHaveLength(2000);
    const search = await visit(`${root}~search?q=${encodeURIComponent('Page 39.6.5')}`);
    expect(search.body).toContain(`${root}s39/t6/p5`);
  });

  it('gives the tree a new key once a merge changes it', async () => {
    const before = treeUrlOf((await visit(`${root}s0`)).body);
    const crId = await newChangeRequest(owner.api, spaceId, 'One more section');
    await write(owner.api, spaceId, crId, [
      { operation: 'insert_page', title: 'Appendix', slug: 'appendix', document: { markdown: 'The end.' } },
    ]);
    expect((await owner.api.spaces.mergeChangeRequest(spaceId, crId)).data.result).toBe('merge');
    const after = treeUrlOf((await visit(`${root}s0`)).body);
    expect(after).not.toBe(before);
    expect(hrefs((await visit(after)).body)).toContain(`${root}appendix`);
    // A page loaded before the merge names a tree that is gone: the script follows links instead.
    expect((await visit(before)).status).toBe(404);
  });
});

/** A GitBook repository of 71 pages in two groups; the "Pro" group's page only for plan "pro". */
function adaptiveRepository(): Record<string, string> {
  const files: Record<string, string> = { 'README.md': '# Welcome\n\nStart here.\n' };
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', '', '## Basics', ''];
  for (let t = 0; t < 10; t++) {
    summary.push(`* [Topic ${t}](topic-${t}/README.md)`);
    files[`topic-${t}/README.md`] = `# Topic ${t}\n\nAbout topic ${t}.\n`;
    for (let p = 0; p < 6; p++) {
      summary.push(`  * [Page ${t}.${p}](topic-${t}/page-${p}.md)`);
      files[`topic-${t}/page-${p}.md`] = `# Page ${t}.${p}\n\nAbout page ${t}.${p}.\n`;
    }
  }
  summary.push(
    '',
    '## Pro',
    '',
    '* [Pro features](pro/README.md)',
    '  * [Secret plans](pro/secret-plans.md)',
  );
  files['pro/README.md'] =
    '---\nif: visitor.claims.unsigned.plan === "pro"\n---\n\n# Pro features\n\nFor pro.\n';
  files['pro/secret-plans.md'] = '# Secret plans\n\nSECRET-TREE-PAGE.\n';
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  return files;
}

describe('the whole tree of an adaptive site', () => {
  it('never names pages a visitor may not see, and is private when drawn for claims', async () => {
    git.createRepo('adaptive-tree');
    git.commit('adaptive-tree', 'main', adaptiveRepository(), 'Docs');
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Adaptive docs' })).data.id;
    await owner.api.spaces.importGitRepository(space, {
      url: git.repoUrl('adaptive-tree'),
      ref: 'refs/heads/main',
    });
    await server.app.quire.services.jobs.runDue();
    const site = await publishedSite(owner, orgId, [space], SiteVisibility.Public, 'Adaptive tree');
    await owner.api.orgs.updateSiteById(orgId, site.id, { adaptiveContent: { enabled: true } } as never);
    const siteRoot = rootOf(site);
    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;

    const anonymousPage = await visit(`${siteRoot}topic-3/page-2`);
    expect(anonymousPage.status).toBe(200);
    // Groups keep their headings; the trimmed tree closes the other topics.
    expect(anonymousPage.body).toContain('<p class="tree-heading">Basics</p>');
    expect(sidebarOf(anonymousPage.body)).not.toContain(`${siteRoot}topic-4/page-0`);
    const anonymousUrl = treeUrlOf(anonymousPage.body);
    const anonymous = await visit(anonymousUrl);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(hrefs(anonymous.body)).toContain(`${siteRoot}topic-9/page-5`);
    expect(anonymous.body).not.toContain('Pro features');
    expect(anonymous.body).not.toContain('secret-plans');

    const token = signVisitorToken(
      { unsigned: { plan: 'pro' }, exp: Math.floor(Date.now() / 1000) + 600 },
      privateKey,
    );
    const cookie = cookiesOf((await visit(`${siteRoot}?jwt_token=${token}`)).headers);
    const proUrl = treeUrlOf((await visit(`${siteRoot}topic-3/page-2`, { cookie })).body);
    expect(proUrl).not.toBe(anonymousUrl);
    const pro = await visit(proUrl, { cookie });
    expect(pro.status).toBe(200);
    expect(pro.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(pro.body).toContain(`${siteRoot}pro/secret-plans`);
    // The pro visitor's tree, asked for without their claims, is not there.
    const stolen = await visit(proUrl);
    expect(stolen.status).toBe(404);
    expect(stolen.body).not.toContain('secret-plans');
  });

  it("is the visitor's own on a protected site", async () => {
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.VisitorAuth, 'Private large');
    const siteRoot = rootOf(site);
    const { privateKey } = (await owner.api.orgs.getSitePublishingAuthById(orgId, site.id)).data;
    const token = signVisitorToken({ sub: 'reader', exp: Math.floor(Date.now() / 1000) + 600 }, privateKey);
    const cookie = cookiesOf((await visit(`${siteRoot}?jwt_token=${token}`)).headers);
    const url = treeUrlOf((await visit(`${siteRoot}s1`, { cookie })).body);
    const tree = await visit(url, { cookie });
    expect(tree.status).toBe(200);
    expect(tree.headers.get('cache-control')).toMatch(/^private, /);
    // Without the token, the site refuses before any tree is drawn.
    expect((await visit(url)).status).toBe(401);
  });
});
