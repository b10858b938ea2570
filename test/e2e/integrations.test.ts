import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GitBookAPI, PublishIntegration } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { dataDirSecretsKey, SECRETS_KEY_FILE, SecretBox } from '../../src/secret-box.js';
import { apiClient, apiClient146, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { gitbookPublish } from '../helpers/gitbook-cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HELLO = path.join(ROOT, 'test/fixtures/integrations/hello');

/** A 1x1 PNG, and the first bytes of a JPEG and a WebP (the type is read from them). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.alloc(4),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(40, 2),
]);
const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64');

let server: TestServer;
/** Admin of `orgId`; `reader` reads there; `outsider` is admin of `otherOrg` only. */
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;
let otherOrg: string;
let anonymous: GitBookAPI;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server, { name: 'Ida Admin' });
  reader = await createUser(server, { name: 'Rui Reader' });
  outsider = await createUser(server, { name: 'Otto Outsider' });
  orgId = await createOrg(admin, 'Integrators');
  otherOrg = await createOrg(outsider, 'Elsewhere');
  await addMember(admin, orgId, reader, 'read');
  anonymous = apiClient(server.url);
});
afterAll(() => server.close());

/** The body of acceptance test 1, with `changes` on top; enums are plain strings on the wire. */
function manifest(changes: Record<string, unknown> = {}): PublishIntegration {
  return {
    title: 'Conformance',
    description: 'Checks the integrations API',
    script: 'export default {};',
    organization: orgId,
    scopes: ['space:content:read'],
    visibility: 'private',
    target: 'space',
    categories: ['other'],
    ...changes,
  } as unknown as PublishIntegration;
}

async function publish(name: string, changes: Record<string, unknown> = {}, as: TestUser = admin) {
  return (await as.api.integrations.publishIntegration(name, manifest(changes))).data;
}

/** What the API answers for a raw publish (for bodies the client would not send). */
function rawPublish(name: string, body: unknown, token = admin.token) {
  return rawRequest(server.url, 'POST', `/v1/integrations/${name}`, { token, body: body as object });
}

async function names(api: GitBookAPI, query: Record<string, unknown> = {}): Promise<string[]> {
  const { data } = await api.integrations.listIntegrations(query as never);
  return data.items.map((item) => item.name);
}

