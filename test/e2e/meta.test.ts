import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('meta endpoints', () => {
  it('answers /healthz without a token', async () => {
    const res = await rawRequest(server.url, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'sqlite' });
  });

  it('gives API information through the official client', async () => {
    const { data } = await server.admin.api.getApiInformation();
    expect(data.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Number.isNaN(Date.parse(data.build))).toBe(false);
  });

  it('answers unknown routes with a 404 in the error shape', async () => {
    const res = await rawRequest(server.url, 'GET', '/v1/nothing/here', { token: server.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.stringContaining('/v1/nothing/here') } });
    const outside = await rawRequest(server.url, 'DELETE', '/nowhere');
    expect(outside.status).toBe(404);
    expect((outside.body as { error: { code: number } }).error.code).toBe(404);
  });

  it('serves its own OpenAPI document generated from the routes', async () => {
    const res = await rawRequest(server.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/orgs/{organizationId}']?.get?.operationId).toBe('getOrganizationById');
    expect(doc.paths['/v1/orgs/{organizationId}/members']?.get?.operationId).toBe(
      'listMembersInOrganizationById',
    );
  });

  it('serves a readable API reference at /docs', async () => {
    const res = await fetch(`${server.url}/docs/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('swagger');
  });
});
