import type { OpenAPISpecVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { PETSTORE_YAML, petstore, referring, SWAGGER_2 } from '../fixtures/openapi/petstore.js';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { freePort } from '../helpers/net.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SpecServer } from '../helpers/spec-server.js';

const HOUR = 60 * 60_000;
// The client types visibility as an enum of these strings.
const PUBLIC = 'public' as OpenAPISpecVisibility;
const PRIVATE = 'private' as OpenAPISpecVisibility;

let server: TestServer;
let specs: SpecServer;
/** Never in the allow list: any connection to it is a refusal that failed. */
let forbidden: SpecServer;
let closedPort: number;
let clock: ManualClock;
let admin: TestUser;
let orgId: string;
let reader: TestUser;
let creator: TestUser;
let outsider: TestUser;
let outsiderOrg: string;

beforeAll(async () => {
  specs = await SpecServer.start();
  forbidden = await SpecServer.start();
  closedPort = await freePort();
  clock = new ManualClock('2026-03-01T00:00:00.000Z');
  server = await startTestServer({
    clock,
    env: {
      QUIRE_OUTBOUND_ALLOW: `127.0.0.1:${specs.port},127.0.0.1:${closedPort}`,
      // Long enough for any loopback answer on a busy machine; FETCH_TIMEOUT's source never answers in it.
      QUIRE_OPENAPI_FETCH_TIMEOUT_MS: '3000',
    },
  });
  admin = await createUser(server, { name: 'Admin' });
  orgId = await createOrg(admin, 'API docs');
  reader = await createUser(server, { name: 'Reader' });
  creator = await createUser(server, { name: 'Creator' });
  outsider = await createUser(server, { name: 'Outsider' });
  await addMember(admin, orgId, reader, 'read');
  await addMember(admin, orgId, creator, 'create');
  outsiderOrg = await createOrg(outsider, 'Elsewhere');
});
afterAll(async () => {
  await server.close();
  await specs.close();
  await forbidden.close();
});

/** Runs the background work due now (the tests' server has no worker of its own). */
async function processJobs(): Promise<void> {
  await server.app.quire.services.jobs.runDue();
}

async function createText(slug: string, text: string) {
  const res = await admin.api.orgs.createOpenApiSpec(orgId, { slug, source: { text } });
  await processJobs();
  return res;
}

async function getSpec(slug: string) {
  return (await admin.api.orgs.getOpenApiSpecBySlug(orgId, slug)).data;
}

async function latestDocument(slug: string) {
  const { data } = await admin.api.orgs.getLatestOpenApiSpecVersionContent(orgId, slug);
  // biome-ignore lint/suspicious/noExplicitAny: the filesystem is free-form JSON
  return (data.filesystem as any)[0].specification;
}

describe('OpenAPI specifications', () => {
  it('processes a JSON text in the background into a version with a bundled document', async () => {
    const text = JSON.stringify(petstore());
    const res = await admin.api.orgs.createOpenApiSpec(orgId, { slug: 'petstore', source: { text } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.data.urls.location);
    expect(res.data).toMatchObject({
      object: 'openapi-spec',
      slug: 'petstore',
      processingState: 'pending',
      visibility: 'private',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
    });
    expect(res.data.sourceURL).toBeUndefined();
    expect(res.data.lastVersion).toBeUndefined();
    expect((await failure(admin.api.orgs.getLatestOpenApiSpecVersion(orgId, 'petstore'))).code).toBe(404);

    await processJobs();
    const spec = await getSpec('petstore');
    expect(spec).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastProcessedErrors).toEqual([]);
    expect(spec.lastProcessedAt).toBe(clock.now().toISOString());
    expect(spec.lastVersion).toBeTruthy();

    const versions = (await admin.api.orgs.listOpenApiSpecVersions(orgId, 'petstore')).data;
    expect(versions.items.map((v) => v.id)).toEqual([spec.lastVersion]);
    const latest = (await admin.api.orgs.getLatestOpenApiSpecVersion(orgId, 'petstore')).data;
    expect(latest).toMatchObject({ object: 'openapi-spec-version', id: spec.lastVersion });
    const byId = (await admin.api.orgs.getOpenApiSpecVersionById(orgId, 'petstore', latest.id)).data;
    expect(byId).toEqual(latest);

    const { data: content } = await admin.api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'petstore');
    // biome-ignore lint/suspicious/noExplicitAny: the filesystem is free-form JSON
    const entry = (content.filesystem as any)[0];
    expect(entry).toMatchObject({ dir: '.', isEntrypoint: true, filename: 'openapi.json' });
    expect(entry.specification.paths['/pets'].get.summary).toBe('List all pets');
    // Bundled, not dereferenced: local refs are kept.
    expect(
      entry.specification.paths['/pets/{id}'].get.responses['200'].content['application/json'].schema,
    ).toEqual({ $ref: '#/components/schemas/Pet' });
    expect(content.urls).toEqual({ source: latest.url, public: null });
    const byIdContent = await admin.api.orgs.getOpenApiSpecVersionContentById(orgId, 'petstore', latest.id);
    expect(byIdContent.data).toEqual(content);
    // 0.146's shape of the same content: `url`.
    const old = await apiClient146(server.url, admin.token).orgs.getLatestOpenApiSpecVersionContent(
      orgId,
      'petstore',
    );
    expect(old.data.url).toBe(latest.url);

    const raw = (await admin.api.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'petstore')).data;
    expect(raw).toEqual({ text, format: 'json' });
    // A version's `url` is its raw content.
    const viaUrl = await rawRequest(server.url, 'GET', new URL(latest.url).pathname, { token: admin.token });
    expect(viaUrl.body).toEqual(raw);
  });

  it('reads YAML, and upgrades OpenAPI 3.0 and Swagger 2.0 to 3.1', async () => {
    await createText('yaml-pets', PETSTORE_YAML);
    const yaml = await latestDocument('yaml-pets');
    expect(yaml.openapi).toMatch(/^3\.1\./);
    expect(yaml.components.schemas.Pet.type).toEqual(['object', 'null']);
    const raw = (await admin.api.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'yaml-pets')).data;
    expect(raw).toEqual({ text: PETSTORE_YAML, format: 'yaml' });

    await createText('swagger', SWAGGER_2);
    expect((await getSpec('swagger')).processingState).toBe('complete');
    const upgraded = await latestDocument('swagger');
    expect(upgraded.openapi).toMatch(/^3\.1\./);
    expect(upgraded.swagger).toBeUndefined();
    expect(upgraded.components.schemas.Pet.properties.name.type).toBe('string');
    expect(upgraded.paths['/pets'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Pet',
    });
    expect(upgraded.servers).toEqual([{ url: 'https://api.example.com/v1' }]);
  });

  it('creates a spec from a URL with PUT (201), then updates it (200), versioning only changed content', async () => {
    specs.routes.set('/put/openapi.json', JSON.stringify(petstore('1')));
    const url = specs.url('/put/openapi.json');
    const created = await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'from-url', {
      source: { url },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.data.urls.location);
    expect(created.data).toMatchObject({ slug: 'from-url', sourceURL: url, processingState: 'pending' });
    await processJobs();
    const first = await getSpec('from-url');
    expect(first.processingState).toBe('complete');

    const same = await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'from-url', { source: { url } });
    expect(same.status).toBe(200);
    expect(same.data.processingState).toBe('pending');
    await processJobs();
    expect((await getSpec('from-url')).lastVersion).toBe(first.lastVersion);
    expect((await admin.api.orgs.listOpenApiSpecVersions(orgId, 'from-url')).data.count).toBe(1);

    specs.routes.set('/put/openapi.json', JSON.stringify(petstore('2')));
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'from-url', { source: { url } });
    await processJobs();
    const second = await getSpec('from-url');
    expect(second.lastVersion).not.toBe(first.lastVersion);
    const versions = (await admin.api.orgs.listOpenApiSpecVersions(orgId, 'from-url')).data;
    expect(versions.items.map((v) => v.id)).toEqual([second.lastVersion, first.lastVersion]);
    const content = (await admin.api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'from-url')).data;
    expect(content.urls.source).toBe(url);
    expect(
      ((content.filesystem as never)[0] as { specification: { info: unknown } }).specification.info,
    ).toEqual({
      title: 'Petstore',
      version: '2',
    });

    // Back to a text source: the URL goes.
    const text = await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'from-url', {
      source: { text: JSON.stringify(petstore('2')) },
    });
    expect(text.data.sourceURL).toBeUndefined();
    await processJobs();
    expect((await getSpec('from-url')).lastVersion).toBe(second.lastVersion);
  });

  it('keeps one version for the same text twice and lists newer versions first', async () => {
    const text = JSON.stringify(petstore('a'));
    await createText('twice', text);
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'twice', { source: { text } });
    await processJobs();
    // Formatting alone is not a change of content.
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'twice', {
      source: { text: JSON.stringify(petstore('a'), null, 2) },
    });
    await processJobs();
    expect((await admin.api.orgs.listOpenApiSpecVersions(orgId, 'twice')).data.count).toBe(1);
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'twice', {
      source: { text: JSON.stringify(petstore('b')) },
    });
    await processJobs();
    const { data } = await admin.api.orgs.listOpenApiSpecVersions(orgId, 'twice');
    expect(data.count).toBe(2);
    const latest = (await admin.api.orgs.getLatestOpenApiSpecVersion(orgId, 'twice')).data;
    expect(data.items[0]!.id).toBe(latest.id);
    expect((await getSpec('twice')).lastVersion).toBe(latest.id);
    const page = (await admin.api.orgs.listOpenApiSpecVersions(orgId, 'twice', { limit: 1 })).data;
    expect(page.items.map((v) => v.id)).toEqual([latest.id]);
    const next = (
      await admin.api.orgs.listOpenApiSpecVersions(orgId, 'twice', { limit: 1, page: page.next!.page })
    ).data;
    expect(next.items.map((v) => v.id)).toEqual([data.items[1]!.id]);
    expect(next.next).toBeUndefined();
  });

  it('runs one processing for a burst of updates, on the newest source', async () => {
    await admin.api.orgs.createOpenApiSpec(orgId, {
      slug: 'burst',
      source: { text: JSON.stringify(petstore('1')) },
    });
    for (const version of ['2', '3', '4']) {
      await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'burst', {
        source: { text: JSON.stringify(petstore(version)) },
      });
    }
    await processJobs();
    expect((await admin.api.orgs.listOpenApiSpecVersions(orgId, 'burst')).data.count).toBe(1);
    expect((await latestDocument('burst')).info.version).toBe('4');
  });
});