describe('publishing (acceptance 1, 2, 5, 6)', () => {
  it('publishes version 1 with its owner and absolute urls, and never echoes the script or secrets', async () => {
    const res = await rawPublish('conformance', { ...manifest(), secrets: { TOKEN: 'never-shown' } });
    expect(res.status).toBe(200);
    const integration = res.body as Record<string, unknown> & {
      owner: { id: string; object: string };
      urls: Record<string, string>;
      permissions: { admin: boolean };
    };
    expect(integration).toMatchObject({
      object: 'integration',
      name: 'conformance',
      version: 1,
      verified: false,
      visibility: 'private',
      target: 'space',
      scopes: ['space:content:read'],
      categories: ['other'],
      previewImages: [],
      externalLinks: [],
      permissions: { admin: true },
    });
    expect(integration.owner).toMatchObject({ object: 'organization', id: orgId });
    const base = `${server.url}/v1/integrations/conformance`;
    expect(integration.urls).toEqual({
      location: base,
      app: `${server.url}/app/integrations/conformance`,
      assets: `${server.url}/integrations/conformance/assets/`,
      publicEndpoint: `${base}/integration`,
      publicContentEndpoint: `${base}/integration`,
    });
    expect(Object.keys(integration)).not.toContain('script');
    expect(Object.keys(integration)).not.toContain('secrets');
    expect(res.text).not.toContain('export default');
    expect(res.text).not.toContain('never-shown');
    expect(res.text).not.toContain('TOKEN');
  });

  it('adds one to the version at each publish by the owner, with the new manifest', async () => {
    const second = await publish('conformance', { title: 'Conformance v2' });
    expect(second).toMatchObject({ version: 2, title: 'Conformance v2' });
    const read = (await admin.api.integrations.getIntegrationByName('conformance')).data;
    expect(read).toMatchObject({ version: 2, title: 'Conformance v2' });
    expect(read.owner.permissions.admin).toBe(true);
  });

  it('answers 404 to another organization publishing a taken name, and changes nothing', async () => {
    const taken = await failure(
      outsider.api.integrations.publishIntegration(
        'conformance',
        manifest({ organization: otherOrg, title: 'Hijacked', visibility: 'public' }),
      ),
    );
    expect(taken.code).toBe(404);
    expect(taken.message).toContain('conformance');
    const read = (await admin.api.integrations.getIntegrationByName('conformance')).data;
    expect(read).toMatchObject({ version: 2, title: 'Conformance v2', visibility: 'private' });
    expect(read.owner.id).toBe(orgId);
  });

  it('answers 403 to a member who is not admin, 404 to a non-member, and changes nothing', async () => {
    const denied = await failure(
      reader.api.integrations.publishIntegration('conformance', manifest({ title: 'By a reader' })),
    );
    expect(denied.code).toBe(403);
    const fresh = await failure(reader.api.integrations.publishIntegration('reader-made', manifest()));
    expect(fresh.code).toBe(403);
    const notMember = await failure(
      outsider.api.integrations.publishIntegration('outsider-made', manifest({ organization: orgId })),
    );
    expect(notMember.code).toBe(404);
    const unknown = await failure(
      admin.api.integrations.publishIntegration('ghost-made', manifest({ organization: 'no-such-org' })),
    );
    expect(unknown).toEqual({ code: 404, message: expect.stringContaining('no-such-org') });
    expect((await admin.api.integrations.getIntegrationByName('conformance')).data.version).toBe(2);
    for (const name of ['reader-made', 'outsider-made', 'ghost-made']) {
      expect((await failure(admin.api.integrations.getIntegrationByName(name))).code).toBe(404);
    }
  });

  it('takes the organization by its hostname too', async () => {
    await admin.api.orgs.updateOrganizationById(orgId, { hostname: 'integrators' });
    const byHost = await publish('by-hostname', { organization: 'integrators' });
    expect(byHost.owner.id).toBe(orgId);
  });

  it('keeps visibility and target when a later publish omits them', async () => {
    await publish('sticky', { visibility: 'public', target: 'site' });
    const again = await publish('sticky', { visibility: undefined, target: undefined, title: 'Sticky 2' });
    expect(again).toMatchObject({ version: 2, visibility: 'public', target: 'site', title: 'Sticky 2' });
  });

  it('stores blocks, content sources, configurations, links and a policy as given', async () => {
    const full = await publish('full-manifest', {
      summary: '# Full\n\nEvery field.',
      runtime: 'v2',
      blocks: [
        {
          id: 'embed',
          title: 'Embed',
          description: 'Shows a page',
          urlUnfurl: ['https://docs.example.com/**'],
          markdown: { codeblock: 'embed', body: '{}' },
        },
      ],
      contentSources: [{ id: 'source', title: 'Source', configuration: { componentId: 'configure' } }],
      configurations: {
        account: {
          properties: {
            key: { type: 'string', title: 'API key', description: 'Your key', default: 'none' },
            retries: { type: 'number', default: 3 },
            verbose: { type: 'boolean', default: false },
            connect: { type: 'button', button_text: 'Connect', callback_url: '/oauth' },
          },
          required: ['key'],
        },
        space: { componentId: 'space-config' },
      },
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com" },
    });
    expect(full.summary).toBe('# Full\n\nEvery field.');
    expect(full.blocks).toEqual([
      {
        id: 'embed',
        title: 'Embed',
        description: 'Shows a page',
        urlUnfurl: ['https://docs.example.com/**'],
        markdown: { codeblock: 'embed', body: '{}' },
      },
    ]);
    expect(full.contentSources).toEqual([
      { id: 'source', title: 'Source', configuration: { componentId: 'configure' } },
    ]);
    expect(full.configurations?.account).toMatchObject({ required: ['key'] });
    expect(full.configurations?.space).toEqual({ componentId: 'space-config' });
    expect(full.externalLinks).toEqual([{ url: 'https://example.com/docs', label: 'Docs' }]);
    expect(full.contentSecurityPolicy).toEqual({ 'script-src': "'self' https://cdn.example.com" });
    const asString = await publish('full-manifest', { contentSecurityPolicy: "default-src 'self'" });
    expect(asString.contentSecurityPolicy).toBe("default-src 'self'");
  });

  it('publishes through the 0.146 client as well', async () => {
    const api146 = apiClient146(server.url, admin.token);
    const { data } = await api146.integrations.publishIntegration('old-client', manifest() as never);
    expect(data).toMatchObject({ name: 'old-client', version: 1 });
  });
});

