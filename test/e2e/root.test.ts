import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the root URL', () => {
  it('sends a browser to the signed-in landing, which asks for sign-in', async () => {
    const res = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT }, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app');
    expect(res.headers.get('vary')).toContain('Accept');

    const followed = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toContain('text/html');
    expect(new URL(followed.url).pathname).toBe('/login');
  });

  it('tells an API client where the API and its reference are', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await rawRequest(server.url, 'GET', '/', accept ? { headers: { accept } } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({
        name: 'Quire',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        message: expect.stringContaining('/v1'),
        api: `${server.config.publicUrl}/v1/`,
        docs: `${server.config.publicUrl}/docs`,
        openapi: `${server.config.publicUrl}/openapi.json`,
      });
    }
    const api = await rawRequest(server.url, 'GET', '/v1/');
    expect(api.status).toBe(200);
  });

  it('keeps the error shape for paths that do not exist', async () => {
    const res = await rawRequest(server.url, 'GET', '/nothing-here', { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.stringContaining('/nothing-here') } });
    const post = await rawRequest(server.url, 'POST', '/');
    expect(post.status).toBe(404);
    expect((post.body as { error: { code: number } }).error.code).toBe(404);
  });
});
