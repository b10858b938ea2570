import { createHash } from 'node:crypto';
import type { SiteSection, SiteSectionGroup } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { evaluateCondition, parseCondition } from '../../src/publish/conditions.js';
import { signVisitorToken, verifyVisitorToken } from '../../src/publish/visitor-token.js';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let clock: ManualClock;
let admin: TestUser;
let reader: TestUser;
let orgId: string;
let spaceA: string;
let spaceB: string;

beforeAll(async () => {
  clock = new ManualClock('2026-05-01T08:00:00.000Z');
  server = await startTestServer({ clock });
  admin = await createUser(server);
  reader = await createUser(server);
  orgId = await createOrg(admin, 'Settings org');
  await addMember(admin, orgId, reader, 'read');
  spaceA = (await admin.api.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  spaceB = (await admin.api.orgs.createSpace(orgId, { title: 'Blog' })).data.id;
});
afterAll(() => server.close());

const api = () => admin.api.orgs;
const sitePath = (siteId: string, rest = '') => `/v1/orgs/${orgId}/sites/${siteId}${rest}`;
const raw = (method: string, path: string, body?: unknown) =>
  rawRequest(server.url, method, path, {
    token: admin.token,
    ...(body !== undefined ? { body: body as object } : {}),
  });
const newSite = async (title: string, spaces: string[] = [spaceA]) =>
  (await api().createSite(orgId, { title, spaces })).data.id;
const keyOf = (url: string | undefined) => new URL(url!).searchParams.get('shareKey')!;

describe('share links', () => {
  it('creates links whose URL carries a key stored only as a hash', async () => {
    const site = await newSite('Shared');
    const res = await api().createSiteShareLink(orgId, site, { name: 'Partners' });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      object: 'share-link',
      name: 'Partners',
      active: true,
      createdAt: '2026-05-01T08:00:00.000Z',
    });
    const url = new URL(res.data.urls.published!);
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/sites/${site}/`);
    const key = keyOf(res.data.urls.published);
    expect(key.length).toBeGreaterThanOrEqual(32);
    const row = await server.database.db
      .selectFrom('site_share_links')
      .selectAll()
      .where('id', '=', res.data.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key);
    // The same URL every time the link is read.
    const listed = (await api().listSiteShareLinks(orgId, site)).data.items[0]!;
    expect(listed.urls.published).toBe(res.data.urls.published);
    const second = (await api().createSiteShareLink(orgId, site, { name: 'Press' })).data;
    expect(keyOf(second.urls.published)).not.toBe(key);
  });

  it('lists, searches, renames, deactivates and deletes links', async () => {
    const site = await newSite('Links');
    const ids: string[] = [];
    for (const name of ['Alpha team', 'Beta testers', 'alpha 2', '']) {
      clock.advance(1000);
      ids.push((await api().createSiteShareLink(orgId, site, { name })).data.id);
    }
    const all: string[] = [];
    let page: string | undefined;
    do {
      const res = (await api().listSiteShareLinks(orgId, site, { limit: 3, ...(page ? { page } : {}) })).data;
      expect(res.count).toBe(4);
      all.push(...res.items.map((l) => l.id));
      page = res.next?.page;
    } while (page);
    expect(all).toEqual(ids);
    const search = (await api().listSiteShareLinks(orgId, site, { search: 'ALPHA' })).data.items;
    expect(search.map((l) => l.id)).toEqual([ids[0], ids[2]]);

    const updated = await api().updateSiteShareLinkById(orgId, site, ids[0]!, {
      active: false,
      name: 'Old alpha',
    });
    expect(updated.data).toMatchObject({ active: false, name: 'Old alpha' });
    expect((await raw('PATCH', sitePath(site, `/share-links/${ids[0]}`), {})).status).toBe(400);
    expect((await raw('PATCH', sitePath(site, `/share-links/nope`), { active: true })).status).toBe(404);
    expect((await raw('POST', sitePath(site, '/share-links'), { name: 'n'.repeat(51) })).status).toBe(400);
    expect((await raw('POST', sitePath(site, '/share-links'), {})).status).toBe(400);

    expect((await api().deleteSiteShareLinkById(orgId, site, ids[1]!)).status).toBe(204);
    expect((await api().deleteSiteShareLinkById(orgId, site, ids[1]!)).status).toBe(204);
    expect((await api().listSiteShareLinks(orgId, site)).data.count).toBe(3);
    expect((await failure(reader.api.orgs.createSiteShareLink(orgId, site, { name: 'mine' }))).code).toBe(
      403,
    );
  });
});

describe('customization', () => {
  it('presents every key with defaults before anything is set', async () => {
    const site = await newSite('Plain');
    const { data } = await api().getSiteCustomizationById(orgId, site);
    expect(data).toMatchObject({
      styling: { theme: 'clean', font: 'Inter', sidebar: { background: 'default', list: 'default' } },
      themes: { default: 'light', toggeable: true },
      header: { preset: 'default', links: [] },
      footer: { groups: [] },
      pageActions: { items: ['external-ai', 'markdown'] },
    });
    expect((data as { updatedAt?: string }).updatedAt).toBeUndefined();
    expect((await reader.api.orgs.getSiteCustomizationById(orgId, site)).status).toBe(200);
  });

  it('replaces the settings, stores them as given and keeps both page-action forms in step', async () => {
    const site = await newSite('Styled');
    clock.advance(60_000);
    const at = clock.now().toISOString();
    const settings = {
      title: 'Styled docs',
      styling: {
        theme: 'bold',
        primaryColor: { light: '#112233', dark: '#abc' },
        corners: 'straight',
        font: 'Lato',
      },
      favicon: { icon: { light: 'https://cdn.example.com/l.png', dark: 'https://cdn.example.com/d.png' } },
      header: {
        logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' },
        links: [
          {
            title: 'Pricing',
            to: { kind: 'url', url: 'https://example.com/pricing' },
            links: [{ title: 'Plans', to: { kind: 'page', page: 'p1', space: spaceA } }],
            condition: 'visitor.claims.plan != "enterprise"',
          },
        ],
      },
      footer: {
        copyright: '© Example',
        groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: '/about' } }] }],
      },
      announcement: { enabled: true, message: 'Version 2 is out', style: 'success' },
      themes: { default: 'dark', toggeable: false },
      pageActions: { items: ['markdown', 'mcp'] },
      socialAccounts: [{ platform: 'github', handle: 'example', display: { footer: true, header: false } }],
      privacyPolicy: { url: 'https://example.com/privacy' },
      unknownKey: { kept: false },
    };
    const { data } = await api().updateSiteCustomizationById(orgId, site, settings as never);
    expect(data).toMatchObject({
      title: 'Styled docs',
      styling: {
        theme: 'bold',
        primaryColor: { light: '#112233', dark: '#abc' },
        corners: 'straight',
        font: 'Lato',
        icons: 'regular',
      },
      themes: { default: 'dark', toggeable: false },
      announcement: { enabled: true, message: 'Version 2 is out', style: 'success' },
      pageActions: { items: ['markdown', 'mcp'], externalAI: false, markdown: true, mcp: true },
      updatedAt: at,
    });
    expect(data).not.toHaveProperty('unknownKey');
    expect((await api().getSiteCustomizationById(orgId, site)).data).toEqual(data);
    expect((await api().getSiteById(orgId, site)).data.icon).toEqual(settings.favicon);

    const row = await server.database.db
      .selectFrom('sites')
      .select('customization')
      .where('id', '=', site)
      .executeTakeFirstOrThrow();
    const { unknownKey: _dropped, ...stored } = settings;
    expect(JSON.parse(row.customization)).toEqual(stored);

    const flags = await raw('PUT', sitePath(site, '/customization'), {
      pageActions: { externalAI: false, mcp: true },
    });
    expect(flags.body).toMatchObject({
      pageActions: { externalAI: false, markdown: true, mcp: true, items: ['markdown', 'mcp'] },
      styling: { theme: 'clean' },
    });
    expect((await failure(reader.api.orgs.updateSiteCustomizationById(orgId, site, {} as never))).code).toBe(
      403,
    );
  });

  it('refuses invalid values, naming the field, and keeps the previous settings', async () => {
    const site = await newSite('Guarded style');
    await raw('PUT', sitePath(site, '/customization'), { styling: { theme: 'muted' } });
    for (const [body, field] of [
      [{ styling: { primaryColor: { light: '#zzzzzz', dark: '#000' } } }, 'body.styling.primaryColor.light'],
      [{ styling: { primaryColor: { light: '#000' } } }, 'body.styling.primaryColor.dark'],
      [{ styling: { theme: 'neon' } }, 'body.styling.theme'],
      [{ themes: { default: 'system' } }, 'body.themes.default'],
      [
        { header: { logo: { light: 'javascript:alert(1)', dark: 'https://x.example/a.png' } } },
        'body.header.logo.light',
      ],
      [
        { header: { links: [{ title: 'Bad', to: null, links: [], condition: 'visitor.claims.a ==' }] } },
        'body.header.links.0.condition',
      ],
      [
        { header: { links: [{ title: 'Bad', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }] } },
        'body.header.links.0.to',
      ],
      [{ footer: { copyright: 'c'.repeat(301) } }, 'body.footer.copyright'],
      [{ announcement: { enabled: true, message: 'x', style: 'info' } }, 'body.announcement.message'],
      [{ title: 'x' }, 'body.title'],
      [
        { socialAccounts: [{ platform: 'myspace', handle: 'me', display: { footer: true, header: true } }] },
        'body.socialAccounts.0.platform',
      ],
    ] as const) {
      const res = await raw('PUT', sitePath(site, '/customization'), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toContain(field);
    }
    expect((await api().getSiteCustomizationById(orgId, site)).data.styling.theme).toBe('muted');
  });
});

describe('adaptive schema', () => {
  const schema = {
    type: 'object',
    properties: {
      plan: { type: 'string', description: 'Subscription plan', enum: ['free', 'pro'] },
      seats: { type: 'number', description: 'Seats bought' },
      admin: { type: 'boolean', description: 'Administers the account' },
      roles: {
        type: 'array',
        description: 'Roles',
        items: { type: 'string', description: 'A role', enum: ['admin', 'editor'] },
      },
      company: {
        type: 'object',
        description: 'Employer',
        properties: { name: { type: 'string', description: 'Company name' } },
        additionalProperties: false,
      },
      'team-id': { type: 'string', description: 'Team' },
      unsigned: {
        type: 'object',
        properties: { beta: { type: 'boolean', description: 'Opted into the beta' } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it('starts empty, then stores a valid schema in its canonical form', async () => {
    const site = await newSite('Adaptive');
    const created = clock.now().toISOString();
    const empty = (await api().getSiteAdaptiveSchema(orgId, site)).data;
    expect(empty).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      updatedAt: created,
    });
    expect((await api().listSiteAdaptiveTemplateConditions(orgId, site)).data).toEqual({ items: [] });

    clock.advance(1000);
    const { data } = await api().updateSiteAdaptiveSchema(orgId, site, { jsonSchema: schema as never });
    expect(data.updatedAt).toBe(clock.now().toISOString());
    expect(data.updatedAt).not.toBe(created);
    expect(data.jsonSchema.properties.unsigned).toEqual({
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { beta: { type: 'boolean', description: 'Opted into the beta' } },
      additionalProperties: false,
    });
    expect((await api().getSiteAdaptiveSchema(orgId, site)).data).toEqual(data);
    expect((await reader.api.orgs.getSiteAdaptiveSchema(orgId, site)).data).toEqual(data);
    expect(
      (await failure(reader.api.orgs.updateSiteAdaptiveSchema(orgId, site, { jsonSchema: schema as never })))
        .code,
    ).toBe(403);
  });

  it('derives template conditions from the claims, each one a working condition', async () => {
    const site = await newSite('Templates');
    await api().updateSiteAdaptiveSchema(orgId, site, { jsonSchema: schema as never });
    const items = (await api().listSiteAdaptiveTemplateConditions(orgId, site)).data.items;
    expect(items.map((i) => i.condition)).toEqual([
      'visitor.claims.plan == "free"',
      'visitor.claims.plan == "pro"',
      'visitor.claims.seats > 0',
      'visitor.claims.admin == true',
      '!visitor.claims.admin',
      'visitor.claims.roles.includes("admin")',
      'visitor.claims.roles.includes("editor")',
      'visitor.claims.company.name != null',
      'visitor.claims["team-id"] != null',
      'visitor.claims.unsigned.beta == true',
      '!visitor.claims.unsigned.beta',
    ]);
    expect(items[1]!.description).toBe('Subscription plan: plan is "pro"');
    expect(items[9]!.description).toBe('Opted into the beta: unsigned.beta is true');
    const visitor = {
      plan: 'pro',
      seats: 3,
      admin: false,
      roles: ['editor'],
      company: { name: 'Acme' },
      'team-id': 'T1',
      unsigned: { beta: true },
    };
    const holds = items.map((i) => evaluateCondition(parseCondition(i.condition), visitor));
    expect(holds).toEqual([false, true, true, false, true, false, true, true, true, true, false]);
    // They are accepted wherever a condition is.
    const section = (await api().addSectionToSite(orgId, site, { spaceId: spaceB, title: 'Pro only' })).data;
    for (const { condition } of items)
      expect((await api().updateSiteSectionById(orgId, site, section.id, { condition })).data.condition).toBe(
        condition,
      );
  });

  it('refuses schemas that break a rule, naming it, and keeps the previous one', async () => {
    const site = await newSite('Strict schema');
    await api().updateSiteAdaptiveSchema(orgId, site, { jsonSchema: schema as never });
    const claim = (over: object) => ({ ...schema, properties: { ...schema.properties, bad: over } });
    for (const [jsonSchema, field, rule] of [
      [{ ...schema, additionalProperties: true }, 'body.jsonSchema.additionalProperties', 'must be false'],
      [{ ...schema, type: 'array' }, 'body.jsonSchema.type', 'must be "object"'],
      [{ ...schema, required: ['plan'] }, 'body.jsonSchema', 'must not have the property "required"'],
      [
        { ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' },
        'body.jsonSchema.$schema',
        'draft-07',
      ],
      [{ ...schema, properties: 'nope' }, 'body.jsonSchema.properties', 'must be an object'],
      [claim({ type: 'string' }), 'body.jsonSchema.properties.bad.description', 'is required'],
      [claim({ type: 'integer', description: 'd' }), 'body.jsonSchema.properties.bad.type', 'must be one of'],
      [
        claim({ type: 'string', description: 'd', format: 'email' }),
        'body.jsonSchema.properties.bad',
        '"format"',
      ],
      [
        claim({ type: 'string', description: 'd', enum: [] }),
        'body.jsonSchema.properties.bad.enum',
        'non-empty',
      ],
      [
        claim({ type: 'string', description: 'd', enum: ['a', 'a'] }),
        'body.jsonSchema.properties.bad.enum',
        'repeat',
      ],
      [
        claim({ type: 'array', description: 'd', items: { type: 'object', description: 'o' } }),
        'body.jsonSchema.properties.bad.items.type',
        'must be one of',
      ],
      [
        claim({ type: 'object', description: 'd', properties: {} }),
        'body.jsonSchema.properties.bad.additionalProperties',
        'must be false',
      ],
      [
        {
          ...schema,
          properties: { unsigned: { type: 'object', properties: {}, additionalProperties: true } },
        },
        'body.jsonSchema.properties.unsigned.additionalProperties',
        'must be false',
      ],
      [
        {
          ...schema,
          properties: {
            unsigned: { type: 'object', description: 'Mine', properties: {}, additionalProperties: false },
          },
        },
        'body.jsonSchema.properties.unsigned.description',
        'Unsigned claims of the site visitor.',
      ],
      [
        claim({
          type: 'object',
          description: '1',
          additionalProperties: false,
          properties: {
            b: {
              type: 'object',
              description: '2',
              additionalProperties: false,
              properties: {
                c: {
                  type: 'object',
                  description: '3',
                  additionalProperties: false,
                  properties: {
                    d: { type: 'object', description: '4', additionalProperties: false, properties: {} },
                  },
                },
              },
            },
          },
        }),
        'body.jsonSchema.properties.bad.properties.b.properties.c.properties.d',
        'too deeply',
      ],
    ] as const) {
      const res = await raw('PUT', sitePath(site, '/adaptive-schema'), { jsonSchema });
      expect(res.status, JSON.stringify(jsonSchema)).toBe(400);
      const { message } = (res.body as { error: { message: string } }).error;
      expect(message).toContain(`${field} `);
      expect(message).toContain(rule);
    }
    expect((await raw('PUT', sitePath(site, '/adaptive-schema'), { jsonSchema: [1] })).status).toBe(400);
    expect((await raw('PUT', sitePath(site, '/adaptive-schema'), {})).status).toBe(400);
    expect((await api().getSiteAdaptiveSchema(orgId, site)).data.jsonSchema.properties).toHaveProperty(
      'plan',
    );
  });
});

describe('publishing auth', () => {
  it('gives managers the visitor-token key, which signs tokens until regenerated', async () => {
    const site = await newSite('Private docs');
    await api().updateSiteById(orgId, site, { visibility: 'visitor-auth' as never });
    const auth = (await api().getSitePublishingAuthById(orgId, site)).data;
    expect(auth).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    expect(Buffer.from(auth.privateKey, 'base64url').length).toBe(32);
    const token = signVisitorToken({ plan: 'pro' }, auth.privateKey);
    expect(await verifyVisitorToken(token, auth.privateKey, Date.now())).toMatchObject({ ok: true });

    const updated = await api().updateSitePublishingAuthById(orgId, site, {
      backend: 'custom',
      fallbackURL: 'https://login.example.com/start',
    });
    expect(updated.data).toMatchObject({
      privateKey: auth.privateKey,
      fallbackURL: 'https://login.example.com/start',
    });
    const cleared = await raw('PATCH', sitePath(site, '/publishing/auth'), {
      backend: 'custom',
      fallbackURL: null,
    });
    expect(cleared.body).not.toHaveProperty('fallbackURL');
    expect(
      (await raw('PATCH', sitePath(site, '/publishing/auth'), { fallbackURL: 'ftp://x.example' })).status,
    ).toBe(400);
    const integration = await raw('PATCH', sitePath(site, '/publishing/auth'), { backend: 'integration' });
    expect(integration.status).toBe(400);
    expect(integration.text).toContain('body.backend');

    const regenerated = (await api().regenerateSitePublishingAuthById(orgId, site)).data;
    expect(regenerated.privateKey).not.toBe(auth.privateKey);
    expect(await verifyVisitorToken(token, regenerated.privateKey, Date.now())).toMatchObject({ ok: false });
    expect((await failure(reader.api.orgs.getSitePublishingAuthById(orgId, site))).code).toBe(403);
    expect((await failure(reader.api.orgs.regenerateSitePublishingAuthById(orgId, site))).code).toBe(403);
  });
});

describe('published content', () => {
  it('is a 404 until the site is published', async () => {
    const site = await newSite('Draft site');
    const res = await failure(api().getPublishedContentSite(orgId, site));
    expect(res.code).toBe(404);
    expect(res.message).toContain('not published');
  });

  it('gives the site, its structure and customizations once published', async () => {
    const site = await newSite('Published', [spaceA, spaceB]);
    const section = (await api().addSectionToSite(orgId, site, { spaceId: spaceB, title: 'Main' })).data;
    const other = (await api().addSectionToSite(orgId, site, { spaceId: spaceA, title: 'Extra' })).data;
    await api().addSectionGroupToSite(orgId, site, { title: 'More', sections: [other.id] });
    await raw('PUT', sitePath(site, '/customization'), { styling: { theme: 'gradient' } });
    await api().publishSite(orgId, site);

    const { data } = await api().getPublishedContentSite(orgId, site);
    expect(data.object).toBe('published-content-site');
    expect(data.site).toMatchObject({
      id: site,
      published: true,
      urls: { published: `${server.url}/sites/${site}/` },
    });
    expect(data.structure.type).toBe('sections');
    const [main, group] = data.structure.structure as [SiteSection, SiteSectionGroup];
    expect(main).toMatchObject({ id: section.id, default: true });
    expect(main.siteSpaces).toHaveLength(2);
    expect(group).toMatchObject({ object: 'site-section-group', title: 'More' });
    expect(data.customizations.site.styling.theme).toBe('gradient');
    const siteSpaceIds = [...main.siteSpaces, ...(group.children[0] as SiteSection).siteSpaces].map(
      (s) => s.id,
    );
    expect(Object.keys(data.customizations.siteSpaces).sort()).toEqual(siteSpaceIds.sort());
    expect(data.scripts).toEqual([]);
    expect((await reader.api.orgs.getPublishedContentSite(orgId, site)).status).toBe(200);
  });

  it('leaves out site spaces of trashed spaces', async () => {
    const doomed = (await api().createSpace(orgId, { title: 'Doomed' })).data.id;
    const site = await newSite('With trash', [spaceA, doomed]);
    await api().publishSite(orgId, site);
    await admin.api.spaces.deleteSpaceById(doomed);
    const { data } = await api().getPublishedContentSite(orgId, site);
    expect(data.structure).toMatchObject({ type: 'siteSpaces', structure: [{ space: { id: spaceA } }] });
    expect(data.structure.structure).toHaveLength(1);
    // The site still lists it, with the space marked deleted.
    const listed = (await api().listSiteSpaces(orgId, site)).data.items;
    expect(listed.find((s) => s.space.id === doomed)!.space.deletedAt).toBeDefined();
  });

  it('keeps a default when the default site space goes with a purged space', async () => {
    const purged = (await api().createSpace(orgId, { title: 'Purged' })).data.id;
    const site = await newSite('After purge', [purged, spaceA]);
    await admin.api.spaces.deleteSpaceById(purged);
    clock.advance(8 * 24 * 60 * 60 * 1000);
    await server.app.quire.services.trash.purge();
    const left = (await api().listSiteSpaces(orgId, site)).data.items;
    expect(left.map((s) => [s.space.id, s.default])).toEqual([[spaceA, true]]);
    expect((await api().getSiteById(orgId, site)).data.siteSpaces).toBe(1);
  });

  it('accepts only keys of active share links of the site', async () => {
    const site = await newSite('Secret', [spaceA]);
    await api().updateSiteById(orgId, site, { visibility: 'share-link' as never });
    await api().publishSite(orgId, site);
    const link = (await api().createSiteShareLink(orgId, site, { name: 'Reviewers' })).data;
    const key = keyOf(link.urls.published);
    expect((await api().getPublishedContentSite(orgId, site, { shareKey: key })).status).toBe(200);
    const otherSite = await newSite('Other secret', [spaceA]);
    await api().publishSite(orgId, otherSite);
    expect((await failure(api().getPublishedContentSite(orgId, otherSite, { shareKey: key }))).code).toBe(
      404,
    );
    await api().updateSiteShareLinkById(orgId, site, link.id, { active: false });
    expect((await failure(api().getPublishedContentSite(orgId, site, { shareKey: key }))).code).toBe(404);
    await api().updateSiteShareLinkById(orgId, site, link.id, { active: true });
    expect((await api().getPublishedContentSite(orgId, site, { shareKey: key })).status).toBe(200);
    await api().deleteSiteShareLinkById(orgId, site, link.id);
    expect((await failure(api().getPublishedContentSite(orgId, site, { shareKey: key }))).code).toBe(404);
  });
});