describe('visibility (acceptance 3)', () => {
  beforeAll(async () => {
    await publish('vis-private', { visibility: 'private' });
    await publish('vis-unlisted', { visibility: 'unlisted' });
    await publish('vis-public', { visibility: 'public' });
  });

  it('shows a private integration to members of its organization only', async () => {
    expect((await reader.api.integrations.getIntegrationByName('vis-private')).data.name).toBe('vis-private');
    expect((await failure(outsider.api.integrations.getIntegrationByName('vis-private'))).code).toBe(404);
    expect((await failure(anonymous.integrations.getIntegrationByName('vis-private'))).code).toBe(404);
    expect(await names(reader.api)).toContain('vis-private');
    expect(await names(outsider.api)).not.toContain('vis-private');
  });

  it('gives an unlisted integration by name to anyone but lists it to its members only', async () => {
    const got = (await anonymous.integrations.getIntegrationByName('vis-unlisted')).data;
    expect(got.permissions.admin).toBe(false);
    expect(got.owner.permissions.admin).toBe(false);
    expect((await outsider.api.integrations.getIntegrationByName('vis-unlisted')).data.name).toBe(
      'vis-unlisted',
    );
    expect(await names(anonymous)).not.toContain('vis-unlisted');
    expect(await names(outsider.api)).not.toContain('vis-unlisted');
    expect(await names(reader.api)).toContain('vis-unlisted');
  });

  it('lists a public integration without a token', async () => {
    const listed = await names(anonymous);
    expect(listed).toContain('vis-public');
    expect(listed).not.toContain('vis-private');
    expect((await rawRequest(server.url, 'GET', '/v1/integrations/vis-public')).status).toBe(200);
  });

  it('tells admins of the owner, and only them, that they administer it', async () => {
    expect((await admin.api.integrations.getIntegrationByName('vis-public')).data.permissions.admin).toBe(
      true,
    );
    expect((await reader.api.integrations.getIntegrationByName('vis-public')).data.permissions.admin).toBe(
      false,
    );
    expect((await outsider.api.integrations.getIntegrationByName('vis-public')).data.permissions.admin).toBe(
      false,
    );
  });

  it('refuses an invalid token on the public routes rather than reading it as anonymous', async () => {
    const res = await rawRequest(server.url, 'GET', '/v1/integrations', { token: 'quire_not-a-token' });
    expect(res.status).toBe(401);
  });

  it('pages through the list with a cursor', async () => {
    const first = (await reader.api.integrations.listIntegrations({ limit: 2 })).data;
    expect(first.items).toHaveLength(2);
    expect(first.next?.page).toBeTruthy();
    const second = (await reader.api.integrations.listIntegrations({ limit: 2, page: first.next!.page }))
      .data;
    expect(second.items[0]!.name > first.items[1]!.name).toBe(true);
    expect(first.count).toBe(second.count);
  });
});