describe('processing failures', () => {
  const failing = async (slug: string, route: Parameters<SpecServer['routes']['set']>[1] | null) => {
    const path = `/fail/${slug}.json`;
    specs.routes.set(path, JSON.stringify(petstore('good')));
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, slug, { source: { url: specs.url(path) } });
    await processJobs();
    const good = await getSpec(slug);
    expect(good.lastVersion).toBeTruthy();
    if (route === null) specs.routes.delete(path);
    else specs.routes.set(path, route);
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, slug, { source: { url: specs.url(path) } });
    await processJobs();
    const spec = await getSpec(slug);
    // The last good version stays, and pages keep rendering it.
    expect(spec.processingState).toBe('complete');
    expect(spec.lastVersion).toBe(good.lastVersion);
    expect((await latestDocument(slug)).info.version).toBe('good');
    return spec;
  };

  it('FETCH_TIMEOUT when the source does not answer in time', async () => {
    const spec = await failing('slow', { body: '{}', delayMs: 60_000 });
    expect(spec.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(spec.lastProcessedErrors).toEqual([
      { code: 'FETCH_TIMEOUT', message: expect.stringContaining('did not answer within 3000 ms') },
    ]);
    expect(spec.lastProcessedErrorCount).toBe(1);
  });

  it('FETCH_ERROR for an error status, a refused connection and a refused address', async () => {
    expect((await failing('status', { status: 500, body: 'oops' })).lastProcessErrorCode).toBe('FETCH_ERROR');
    expect((await failing('gone', null)).lastProcessedErrors![0]!.message).toMatch(/HTTP 404/);

    for (const url of [`http://127.0.0.1:${closedPort}/x.json`, forbidden.url('/x.json')]) {
      await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'unreachable', { source: { url } });
      await processJobs();
      expect((await getSpec('unreachable')).lastProcessErrorCode).toBe('FETCH_ERROR');
    }
    expect((await getSpec('unreachable')).lastProcessedErrors![0]!.message).toMatch(/QUIRE_OUTBOUND_ALLOW/);
    expect(forbidden.connections).toBe(0);
  });

  it('PARSE_ERROR for text that is not JSON or YAML, and for an unsupported version', async () => {
    expect((await failing('broken', 'not: [valid')).lastProcessErrorCode).toBe('PARSE_ERROR');
    const nine = await failing('nine', '{"openapi":"9.0"}');
    expect(nine.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(nine.lastProcessedErrors![0]!.message).toMatch(/openapi: "9\.0"/);
    await createText('no-version', '{"info":{"title":"x"}}');
    expect((await getSpec('no-version')).lastProcessErrorCode).toBe('PARSE_ERROR');
    expect((await getSpec('no-version')).lastVersion).toBeUndefined();
  });

  it('keeps an invalid document as a version and lists its problems', async () => {
    const spec = petstore();
    (
      spec.paths['/pets'].get.responses['200'].content['application/json'].schema.items as { $ref: string }
    ).$ref = '#/components/schemas/Nope';
    await createText('broken-ref', JSON.stringify(spec));
    const result = await getSpec('broken-ref');
    expect(result.lastProcessErrorCode).toBeUndefined();
    expect(result.lastVersion).toBeTruthy();
    expect(result.lastProcessedErrors![0]).toEqual({
      code: 'INVALID_REFERENCE',
      message: expect.stringContaining('#/components/schemas/Nope'),
    });

    // Schema errors: at most 100 listed, all of them counted.
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 130; i++) paths[`/p${i}`] = { get: { responses: { '200': { content: {} } } } };
    await createText(
      'many-errors',
      JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths }),
    );
    const many = await getSpec('many-errors');
    expect(many.lastProcessedErrors).toHaveLength(100);
    expect(many.lastProcessedErrorCount).toBeGreaterThanOrEqual(130);
    // Each names where it is, as a JSON pointer.
    expect(many.lastProcessedErrors!.every((e) => /^\/paths\/~1p\d+: /.test(e.message))).toBe(true);
  });

  it('bounds a YAML alias bomb', async () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    await createText('bomb', `openapi: 3.1.0\n${levels.join('\n')}\n`);
    const spec = await getSpec('bomb');
    expect(spec.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(spec.lastProcessedErrors![0]!.message).toMatch(/alias/i);
  });
});

