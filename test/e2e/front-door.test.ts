import { type Site, SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PageView } from '../../src/publish/site-server.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { comparableHeaders } from '../helpers/headers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { docsSpace, publishedSite, visit } from '../helpers/sites.js';

/**
 * Kept revalidations answered before routing (src/http/front-door.ts) must be the answers the
 * routed path gives: the same headers, the same recorded views, the same rate limit and client
 * address, and never an answer the site no longer gives.
 */

function rootOf(site: Site): string {
  const url = site.urls.published!;
  return url.endsWith('/') ? url : `${url}/`;
}

async function setUp(server: TestServer) {
  const owner = await createUser(server, { name: 'Door owner' });
  const orgId = await createOrg(owner, 'Door org');
  const { spaceId } = await docsSpace(owner, orgId);
  const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public, 'Door docs');
  return { owner, orgId, site, url: `${rootOf(site)}guides/install` };
}

describe('revalidations answered before routing', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;
  let site: Site;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer();
    ({ owner, orgId, site, url } = await setUp(server));
  });
  afterAll(async () => {
    await server.close();
  });

  const door = () => server.app.quire.frontDoor;

  it('answers as the routed path does: headers, request ids, CORS and page views', async () => {
    const first = await visit(url);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const views = vi.spyOn(server.app.quire.services.siteViews!, 'record');
    try {
      // A spelling of the URL not seen before goes the whole way (and keeps its answer).
      const spelled = `${url}?from=mail`;
      const before = door().answered;
      const routed = await visit(spelled, { 'if-none-match': etag, origin: 'https://elsewhere.test' });
      expect(routed.status).toBe(304);
      expect(door().answered).toBe(before);
      const early = await visit(spelled, { 'if-none-match': etag, origin: 'https://elsewhere.test' });
      expect(early.status).toBe(304);
      expect(door().answered).toBe(before + 1);

      expect(comparableHeaders(early.headers)).toEqual(comparableHeaders(routed.headers));
      expect(early.headers.get('etag')).toBe(etag);
      expect(early.headers.get('access-control-allow-origin')).toBe('*');
      expect(early.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
      const ids = [routed, early].map((answer) => answer.headers.get('x-request-id'));
      expect(ids[1]).toMatch(/^[0-9A-Za-z]{16}$/);
      expect(ids[1]).not.toBe(ids[0]);

      expect(views).toHaveBeenCalledTimes(2);
      const [fromRoute, fromDoor] = views.mock.calls.map(([view]) => view as PageView);
      expect(fromDoor).toEqual(fromRoute);
      expect(fromDoor).toMatchObject({ siteId: site.id, url: spelled, visitor: { ip: '127.0.0.1' } });

      // A list of ETags, HEAD, and the one the URL had: all answered at the door.
      expect((await visit(url, { 'if-none-match': `"stale", ${etag}` })).status).toBe(304);
      const head = await fetch(url, { method: 'HEAD', headers: { 'if-none-match': etag } });
      expect(head.status).toBe(304);
      expect(door().answered).toBe(before + 3);
      // Another ETag, or another Cookie header, goes the whole way.
      expect((await visit(url, { 'if-none-match': '"other"' })).status).toBe(200);
      expect((await visit(url, { 'if-none-match': etag, cookie: 'theme=dark' })).status).toBe(304);
      expect(door().answered).toBe(before + 3);
    } finally {
      views.mockRestore();
    }
  });

  it('never answers for a site that changed since', async () => {
    const etag = (await visit(url)).headers.get('etag')!;
    expect((await visit(url, { 'if-none-match': etag })).status).toBe(304);
    const before = door().answered;
    // Any change to the site's settings is part of its pages' ETags.
    await owner.api.orgs.updateSiteById(orgId, site.id, { title: 'Door docs, renamed' } as never);
    const after = await visit(url, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    // Unpublished: the kept answer of the new ETag is not given either.
    const renamed = after.headers.get('etag')!;
    expect((await visit(url, { 'if-none-match': renamed })).status).toBe(304);
    await owner.api.orgs.unpublishSite(orgId, site.id);
    expect((await visit(url, { 'if-none-match': renamed })).status).toBe(404);
    expect(door().answered).toBe(before + 1);
    await owner.api.orgs.publishSite(orgId, site.id);
  });
});

describe('revalidations answered before routing, behind a proxy', () => {
  let server: TestServer;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { QUIRE_TRUST_PROXY: '1', QUIRE_SITE_RATE_LIMIT: '4' } });
    ({ url } = await setUp(server));
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads the client address and protocol as Fastify does, and keeps the site rate limit', async () => {
    const views = vi.spyOn(server.app.quire.services.siteViews!, 'record');
    const from = (address: string, extra: Record<string, string> = {}) => ({
      'x-forwarded-for': `198.51.100.1, ${address}`,
      ...extra,
    });
    try {
      const etag = (await visit(url, from('203.0.113.7'))).headers.get('etag')!;
      const before = server.app.quire.frontDoor.answered;
      for (let i = 0; i < 3; i++)
        expect((await visit(url, from('203.0.113.7', { 'if-none-match': etag }))).status).toBe(304);
      expect(server.app.quire.frontDoor.answered).toBe(before + 3);
      // The fifth request of that address in the minute: refused, in the error shape.
      const refused = await visit(url, from('203.0.113.7', { 'if-none-match': etag }));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 429 } });
      // Another address is another count; the left-most entry, written by the client, is not it.
      expect((await visit(url, from('203.0.113.8', { 'if-none-match': etag }))).status).toBe(304);
      expect(server.app.quire.frontDoor.answered).toBe(before + 4);
      expect(views.mock.calls.map(([view]) => (view as PageView).visitor.ip)).toEqual([
        '203.0.113.7',
        '203.0.113.7',
        '203.0.113.7',
        '203.0.113.7',
        '203.0.113.8',
      ]);

      // Forwarded as HTTPS: another URL, kept apart, and the view says https.
      const secure = from('203.0.113.9', { 'x-forwarded-proto': 'https', 'if-none-match': etag });
      expect((await visit(url, secure)).status).toBe(304);
      expect((await visit(url, secure)).status).toBe(304);
      expect(server.app.quire.frontDoor.answered).toBe(before + 5);
      const last = views.mock.calls.at(-1)![0] as PageView;
      expect(last.url).toBe(url.replace(/^http:/, 'https:'));
      expect(views.mock.calls.at(-2)![0]).toEqual(last);
    } finally {
      views.mockRestore();
    }
  });
});