describe('filters (acceptance 4)', () => {
  beforeAll(async () => {
    await publish('f-blocks', {
      visibility: 'public',
      target: 'space',
      scopes: ['space:content:read', 'space:metadata:read'],
      categories: ['analytics'],
      description: 'Unfurls documentation pages',
      blocks: [{ id: 'page', title: 'Page', urlUnfurl: ['https://docs.example.com/x'] }],
    });
    await publish('f-plain', {
      visibility: 'public',
      target: 'site',
      scopes: ['site:metadata:read'],
      categories: ['marketing'],
      contentSources: [{ id: 'feed', title: 'Feed', configuration: { componentId: 'feed' } }],
    });
    await publish('f-other-org', { organization: otherOrg, visibility: 'public' }, outsider);
  });

  it('filters by owner and by search', async () => {
    const owned = await names(anonymous, { owner: orgId });
    expect(owned).toEqual(expect.arrayContaining(['f-blocks', 'f-plain']));
    expect(owned).not.toContain('f-other-org');
    expect(await names(anonymous, { owner: otherOrg })).toEqual(['f-other-org']);
    expect(await names(anonymous, { search: 'no such integration anywhere' })).toEqual([]);
    expect(await names(anonymous, { search: 'DOCUMENTATION' })).toEqual(['f-blocks']);
    expect(await names(anonymous, { search: 'f-pl' })).toEqual(['f-plain']);
    expect(await names(anonymous, { search: '%' })).toEqual([]);
  });

  it('filters by blocks and content sources', async () => {
    expect(await names(anonymous, { blocks: true })).toEqual(['f-blocks']);
    const without = await names(anonymous, { blocks: false });
    expect(without).toContain('f-plain');
    expect(without).not.toContain('f-blocks');
    expect(await names(anonymous, { contentSources: true })).toEqual(['f-plain']);
    expect(await names(anonymous, { contentSources: false })).not.toContain('f-plain');
  });

  it('matches blockDomain against the hosts blocks unfurl, subdomains included', async () => {
    expect(await names(anonymous, { blockDomain: 'example.com' })).toEqual(['f-blocks']);
    expect(await names(anonymous, { blockDomain: 'docs.example.com' })).toEqual(['f-blocks']);
    expect(await names(anonymous, { blockDomain: 'ample.com' })).toEqual([]);
    expect(await names(anonymous, { blockDomain: 'example.org' })).toEqual([]);
  });

  it('filters by scope, target and category', async () => {
    expect(await names(anonymous, { scope: 'space:metadata:read' })).toEqual(['f-blocks']);
    expect(await names(anonymous, { scope: 'site:metadata:read' })).toEqual(['f-plain']);
    expect(await names(anonymous, { target: 'site' })).toEqual(expect.arrayContaining(['f-plain']));
    expect(await names(anonymous, { target: 'site' })).not.toContain('f-blocks');
    expect(await names(anonymous, { category: 'analytics' })).toEqual(['f-blocks']);
    expect(await names(anonymous, { category: 'marketing', owner: orgId })).toEqual(['f-plain']);
  });

  it('answers 400 to a blockDomain that is not a domain', async () => {
    const res = await rawRequest(
      server.url,
      'GET',
      `/v1/integrations?blockDomain=${encodeURIComponent('bad domain!')}`,
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain('querystring.blockDomain');
    const long = await rawRequest(server.url, 'GET', `/v1/integrations?blockDomain=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    const flag = await rawRequest(server.url, 'GET', '/v1/integrations?blocks=perhaps');
    expect(flag.status).toBe(400);
    expect(flag.text).toContain('querystring.blocks');
  });
});

describe('images (acceptance 7)', () => {
  it('serves the icon and preview images with their type and nosniff', async () => {
    const published = await publish('pictured', {
      visibility: 'public',
      icon: b64(PNG),
      previewImages: [b64(JPEG), b64(WEBP)],
    });
    expect(published.urls.icon).toMatch(
      new RegExp(`^${server.url}/integrations/pictured/assets/[0-9a-f]{64}$`),
    );
    const icon = await fetch(published.urls.icon!);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await icon.arrayBuffer()).equals(PNG)).toBe(true);
    expect(published.previewImages).toHaveLength(2);
    const types = [];
    for (const url of published.previewImages) {
      expect(url.startsWith(published.urls.assets)).toBe(true);
      const res = await fetch(url);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      types.push(res.headers.get('content-type'));
    }
    expect(types).toEqual(['image/jpeg', 'image/webp']);
  });

  it('serves no other blob and nothing for another integration', async () => {
    const { urls } = await publish('pictured-too', { visibility: 'public', icon: b64(PNG) });
    const hash = urls.icon!.split('/').pop()!;
    const script = (await server.app.quire.services.blobs.put(Buffer.from('export default {};'))).hash;
    expect((await fetch(`${urls.assets}${script}`)).status).toBe(404);
    expect((await fetch(`${server.url}/integrations/conformance/assets/${hash}`)).status).toBe(404);
    const missing = await fetch(`${server.url}/integrations/nothing-here/assets/${hash}`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await missing.json()).toEqual({ error: { code: 404, message: expect.any(String) } });
  });

  it.each([
    ['an SVG', b64('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['an HTML page', b64('<!doctype html><html><script>alert(1)</script></html>')],
  ])('refuses %s as the icon', async (_what, icon) => {
    const res = await rawPublish('pictured', { ...manifest({ visibility: 'public' }), icon });
    expect(res.status).toBe(400);
    expect(res.text).toContain('body.icon');
    expect(res.text).toContain('PNG, JPEG or WebP');
  });
});

describe('secrets (acceptance 8)', () => {
  const SECRET = 'sk_live_correct-horse-battery';

  it('stores them sealed, never answers them, and keeps them when a later publish omits them', async () => {
    const { integrations } = server.app.quire.services;
    const first = await rawPublish('secretive', {
      ...manifest(),
      secrets: { API_KEY: SECRET, REGION: 'eu' },
    });
    expect(first.status).toBe(200);
    expect(first.text).not.toContain(SECRET);
    const row = await server.database.db
      .selectFrom('integrations')
      .selectAll()
      .where('name', '=', 'secretive')
      .executeTakeFirstOrThrow();
    expect(row.secrets).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain('API_KEY');
    expect(await integrations.secretsOf('secretive')).toEqual({ API_KEY: SECRET, REGION: 'eu' });

    const again = await rawPublish('secretive', manifest({ title: 'Still secret' }));
    expect(again.status).toBe(200);
    expect(again.text).not.toContain(SECRET);
    expect(await integrations.secretsOf('secretive')).toEqual({ API_KEY: SECRET, REGION: 'eu' });
    const read = await rawRequest(server.url, 'GET', '/v1/integrations/secretive', { token: admin.token });
    expect(read.text).not.toContain(SECRET);

    await rawPublish('secretive', { ...manifest(), secrets: { API_KEY: 'rotated' } });
    expect(await integrations.secretsOf('secretive')).toEqual({ API_KEY: 'rotated' });
    await rawPublish('secretive', { ...manifest(), secrets: {} });
    expect(await integrations.secretsOf('secretive')).toEqual({});
  });

  it('keeps the generated key in the data directory, readable by its owner only', () => {
    const file = path.join(server.config.dataDir, SECRETS_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
  });

  it('binds a sealed value to its integration: copied to another, it does not open', async () => {
    await rawPublish('secret-a', { ...manifest(), secrets: { KEY: 'a' } });
    await publish('secret-b');
    const { db } = server.database;
    const a = await db
      .selectFrom('integrations')
      .select('secrets')
      .where('name', '=', 'secret-a')
      .executeTakeFirstOrThrow();
    await db.updateTable('integrations').set({ secrets: a.secrets }).where('name', '=', 'secret-b').execute();
    await expect(server.app.quire.services.integrations.secretsOf('secret-b')).rejects.toThrow(
      /does not decrypt/,
    );
  });

  it('reads QUIRE_SECRETS_KEY, refusing one that is not 32 bytes of base64', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ QUIRE_SECRETS_KEY: key }).secretsKey?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(loadConfig({}).secretsKey).toBeUndefined();
    for (const bad of ['short', Buffer.alloc(16).toString('base64'), `${key.slice(0, -2)}!!`]) {
      expect(() => loadConfig({ QUIRE_SECRETS_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ QUIRE_SECRETS_KEY: bad })).toThrow(/QUIRE_SECRETS_KEY.*32 random bytes/);
    }
  });

  it('makes one key per data directory, reuses it, and refuses a key file others can read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-key-'));
    try {
      const key = dataDirSecretsKey(dir);
      expect(dataDirSecretsKey(dir).equals(key)).toBe(true);
      const sealed = new SecretBox(() => key).seal('text', 'ctx');
      expect(new SecretBox(() => dataDirSecretsKey(dir)).open(sealed, 'ctx')).toBe('text');
      expect(() => new SecretBox(() => Buffer.alloc(32, 1)).open(sealed, 'ctx')).toThrow(/does not decrypt/);
      chmodSync(path.join(dir, SECRETS_KEY_FILE), 0o644);
      expect(() => dataDirSecretsKey(dir)).toThrow(/chmod 600/);
      writeFileSync(path.join(dir, SECRETS_KEY_FILE), 'not a key', { mode: 0o600 });
      chmodSync(path.join(dir, SECRETS_KEY_FILE), 0o600);
      expect(() => dataDirSecretsKey(dir)).toThrow(/does not hold a key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses QUIRE_SECRETS_KEY when set, and writes no key file', async () => {
    const key = Buffer.alloc(32, 9);
    const keyed = await startTestServer({ env: { QUIRE_SECRETS_KEY: key.toString('base64') } });
    try {
      const owner = await createUser(keyed);
      const org = await createOrg(owner);
      await owner.api.integrations.publishIntegration('keyed', {
        ...manifest({ organization: org }),
        secrets: { KEY: 'value' },
      } as never);
      const row = await keyed.database.db
        .selectFrom('integrations')
        .select('secrets')
        .where('name', '=', 'keyed')
        .executeTakeFirstOrThrow();
      expect(new SecretBox(() => key).open(row.secrets!, 'keyed')).toBe(JSON.stringify({ KEY: 'value' }));
      expect(() => statSync(path.join(keyed.config.dataDir, SECRETS_KEY_FILE))).toThrow();
    } finally {
      await keyed.close();
    }
  });
});

describe('installations (acceptance 9)', () => {
  it('installs (201), lists it in the organization, and unpublishing removes both', async () => {
    await publish('installable', { visibility: 'public' });
    const { data: installation } = await admin.api.integrations.installIntegration('installable', {
      organization: orgId,
    });
    expect(installation).toMatchObject({
      status: 'active',
      target: { organization: orgId },
      configuration: {},
      externalIds: [],
    });
    expect(installation.urls.location).toBe(
      `${server.url}/v1/integrations/installable/installations/${installation.id}`,
    );
    const again = await rawRequest(server.url, 'POST', '/v1/integrations/installable/installations', {
      token: admin.token,
      body: { organization: orgId },
    });
    expect(again.status).toBe(201);
    expect((again.body as { id: string }).id).toBe(installation.id);

    const listed = (await admin.api.orgs.listOrganizationInstallations(orgId)).data;
    const mine = listed.items.find((item) => item.installation.id === installation.id);
    expect(mine?.integration).toMatchObject({ name: 'installable', owner: { id: orgId } });
    const byId = (await admin.api.integrations.getIntegrationInstallationById('installable', installation.id))
      .data;
    expect(byId.id).toBe(installation.id);

    const gone = await rawRequest(server.url, 'DELETE', '/v1/integrations/installable', {
      token: admin.token,
    });
    expect(gone.status).toBe(204);
    expect((await failure(admin.api.integrations.getIntegrationByName('installable'))).code).toBe(404);
    const after = (await admin.api.orgs.listOrganizationInstallations(orgId)).data.items;
    expect(after.map((item) => item.installation.id)).not.toContain(installation.id);
    expect(await server.app.quire.services.integrations.installation(installation.id)).toBeUndefined();
    const again204 = await rawRequest(server.url, 'DELETE', '/v1/integrations/installable', {
      token: admin.token,
    });
    expect(again204.status).toBe(204);
  });

  it('installs public and unlisted integrations in other organizations, private ones only at home', async () => {
    await publish('shared-public', { visibility: 'public' });
    await publish('shared-unlisted', { visibility: 'unlisted' });
    await publish('home-only', { visibility: 'private' });
    for (const name of ['shared-public', 'shared-unlisted']) {
      const { data } = await outsider.api.integrations.installIntegration(name, { organization: otherOrg });
      expect(data.target.organization).toBe(otherOrg);
    }
    const hidden = await failure(
      outsider.api.integrations.installIntegration('home-only', { organization: otherOrg }),
    );
    expect(hidden.code).toBe(404);
    // An admin of both organizations sees it, and is told why it does not install there.
    await addMember(outsider, otherOrg, admin, 'admin');
    const refused = await failure(
      admin.api.integrations.installIntegration('home-only', { organization: otherOrg }),
    );
    expect(refused).toEqual({ code: 403, message: expect.stringContaining('private') });
    const home = await admin.api.integrations.installIntegration('home-only', { organization: orgId });
    expect(home.data.target.organization).toBe(orgId);
  });

  it('uninstalls an integration from other organizations when it is made private', async () => {
    await publish('going-private', { visibility: 'public' });
    await outsider.api.integrations.installIntegration('going-private', { organization: otherOrg });
    await admin.api.integrations.installIntegration('going-private', { organization: orgId });
    await publish('going-private', { visibility: 'private' });
    const left = await server.app.quire.services.integrations.installationsOf('going-private');
    expect(left.map((installation) => installation.orgId)).toEqual([orgId]);
  });

  it('lets admins only install and list installations', async () => {
    await publish('admins-only', { visibility: 'public' });
    const denied = await failure(
      reader.api.integrations.installIntegration('admins-only', { organization: orgId }),
    );
    expect(denied.code).toBe(403);
    expect((await failure(reader.api.orgs.listOrganizationInstallations(orgId))).code).toBe(403);
    const stranger = await createUser(server);
    expect((await failure(stranger.api.orgs.listOrganizationInstallations(orgId))).code).toBe(404);
    const notHis = await failure(
      stranger.api.integrations.installIntegration('admins-only', { organization: orgId }),
    );
    expect(notHis.code).toBe(404);
    const missing = await failure(
      admin.api.integrations.installIntegration('no-such-integration', { organization: orgId }),
    );
    expect(missing.code).toBe(404);
    const { data } = await admin.api.integrations.installIntegration('admins-only', { organization: orgId });
    const byReader = await failure(
      reader.api.integrations.getIntegrationInstallationById('admins-only', data.id),
    );
    expect(byReader.code).toBe(403);
    const byStranger = await failure(
      stranger.api.integrations.getIntegrationInstallationById('admins-only', data.id),
    );
    expect(byStranger.code).toBe(404);
  });

  it("searches and pages an organization's installations", async () => {
    const page = (await admin.api.orgs.listOrganizationInstallations(orgId, { limit: 1 })).data;
    expect(page.items).toHaveLength(1);
    expect(page.count).toBeGreaterThan(1);
    const next = (
      await admin.api.orgs.listOrganizationInstallations(orgId, { limit: 1, page: page.next!.page })
    ).data;
    expect(next.items[0]!.installation.id).not.toBe(page.items[0]!.installation.id);
    const found = (await admin.api.orgs.listOrganizationInstallations(orgId, { search: 'ADMINS-O' })).data;
    expect(found.items.map((item) => item.integration.name)).toEqual(['admins-only']);
  });

  it('lets only admins of the owner unpublish', async () => {
    await publish('kept', { visibility: 'public' });
    const byReader = await rawRequest(server.url, 'DELETE', '/v1/integrations/kept', { token: reader.token });
    expect(byReader.status).toBe(403);
    const stranger = await createUser(server);
    const byStranger = await rawRequest(server.url, 'DELETE', '/v1/integrations/kept', {
      token: stranger.token,
    });
    expect(byStranger.status).toBe(404);
    expect((await anonymous.integrations.getIntegrationByName('kept')).data.name).toBe('kept');
  });

  it('gives the runtime scripts, installations and the organization installations', async () => {
    const { integrations } = server.app.quire.services;
    await publish('runnable', { visibility: 'public', script: 'export default { fetch() {} };' });
    await publish('runnable', { visibility: 'public', script: 'export default { fetch() { return 2; } };' });
    expect(await integrations.scriptOf('runnable')).toEqual({
      version: 2,
      script: 'export default { fetch() { return 2; } };',
    });
    expect(await integrations.scriptOf('no-such-integration')).toBeUndefined();
    const { data } = await outsider.api.integrations.installIntegration('runnable', {
      organization: otherOrg,
    });
    expect(await integrations.installation(data.id)).toMatchObject({
      id: data.id,
      integrationName: 'runnable',
      orgId: otherOrg,
      status: 'active',
      configuration: {},
    });
    expect((await integrations.installationsOf('runnable')).map((i) => i.id)).toEqual([data.id]);
    expect((await integrations.installationsInOrg(otherOrg)).map((i) => i.integrationName)).toContain(
      'runnable',
    );
  });

  it('leads urls.app somewhere rather than to a 404', async () => {
    const { urls } = await publish('app-linked');
    const res = await fetch(urls.app, { redirect: 'manual' });
    expect([302, 303]).toContain(res.status);
  });
});

/** A request sent as written (fetch would resolve `.` and `..` in the path before sending it). */
function sendAsWritten(
  method: string,
  target: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const { port } = new URL(server.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: target,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('bad inputs (AREAS-2 5.4): 400 naming the field, and nothing changes', () => {
  const NAME = 'guarded';
  const big = Buffer.concat([PNG, Buffer.alloc(512 * 1024)]);
  const block = (changes: Record<string, unknown> = {}) => ({ id: 'b', title: 'Block', ...changes });
  const properties = (
    level: string,
    props: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    configurations: { [level]: { properties: props, ...extra } },
  });

  beforeAll(async () => {
    await rawPublish(NAME, { ...manifest({ visibility: 'public' }), secrets: { KEEP: 'me' } });
  });

  it.each([
    ['a name with a space', 'bad%20name!'],
    ['a name of 101 characters', 'n'.repeat(101)],
  ])('refuses %s', async (_what, name) => {
    const res = await rawPublish(name, manifest());
    expect(res.status).toBe(400);
    expect(res.text).toContain('params.integrationName');
  });

  it.each([['..'], ['.'], ['%2e%2e'], ['%2E']])('refuses the name %s', async (name) => {
    const res = await sendAsWritten('POST', `/v1/integrations/${name}`, manifest());
    expect(res.status).toBe(400);
    expect(res.text).toContain('params.integrationName');
  });

  // Each row: what is changed in acceptance test 1's body (undefined: left out), and the message.
  it.each<[string, Record<string, unknown>, string]>([
    ['no script', { script: undefined }, 'body.script is required'],
    ['an empty script', { script: '' }, 'body.script'],
    ['no scopes', { scopes: undefined }, 'body.scopes is required'],
    ['no organization', { organization: undefined }, 'body.organization is required'],
    ['no title', { title: undefined }, 'body.title is required'],
    ['no description', { description: undefined }, 'body.description is required'],
    ['a title of 1 character', { title: 'x' }, 'body.title'],
    ['a title of 31 characters', { title: 't'.repeat(31) }, 'body.title'],
    ['a description of 101 characters', { description: 'd'.repeat(101) }, 'body.description'],
    ['an unknown scope', { scopes: ['space:everything'] }, 'body.scopes.0'],
    ['an unknown category', { categories: ['gossip'] }, 'body.categories.0'],
    ['an unknown target', { target: 'planet' }, 'body.target'],
    ['an unknown visibility', { visibility: 'secret' }, 'body.visibility'],
    ['an unknown runtime', { runtime: 'v9' }, 'body.runtime'],
    ['4 preview images', { previewImages: [1, 2, 3, 4].map(() => b64(PNG)) }, 'body.previewImages'],
    ['base64 that does not decode', { icon: 'not base64 at all!' }, 'body.icon is not valid base64'],
    ['a preview image that does not decode', { previewImages: ['@@@@'] }, 'body.previewImages.0'],
    ['an icon over 512 KB', { icon: b64(big) }, 'body.icon must be at most 512 KB'],
    ['a preview image over 512 KB', { previewImages: [b64(big)] }, 'body.previewImages.0'],
    [
      '6 external links',
      { externalLinks: [1, 2, 3, 4, 5, 6].map((i) => ({ url: `https://x.example/${i}`, label: 'L' })) },
      'body.externalLinks',
    ],
    [
      'a link to a non-URI',
      { externalLinks: [{ url: 'not a url', label: 'L' }] },
      'body.externalLinks.0.url must match format',
    ],
    [
      'a link to a script URL',
      { externalLinks: [{ url: 'javascript:alert(1)', label: 'L' }] },
      'body.externalLinks.0.url must be an http',
    ],
    ['a block title of 1 character', { blocks: [block({ title: 'b' })] }, 'body.blocks.0.title'],
    ['a block title of 41 characters', { blocks: [block({ title: 'b'.repeat(41) })] }, 'body.blocks.0.title'],
    [
      'duplicate block ids',
      { blocks: [block(), block({ title: 'Other' })] },
      'body.blocks.1.id "b" is already the id of body.blocks.0',
    ],
    [
      'a block description of 151 characters',
      { blocks: [block({ description: 'd'.repeat(151) })] },
      'body.blocks.0.description',
    ],
    [
      'a configuration property of type date',
      properties('account', { when: { type: 'date' } }),
      'body.configurations.account.properties.when.type must be one of',
    ],
    [
      'required naming an unknown property',
      properties('space', { a: { type: 'string' } }, { required: ['a', 'b'] }),
      'body.configurations.space.required.1',
    ],
    [
      'a configuration with both a form and a component',
      properties('site', {}, { componentId: 'c' }),
      'body.configurations.site',
    ],
    [
      'a default of the wrong type',
      properties('account', { n: { type: 'number', default: 'three' } }),
      'body.configurations.account.properties.n.default',
    ],
    [
      'a button without its callback',
      properties('account', { go: { type: 'button', button_text: 'Go' } }),
      'body.configurations.account.properties.go.callback_url',
    ],
    ['a secret that is not a string', { secrets: { KEY: 42 } }, 'body.secrets.KEY must be string'],
    [
      'more than 50 secrets',
      { secrets: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`K${i}`, 'v'])) },
      'body.secrets must NOT have more than 20 properties',
    ],
    [
      'a CSP with an unknown directive',
      { contentSecurityPolicy: { 'script-src': "'self'", 'evil-src': '*' } },
      'body.contentSecurityPolicy',
    ],
    [
      'a CSP string with a line break',
      { contentSecurityPolicy: "default-src 'self'\nX-Evil: 1" },
      'body.contentSecurityPolicy',
    ],
    [
      'a CSP directive that starts another',
      { contentSecurityPolicy: { 'img-src': "'self'; script-src *" } },
      'body.contentSecurityPolicy.img-src',
    ],
    ['a script over 2 MB', { script: 'x'.repeat(2 * 1024 * 1024 + 1) }, 'body.script must be at most 2 MB'],
  ])('refuses %s', async (_what, changes, message) => {
    // Built here, not in the table: the organization exists only once the tests run.
    const res = await rawPublish(NAME, manifest(changes));
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining(message) } });
  });

  it('answers 404 for an unknown organization', async () => {
    const res = await rawPublish(NAME, manifest({ organization: 'nowhere' }));
    expect(res.status).toBe(404);
  });

  it('changed nothing through any of them', async () => {
    const { data } = await admin.api.integrations.getIntegrationByName(NAME);
    expect(data).toMatchObject({ version: 1, title: 'Conformance', visibility: 'public', previewImages: [] });
    expect(data.urls.icon).toBeUndefined();
    expect(await server.app.quire.services.integrations.secretsOf(NAME)).toEqual({ KEEP: 'me' });
    for (const name of ['bad name!', '..', '.']) {
      expect(await server.app.quire.services.integrations.scriptOf(name)).toBeUndefined();
    }
  });
});