describe('external references', () => {
  it('bundles files the spec refers to, relative to its URL, keeping internal refs', async () => {
    specs.routes.set(
      '/split/openapi.yaml',
      `openapi: 3.1.0
info: {title: Split, version: '1'}
paths:
  /pets:
    $ref: './paths/pets.yaml'
components:
  schemas:
    Error: {type: object}
`,
    );
    specs.routes.set(
      '/split/paths/pets.yaml',
      `get:
  responses:
    '200':
      description: Pets
      content:
        application/json:
          schema: {$ref: '../schemas/pet.json#/Pet'}
`,
    );
    specs.routes.set(
      '/split/schemas/pet.json',
      JSON.stringify({
        Pet: { type: 'object', properties: { tag: { $ref: '#/Tag' } } },
        Tag: { type: 'string' },
      }),
    );
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'split', {
      source: { url: specs.url('/split/openapi.yaml') },
    });
    await processJobs();
    const spec = await getSpec('split');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastProcessedErrors).toEqual([]);
    const document = await latestDocument('split');
    const pets = document.paths['/pets'].$ref as string;
    expect(pets).toMatch(/^#\/x-ext\/[^/]+$/);
    const schemaRef = document['x-ext'][pets.split('/')[2]!].get.responses['200'].content['application/json']
      .schema.$ref as string;
    const [, , key, name] = schemaRef.split('/');
    const petFile = document['x-ext'][key!];
    expect(name).toBe('Pet');
    expect(petFile.Pet.properties.tag.$ref).toBe(`#/x-ext/${key}/Tag`);
    expect(document.components.schemas.Error).toEqual({ type: 'object' });
    // The public copy of a spec that pulled in other files is the bundled document.
    await admin.api.orgs.updateOpenApiSpecBySlug(orgId, 'split', { visibility: PUBLIC });
    const published = await fetch(spec.urls.published ?? `${server.url}/openapi/o/${orgId}/split`);
    expect(published.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await published.json()) as { 'x-ext': unknown })['x-ext']).toBeTruthy();
  });

  it('refuses refs to private addresses, local files and endless chains without connecting', async () => {
    specs.routes.set('/chain/*', (request, response) => {
      const n = Number(/(\d+)\.json$/.exec(request.url ?? '')?.[1] ?? 0);
      response.end(JSON.stringify({ Link: { $ref: `${n + 1}.json#/Link` } }));
    });
    specs.routes.set(
      '/ssrf/openapi.json',
      JSON.stringify(
        referring(
          forbidden.url('/secret.json#/X'),
          'http://169.254.169.254/latest/meta-data/iam#/X',
          'file:///etc/passwd',
          '../../../../etc/passwd#/X',
          '/chain/1.json#/Link',
        ),
      ),
    );
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'ssrf', {
      source: { url: specs.url('/ssrf/openapi.json') },
    });
    await processJobs();
    const spec = await getSpec('ssrf');
    expect(spec.processingState).toBe('complete');
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastVersion).toBeTruthy();
    const messages = spec.lastProcessedErrors!.map((e) => e.message);
    expect(
      messages.some((m) => m.includes(`127.0.0.1:${forbidden.port}`) && /QUIRE_OUTBOUND_ALLOW/.test(m)),
    ).toBe(true);
    expect(messages.some((m) => m.includes('169.254.169.254') && /link-local/.test(m))).toBe(true);
    expect(messages.some((m) => m.includes('file:///etc/passwd') && /only http/.test(m))).toBe(true);
    expect(messages.some((m) => /more than 50 other files/.test(m))).toBe(true);
    expect(spec.lastProcessedErrors!.every((e) => e.code === 'EXTERNAL_REFERENCE_NOT_FOUND')).toBe(true);
    expect(forbidden.connections).toBe(0);
    // The chain stopped at the bound: 50 files at most were fetched, the traversal one included.
    expect(specs.seen('/chain/')).toBeLessThanOrEqual(50);
    expect(specs.seen('/etc/passwd')).toBe(1);
    // A ref that could not be followed is kept as the author wrote it.
    const document = await latestDocument('ssrf');
    expect(document.paths['/op2'].get.responses['200'].content['application/json'].schema.$ref).toBe(
      'file:///etc/passwd',
    );
    expect(JSON.stringify(document)).not.toContain('root:');
  });

  it('follows only absolute http(s) refs from a text source', async () => {
    specs.routes.set('/shared/pet.json', JSON.stringify({ Pet: { type: 'object' } }));
    await createText(
      'text-refs',
      JSON.stringify(referring(specs.url('/shared/pet.json#/Pet'), './pet.json#/Pet')),
    );
    const spec = await getSpec('text-refs');
    expect(spec.lastProcessedErrors).toEqual([
      {
        code: 'EXTERNAL_REFERENCE_NOT_FOUND',
        message: expect.stringMatching(/absolute http\(s\) URL/),
      },
    ]);
    const document = await latestDocument('text-refs');
    expect(document.paths['/op0'].get.responses['200'].content['application/json'].schema.$ref).toMatch(
      /^#\/x-ext\//,
    );
  });
});

