import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let clock: ManualClock;
let admin: TestUser;
let orgId: string;
let spaceA: string;
let spaceB: string;

beforeAll(async () => {
  clock = new ManualClock('2026-04-01T09:00:00.000Z');
  server = await startTestServer({ clock });
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Sites org');
  spaceA = (await admin.api.orgs.createSpace(orgId, { title: 'Getting Started' })).data.id;
  spaceB = (await admin.api.orgs.createSpace(orgId, { title: 'API Référence' })).data.id;
});
afterAll(() => server.close());

const siteUrl = (siteId: string) => `/v1/orgs/${orgId}/sites/${siteId}`;

describe('sites', () => {
  it('creates a site with a site space per space, the first the default', async () => {
    const res = await admin.api.orgs.createSite(orgId, {
      type: 'premium' as never,
      title: 'Developer docs',
      visibility: 'unlisted' as never,
      spaces: [spaceA, spaceB],
    });
    expect(res.status).toBe(201);
    const site = res.data;
    expect(res.headers.get('location')).toBe(`${server.url}/v1/orgs/${orgId}/sites/${site.id}`);
    expect(site).toMatchObject({
      object: 'site',
      type: 'premium' as never,
      appliedType: 'premium',
      title: 'Developer docs',
      visibility: 'unlisted',
      published: false,
      siteSpaces: 2,
      createdAt: '2026-04-01T09:00:00.000Z',
      adaptiveContent: { enabled: false },
      permissions: { view: true, edit: true, admin: true, editAdaptiveSchema: true },
      urls: {
        location: `${server.url}/v1/orgs/${orgId}/sites/${site.id}`,
        app: `${server.url}/app/o/${orgId}/sites/${site.id}`,
      },
    });
    expect(site.urls.published).toBeUndefined();
    expect((site as unknown as { agentsContext: string }).agentsContext).toBe('included');

    const spaces = (await admin.api.orgs.listSiteSpaces(orgId, site.id)).data;
    expect(spaces.items.map((s) => [s.path, s.default, s.space.id, s.title])).toEqual([
      ['getting-started', true, spaceA, 'Getting Started'],
      ['api-reference', false, spaceB, 'API Référence'],
    ]);
    expect(spaces.items[0]!.space.permissions.admin).toBe(true);
    expect((await admin.api.orgs.getSiteById(orgId, site.id)).data).toEqual(site);
  });

  it('defaults a new site to basic, public and untitled', async () => {
    const { data } = await admin.api.orgs.createSite(orgId, {});
    expect(data).toMatchObject({
      type: 'basic',
      visibility: 'public',
      title: 'Untitled site',
      siteSpaces: 0,
    });
  });

  it('refuses unknown spaces, spaces of another organization and repeats, writing nothing', async () => {
    const other = await createUser(server);
    const otherOrg = await createOrg(other, 'Elsewhere');
    const foreign = (await other.api.orgs.createSpace(otherOrg, { title: 'Foreign' })).data.id;
    const before = (await admin.api.orgs.listSites(orgId)).data.count;
    for (const [spaces, field] of [
      [[spaceA, 'nope'], 'body.spaces.1'],
      [[foreign], 'body.spaces.0'],
      [[spaceA, spaceA], 'body.spaces.1'],
    ] as const) {
      const res = await failure(admin.api.orgs.createSite(orgId, { title: 'Bad', spaces: [...spaces] }));
      expect(res.code).toBe(400);
      expect(res.message).toContain(field);
    }
    // The same answer for a foreign space and an unknown one: nothing is revealed.
    const unknown = await failure(admin.api.orgs.createSite(orgId, { spaces: ['nope'] }));
    const foreignRes = await failure(admin.api.orgs.createSite(orgId, { spaces: [foreign] }));
    expect(foreignRes.message.replace(foreign, 'X')).toBe(unknown.message.replace('nope', 'X'));
    expect((await admin.api.orgs.listSites(orgId)).data.count).toBe(before);
    const tooShort = await failure(admin.api.orgs.createSite(orgId, { title: 'x' }));
    expect(tooShort).toEqual({ code: 400, message: expect.stringContaining('body.title') });
  });

  it('updates settings: title, visibility, basename, adaptive content, agents context', async () => {
    const site = (await admin.api.orgs.createSite(orgId, { title: 'Settings' })).data;
    const { data } = await admin.api.orgs.updateSiteById(orgId, site.id, {
      title: 'Renamed',
      visibility: 'share-link' as never,
      basename: 'docs',
      adaptiveContent: { enabled: true },
    });
    expect(data).toMatchObject({
      title: 'Renamed',
      visibility: 'share-link' as never,
      basename: 'docs',
      adaptiveContent: { enabled: true },
    });
    const excluded = await rawRequest(server.url, 'PATCH', siteUrl(site.id), {
      token: admin.token,
      body: { agentsContext: 'excluded', basename: null },
    });
    expect(excluded.status).toBe(200);
    expect(excluded.body).toMatchObject({ agentsContext: 'excluded' });
    expect(excluded.body).not.toHaveProperty('basename');
  });

  it('sets and removes a proxy, checking its pattern', async () => {
    const site = (await admin.api.orgs.createSite(orgId, { title: 'Proxied' })).data;
    const set = await admin.api.orgs.updateSiteById(orgId, site.id, { proxy: 'example.com/docs/v2' });
    expect(set.data.proxy).toEqual({
      origin: 'example.com/docs/v2',
      target: `${server.url}/sites/${site.id}/`,
    });
    for (const proxy of ['example.com', 'https://example.com/docs', 'example.com/docs/', 'exa mple.com/d']) {
      const res = await rawRequest(server.url, 'PATCH', siteUrl(site.id), {
        token: admin.token,
        body: { proxy },
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('body.proxy');
    }
    expect((await admin.api.orgs.getSiteById(orgId, site.id)).data.proxy?.origin).toBe('example.com/docs/v2');
    const removed = await admin.api.orgs.updateSiteById(orgId, site.id, { proxy: null });
    expect(removed.data.proxy).toBeUndefined();
  });

  it('gives a site a custom hostname, unique across the instance', async () => {
    const one = (await admin.api.orgs.createSite(orgId, { title: 'Hosted one' })).data;
    const two = (await admin.api.orgs.createSite(orgId, { title: 'Hosted two' })).data;
    const patch = (siteId: string, hostname: unknown) =>
      rawRequest(server.url, 'PATCH', siteUrl(siteId), { token: admin.token, body: { hostname } });
    const set = await patch(one.id, 'Docs.Example.com');
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ hostname: 'docs.example.com' });
    await admin.api.orgs.publishSite(orgId, one.id);
    expect((await admin.api.orgs.getSiteById(orgId, one.id)).data.urls.published).toBe(
      'http://docs.example.com/',
    );

    const taken = await patch(two.id, 'docs.example.com');
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('docs.example.com');
    expect(await patch(one.id, 'docs.example.com')).toMatchObject({ status: 200 });
    for (const bad of [
      'localhost',
      'example.com',
      '-bad.example.com',
      'a_b.example.com',
      'docs.example.com.',
    ]) {
      const res = await patch(two.id, bad);
      expect(res.status).toBe(400);
      expect(res.text).toContain('body.hostname');
    }
    const own = await patch(two.id, new URL(server.url).hostname);
    expect(own.status).toBe(400);
    expect((await patch(one.id, null)).body).not.toHaveProperty('hostname');
    expect((await patch(two.id, 'docs.example.com')).status).toBe(200);
  });

  it('publishes and unpublishes, with urls.published only while published', async () => {
    const site = (await admin.api.orgs.createSite(orgId, { title: 'Live', spaces: [spaceA] })).data;
    const published = await admin.api.orgs.publishSite(orgId, site.id);
    expect(published.status).toBe(200);
    expect(published.data).toMatchObject({
      published: true,
      urls: { published: `${server.url}/sites/${site.id}/` },
    });
    const siteSpace = (await admin.api.orgs.listSiteSpaces(orgId, site.id)).data.items[0]!;
    expect(siteSpace.urls.published).toBe(`${server.url}/sites/${site.id}/`);
    const unpublished = await admin.api.orgs.unpublishSite(orgId, site.id);
    expect(unpublished.data.published).toBe(false);
    expect(unpublished.data.urls.published).toBeUndefined();
    expect(
      (await admin.api.orgs.listSiteSpaces(orgId, site.id)).data.items[0]!.urls.published,
    ).toBeUndefined();
  });

  it('lists sites with filters and keyset pages', async () => {
    const org = await createOrg(admin, 'Listing org');
    const space = (await admin.api.orgs.createSpace(org, { title: 'Shared' })).data.id;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const site = await admin.api.orgs.createSite(org, {
        title: `Site ${i}${i % 2 ? ' Handbook' : ''}`,
        type: (i === 4 ? 'ultimate' : 'basic') as never,
        spaces: i < 2 ? [space] : [],
      });
      made.push(site.data.id);
    }
    await admin.api.orgs.publishSite(org, made[3]!);

    const seen: string[] = [];
    let page: string | undefined;
    do {
      const res = (await admin.api.orgs.listSites(org, { limit: 2, ...(page ? { page } : {}) })).data;
      expect(res.count).toBe(5);
      seen.push(...res.items.map((s) => s.id));
      page = res.next?.page;
    } while (page);
    expect(seen).toEqual(made);

    const ids = async (query: Parameters<typeof admin.api.orgs.listSites>[1]) =>
      (await admin.api.orgs.listSites(org, query)).data.items.map((s) => s.id);
    expect(await ids({ space })).toEqual(made.slice(0, 2));
    expect(await ids({ title: 'handBOOK' })).toEqual([made[1], made[3]]);
    expect(await ids({ published: true })).toEqual([made[3]]);
    expect(await ids({ published: false })).toHaveLength(4);
    expect(await ids({ type: ['ultimate' as never] })).toEqual([made[4]]);
    expect(await ids({ type: ['ultimate', 'basic'] as never[] })).toHaveLength(5);
    expect(await ids({ title: '100%_' })).toEqual([]);
    const listed = (await admin.api.orgs.listSites(org, { space })).data.items[0]!;
    expect(listed.siteSpaces).toBe(1);
  });

  it('deletes a site (204 again and for unknown ids), keeping its spaces', async () => {
    const site = (await admin.api.orgs.createSite(orgId, { title: 'Doomed', spaces: [spaceA] })).data;
    await admin.api.orgs.createSiteShareLink(orgId, site.id, { name: 'link' });
    expect((await admin.api.orgs.deleteSiteById(orgId, site.id)).status).toBe(204);
    expect((await admin.api.orgs.deleteSiteById(orgId, site.id)).status).toBe(204);
    expect((await admin.api.orgs.deleteSiteById(orgId, 'never-was')).status).toBe(204);
    expect((await failure(admin.api.orgs.getSiteById(orgId, site.id))).code).toBe(404);
    expect((await admin.api.spaces.getSpaceById(spaceA)).status).toBe(200);
    const db = server.database.db;
    expect(await db.selectFrom('site_spaces').selectAll().where('site_id', '=', site.id).execute()).toEqual(
      [],
    );
    expect(
      await db.selectFrom('site_share_links').selectAll().where('site_id', '=', site.id).execute(),
    ).toEqual([]);
  });

  it('stops showing a space transferred to another organization', async () => {
    const moving = (await admin.api.orgs.createSpace(orgId, { title: 'Moving out' })).data.id;
    const site = (await admin.api.orgs.createSite(orgId, { title: 'Losing one', spaces: [moving, spaceA] }))
      .data;
    const elsewhere = await createOrg(admin, 'New home');
    await apiClient146(server.url, admin.token).spaces.transferSpace(moving, { organization: elsewhere });
    const left = (await admin.api.orgs.listSiteSpaces(orgId, site.id)).data;
    expect(left.items.map((s) => [s.space.id, s.default])).toEqual([[spaceA, true]]);
    expect(left.count).toBe(1);
    expect((await admin.api.orgs.getSiteById(orgId, site.id)).data.siteSpaces).toBe(1);
    expect((await admin.api.orgs.listSites(orgId, { title: 'Losing one' })).data.items[0]!.siteSpaces).toBe(
      1,
    );
  });

  it('stores 256-bit random secrets, different for every site', async () => {
    const one = (await admin.api.orgs.createSite(orgId, { title: 'Secret one' })).data;
    const two = (await admin.api.orgs.createSite(orgId, { title: 'Secret two' })).data;
    const rows = await server.database.db
      .selectFrom('sites')
      .select(['auth_private_key', 'share_secret'])
      .where('id', 'in', [one.id, two.id])
      .execute();
    const secrets = rows.flatMap((r) => [r.auth_private_key, r.share_secret]);
    expect(new Set(secrets).size).toBe(4);
    for (const secret of secrets) expect(Buffer.from(secret, 'base64url').length).toBe(32);
  });
});