describe('the official CLI (@gitbook/cli publish)', () => {
  it('publishes the fixture integration, bundled, to Quire; it lists and installs', async () => {
    const run = await gitbookPublish({
      manifest: path.join(HELLO, 'gitbook-manifest.yaml'),
      organization: orgId,
      token: admin.token,
      endpoint: server.url,
    });
    const { home } = run;
    try {
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('quire-hello');
      expect(run.stdout).toContain(`${server.url}/app/integrations/quire-hello`);

      const listed = (await admin.api.integrations.listIntegrations({ owner: orgId })).data.items;
      const hello = listed.find((item) => item.name === 'quire-hello');
      expect(hello).toMatchObject({
        version: 1,
        title: 'Hello from Quire',
        visibility: 'unlisted',
        scopes: ['space:content:read'],
        owner: { id: orgId },
      });
      const bundle = readFileSync(path.join(home, '.gitbook', 'quire-hello', 'script.js'), 'utf8');
      const stored = await server.app.quire.services.integrations.scriptOf('quire-hello');
      expect(stored).toEqual({ version: 1, script: bundle });
      // The bundle carries @gitbook/runtime and the handler: it was built, not sent as written.
      expect(bundle).not.toContain("from '@gitbook/runtime'");
      expect(bundle).toContain('space_content_updated');

      const { data } = await admin.api.integrations.installIntegration('quire-hello', {
        organization: orgId,
      });
      expect(data.target.organization).toBe(orgId);
    } finally {
      run.cleanup();
    }
  });
});