describe('refresh', () => {
  it('fetches URL sources again on the schedule, versioning only changed content', async () => {
    specs.routes.set('/refresh/openapi.json', JSON.stringify(petstore('r1')));
    await admin.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'refreshed', {
      source: { url: specs.url('/refresh/openapi.json') },
    });
    await processJobs();
    const first = await getSpec('refreshed');
    const { jobs } = server.app.quire.services;
    // The schedule starts on the first look; its next run is the refresh interval later.
    await jobs.enqueueDueSchedules();
    await processJobs();
    const fetches = specs.seen('/refresh/');

    clock.advance(6 * HOUR);
    expect(await jobs.enqueueDueSchedules()).toBeGreaterThan(0);
    await processJobs();
    expect(specs.seen('/refresh/')).toBeGreaterThan(fetches);
    const unchanged = await getSpec('refreshed');
    expect(unchanged.lastVersion).toBe(first.lastVersion);
    expect(unchanged.lastProcessedAt).toBe(clock.now().toISOString());

    specs.routes.set('/refresh/openapi.json', JSON.stringify(petstore('r2')));
    clock.advance(6 * HOUR);
    await jobs.enqueueDueSchedules();
    await processJobs();
    const changed = await getSpec('refreshed');
    expect(changed.lastVersion).not.toBe(first.lastVersion);
    expect((await latestDocument('refreshed')).info.version).toBe('r2');
  });
});