describe('site permissions', () => {
  let site: string;
  let reader: TestUser;
  let creator: TestUser;
  let guest: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    site = (await admin.api.orgs.createSite(orgId, { title: 'Guarded', spaces: [spaceA] })).data.id;
    reader = await createUser(server);
    creator = await createUser(server);
    guest = await createUser(server);
    stranger = await createUser(server);
    await addMember(admin, orgId, reader, 'read');
    await addMember(admin, orgId, creator, 'create');
    await addMember(admin, orgId, guest, null);
  });

  it('lets members with a role read sites, with permissions from their role', async () => {
    const seen = (await reader.api.orgs.getSiteById(orgId, site)).data;
    expect(seen.permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    expect((await reader.api.orgs.listSites(orgId)).data.count).toBeGreaterThan(0);
    expect((await reader.api.orgs.listSiteSpaces(orgId, site)).data.count).toBe(1);
    const byCreator = (await creator.api.orgs.getSiteById(orgId, site)).data.permissions;
    expect(byCreator).toMatchObject({ edit: true, create: true, admin: true, installIntegration: false });
  });

  it('refuses changes below the create role with 403, and lets create members manage', async () => {
    expect((await failure(reader.api.orgs.updateSiteById(orgId, site, { title: 'Nope' }))).code).toBe(403);
    expect((await failure(reader.api.orgs.publishSite(orgId, site))).code).toBe(403);
    expect((await failure(reader.api.orgs.createSite(orgId, { title: 'Mine' }))).code).toBe(403);
    expect((await failure(reader.api.orgs.deleteSiteById(orgId, site))).code).toBe(403);
    expect((await failure(reader.api.orgs.listSiteShareLinks(orgId, site))).code).toBe(403);
    expect((await failure(reader.api.orgs.getSitePublishingAuthById(orgId, site))).code).toBe(403);
    expect((await creator.api.orgs.updateSiteById(orgId, site, { title: 'Guarded too' })).status).toBe(200);
    expect((await creator.api.orgs.createSite(orgId, { title: 'By creator' })).status).toBe(201);
  });

  it('keeps guests out (403) and hides sites from non-members and other organizations (404)', async () => {
    expect((await failure(guest.api.orgs.listSites(orgId))).code).toBe(403);
    expect((await failure(guest.api.orgs.getSiteById(orgId, site))).code).toBe(403);
    expect((await failure(stranger.api.orgs.getSiteById(orgId, site))).code).toBe(404);
    expect((await failure(stranger.api.orgs.listSites(orgId))).code).toBe(404);
    const strangerOrg = await createOrg(stranger, 'Stranger org');
    const viaOther = await failure(stranger.api.orgs.getSiteById(strangerOrg, site));
    expect(viaOther.code).toBe(404);
    expect(
      (await failure(stranger.api.orgs.updateSiteById(strangerOrg, site, { title: 'Stolen' }))).code,
    ).toBe(404);
    expect((await stranger.api.orgs.deleteSiteById(strangerOrg, site)).status).toBe(204);
    expect((await admin.api.orgs.getSiteById(orgId, site)).status).toBe(200);
  });

  it('embeds spaces with the caller’s own permissions on them', async () => {
    const item = (await reader.api.orgs.listSiteSpaces(orgId, site)).data.items[0]!;
    expect(item.space.id).toBe(spaceA);
    expect(item.space.permissions).toMatchObject({ view: true, edit: false, admin: false });
  });
});