describe('public specs', () => {
  it('serves a public spec without a token, with CORS, and 404 while private', async () => {
    const text = JSON.stringify(petstore('public'));
    await createText('shared', text);
    const publicUrl = `${server.url}/openapi/o/${orgId}/shared`;
    expect((await fetch(publicUrl)).status).toBe(404);

    const { data } = await admin.api.orgs.updateOpenApiSpecBySlug(orgId, 'shared', { visibility: PUBLIC });
    expect(data).toMatchObject({ visibility: 'public', urls: { published: publicUrl } });
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe(text);
    const etag = res.headers.get('etag')!;
    expect((await fetch(publicUrl, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Slugs are case-insensitive.
    expect((await fetch(`${server.url}/openapi/o/${orgId}/SHARED`)).status).toBe(200);
    const content = (await admin.api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'shared')).data;
    expect(content.urls.public).toBe(publicUrl);

    await createText('shared-yaml', PETSTORE_YAML);
    await admin.api.orgs.updateOpenApiSpecBySlug(orgId, 'shared-yaml', { visibility: PUBLIC });
    const yaml = await fetch(`${server.url}/openapi/o/${orgId}/shared-yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await yaml.text()).toBe(PETSTORE_YAML);

    const back = await admin.api.orgs.updateOpenApiSpecBySlug(orgId, 'shared', { visibility: PRIVATE });
    expect(back.data.urls.published).toBeUndefined();
    const hidden = await fetch(publicUrl, { headers: { origin: 'https://docs.example.com' } });
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await hidden.json()) as { error: { code: number } }).error.code).toBe(404);
    expect(
      (await admin.api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'shared')).data.urls.public,
    ).toBeNull();
    expect((await fetch(`${server.url}/openapi/o/${orgId}/missing`)).status).toBe(404);
    expect((await fetch(`${server.url}/openapi/o/${outsiderOrg}/shared`)).status).toBe(404);
  });
});

describe('what the published site reads', () => {
  it('answers the latest document, a version document, and a legacy source processed and cached', async () => {
    const { openapi } = server.app.quire.services;
    await createText('for-site', JSON.stringify(petstore('site')));
    const document = await openapi.latestDocument(orgId, 'For-Site');
    expect(document?.info).toEqual({ title: 'Petstore', version: 'site' });
    expect(await openapi.latestDocument(orgId, 'missing')).toBeUndefined();
    expect(await openapi.latestDocument(outsiderOrg, 'for-site')).toBeUndefined();
    const version = (await getSpec('for-site')).lastVersion!;
    expect(await openapi.versionDocument(version)).toBe(document);

    const text = await openapi.processedSource({ kind: 'text', text: SWAGGER_2, key: 'file-1' });
    expect(text?.openapi).toMatch(/^3\.1\./);
    expect(
      await openapi.processedSource({ kind: 'text', text: 'not: [valid', key: 'file-2' }),
    ).toBeUndefined();

    specs.routes.set('/legacy/spec.yaml', PETSTORE_YAML);
    const before = specs.seen('/legacy/');
    const fromUrl = await openapi.processedSource({ kind: 'url', url: specs.url('/legacy/spec.yaml') });
    expect(fromUrl?.paths).toHaveProperty(['/pets']);
    expect(await openapi.processedSource({ kind: 'url', url: specs.url('/legacy/spec.yaml') })).toBe(fromUrl);
    expect(specs.seen('/legacy/')).toBe(before + 1);
    expect(await openapi.processedSource({ kind: 'url', url: forbidden.url('/spec.json') })).toBeUndefined();
    expect(forbidden.connections).toBe(0);

    await admin.api.orgs.updateOpenApiSpecBySlug(orgId, 'for-site', { visibility: PUBLIC });
    expect(await openapi.publicUrl(orgId, 'for-site')).toBe(`${server.url}/openapi/o/${orgId}/for-site`);
  });
});

describe('lists, deletion, tenancy and roles', () => {
  it('lists the specs of the organization by slug, a page at a time', async () => {
    const all = (await admin.api.orgs.listOpenApiSpecs(orgId)).data;
    const slugs = all.items.map((s) => s.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(all.count).toBe(slugs.length);
    const first = (await admin.api.orgs.listOpenApiSpecs(orgId, { limit: 2 })).data;
    const second = (await admin.api.orgs.listOpenApiSpecs(orgId, { limit: 2, page: first.next!.page })).data;
    expect([...first.items, ...second.items].map((s) => s.slug)).toEqual(slugs.slice(0, 4));
    expect((await outsider.api.orgs.listOpenApiSpecs(outsiderOrg)).data.items).toEqual([]);
  });

  it('deletes a spec and its versions, 204 twice', async () => {
    await createText('doomed', JSON.stringify(petstore()));
    const version = (await getSpec('doomed')).lastVersion!;
    expect((await admin.api.orgs.deleteOpenApiSpecBySlug(orgId, 'doomed')).status).toBe(204);
    expect((await admin.api.orgs.deleteOpenApiSpecBySlug(orgId, 'doomed')).status).toBe(204);
    expect((await failure(admin.api.orgs.getOpenApiSpecBySlug(orgId, 'doomed'))).code).toBe(404);
    expect((await failure(admin.api.orgs.listOpenApiSpecVersions(orgId, 'doomed'))).code).toBe(404);
    expect((await failure(admin.api.orgs.getOpenApiSpecVersionById(orgId, 'doomed', version))).code).toBe(
      404,
    );
    expect((await admin.api.orgs.listOpenApiSpecs(orgId)).data.items.map((s) => s.slug)).not.toContain(
      'doomed',
    );
    expect(await server.app.quire.services.openapi.latestDocument(orgId, 'doomed')).toBeUndefined();
    // The slug is free again.
    expect(
      (await admin.api.orgs.createOpenApiSpec(orgId, { slug: 'doomed', source: { text: '{}' } })).status,
    ).toBe(201);
  });

  it('answers 404 to non-members on every operation, and 403 to members without the create role', async () => {
    await createText('guarded', JSON.stringify(petstore()));
    const version = (await getSpec('guarded')).lastVersion!;
    const text = JSON.stringify(petstore());
    // Thunks: each call starts when the test awaits it.
    const calls = (api: TestUser['api']) => [
      () => api.orgs.listOpenApiSpecs(orgId),
      () => api.orgs.createOpenApiSpec(orgId, { slug: 'intruder', source: { text } }),
      () => api.orgs.getOpenApiSpecBySlug(orgId, 'guarded'),
      () => api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'guarded', { source: { text } }),
      () => api.orgs.updateOpenApiSpecBySlug(orgId, 'guarded', { visibility: PUBLIC }),
      () => api.orgs.deleteOpenApiSpecBySlug(orgId, 'guarded'),
      () => api.orgs.listOpenApiSpecVersions(orgId, 'guarded'),
      () => api.orgs.getLatestOpenApiSpecVersion(orgId, 'guarded'),
      () => api.orgs.getOpenApiSpecVersionById(orgId, 'guarded', version),
      () => api.orgs.getLatestOpenApiSpecVersionContent(orgId, 'guarded'),
      () => api.orgs.getOpenApiSpecVersionContentById(orgId, 'guarded', version),
      () => api.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'guarded'),
    ];
    for (const call of calls(outsider.api)) expect((await failure(call())).code).toBe(404);

    const [, create, , put, patch, del, ...reads] = calls(reader.api);
    const listed = (await reader.api.orgs.listOpenApiSpecs(orgId)).data.items;
    expect(listed.find((s) => s.slug === 'guarded')?.permissions).toEqual({ view: true, edit: false });
    const denied = await failure(create!());
    expect(denied.code).toBe(403);
    expect(denied.message).toMatch(/create role/);
    expect((await reader.api.orgs.getOpenApiSpecBySlug(orgId, 'guarded')).data.permissions).toEqual({
      view: true,
      edit: false,
    });
    expect((await failure(put!())).code).toBe(403);
    expect((await failure(patch!())).code).toBe(403);
    expect((await failure(del!())).code).toBe(403);
    for (const read of reads) expect((await read()).status).toBe(200);

    const made = await creator.api.orgs.createOpenApiSpec(orgId, { slug: 'by-creator', source: { text } });
    expect(made.data.permissions).toEqual({ view: true, edit: true });
    expect((await creator.api.orgs.deleteOpenApiSpecBySlug(orgId, 'by-creator')).status).toBe(204);
    expect((await admin.api.orgs.getOrganizationById(orgId)).data.permissions.createOpenAPISpec).toBe(true);
    expect((await reader.api.orgs.getOrganizationById(orgId)).data.permissions.createOpenAPISpec).toBe(false);
  });
});

describe('bad input', () => {
  const post = (body: unknown) =>
    rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/openapi`, { token: admin.token, body: body as object });
  const text = JSON.stringify(petstore());

  it.each([
    [{ source: { text } }, 'body.slug is required'],
    [{ slug: '', source: { text } }, 'body.slug'],
    [{ slug: 'a'.repeat(101), source: { text } }, 'body.slug must NOT have more than 100 characters'],
    [{ slug: 'Bad Slug!', source: { text } }, 'body.slug must match pattern'],
    [{ slug: '-a', source: { text } }, 'body.slug must match pattern'],
    [{ slug: 'a-', source: { text } }, 'body.slug must match pattern'],
    [{ slug: 'a--b', source: { text } }, 'body.slug must match pattern'],
    [{ slug: 'no-source' }, 'body.source is required'],
    [{ slug: 'empty-source', source: {} }, 'body.source must have url'],
    [{ slug: 'both', source: { text, url: 'https://example.com/openapi.json' } }, 'not both'],
    [{ slug: 'empty-text', source: { text: '' } }, 'body.source.text must NOT have fewer than 1 characters'],
    [{ slug: 'number-text', source: { text: 42 } }, 'body.source.text must be string'],
    [
      { slug: 'ftp', source: { url: 'ftp://example.com/openapi.json' } },
      'body.source.url must be an absolute http',
    ],
    [{ slug: 'file', source: { url: 'file:///etc/passwd' } }, 'body.source.url must be an absolute http'],
    [{ slug: 'js', source: { url: 'javascript:alert(1)' } }, 'body.source.url must be an absolute http'],
    [{ slug: 'relative', source: { url: '/openapi.json' } }, 'body.source.url must match format "uri"'],
    [
      { slug: 'long', source: { url: `https://example.com/${'a'.repeat(2048)}` } },
      'body.source.url must NOT have more than 2048 characters',
    ],
  ])('POST with bad body %# -> 400 naming the field', async (body, message) => {
    const before = (await admin.api.orgs.listOpenApiSpecs(orgId)).data.count;
    const res = await post(body);
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toContain(message);
    expect((await admin.api.orgs.listOpenApiSpecs(orgId)).data.count).toBe(before);
  });

  it('answers 409 for a slug taken (in any case), and 413 for a text over the body limit', async () => {
    await admin.api.orgs.createOpenApiSpec(orgId, { slug: 'taken', source: { text } });
    for (const slug of ['taken', 'TAKEN']) {
      const res = await post({ slug, source: { text } });
      expect(res.status).toBe(409);
      expect((res.body as { error: { message: string } }).error.message).toMatch(/already exists/);
    }
    const huge = await post({ slug: 'huge', source: { text: 'x'.repeat(server.config.bodyLimit + 1) } });
    expect(huge.status).toBe(413);
    expect((await failure(admin.api.orgs.getOpenApiSpecBySlug(orgId, 'huge'))).code).toBe(404);
  });

  it('checks PUT and PATCH bodies and the slug in the path', async () => {
    const put = (slug: string, body: unknown) =>
      rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/openapi/${slug}`, {
        token: admin.token,
        body: body as object,
      });
    expect((await put('fine', {})).status).toBe(400);
    expect((await put('fine', { source: { url: 'ftp://x.example/a' } })).status).toBe(400);
    const badSlug = await put('a--b', { source: { text } });
    expect(badSlug.status).toBe(400);
    expect((badSlug.body as { error: { message: string } }).error.message).toMatch(/params\.specSlug/);
    expect((await failure(admin.api.orgs.getOpenApiSpecBySlug(orgId, 'fine'))).code).toBe(404);

    const patch = (body: unknown) =>
      rawRequest(server.url, 'PATCH', `/v1/orgs/${orgId}/openapi/taken`, {
        token: admin.token,
        body: body as object,
      });
    const missing = await patch({});
    expect(missing.status).toBe(400);
    expect((missing.body as { error: { message: string } }).error.message).toContain(
      'body.visibility is required',
    );
    const secret = await patch({ visibility: 'secret' });
    expect((secret.body as { error: { message: string } }).error.message).toContain(
      'body.visibility must be one of: "private", "public"',
    );
    expect((await getSpec('taken')).visibility).toBe('private');
    // Unknown fields are ignored.
    expect((await patch({ visibility: 'public', colour: 'blue' })).status).toBe(200);

    for (const slug of ['Bad%20Slug!', '-a', 'a--b', 'a'.repeat(101)]) {
      const res = await rawRequest(server.url, 'GET', `/v1/orgs/${orgId}/openapi/${slug}`, {
        token: admin.token,
      });
      expect(res.status).toBe(404);
    }
    const wrongVersion = await failure(admin.api.orgs.getOpenApiSpecVersionById(orgId, 'taken', 'nope'));
    expect(wrongVersion.code).toBe(404);
  });

  it('accepts upper-case slugs (0.202 and API.md; 0.146 allows lower case only)', async () => {
    const res = await fetch(`${server.url}/v1/orgs/${orgId}/openapi`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'PetStore-V2', source: { text } }),
    });
    expect(res.status).toBe(201);
    const { checkResponse } = await import('../helpers/official-spec.js');
    const body = await res.json();
    const { problems } = checkResponse('POST', `/orgs/${orgId}/openapi`, 201, body);
    expect(problems.filter((p) => p.version === '0.202')).toEqual([]);
    expect((body as { slug: string }).slug).toBe('PetStore-V2');
  });
});
