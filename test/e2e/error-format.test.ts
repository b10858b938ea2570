import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Every non-2xx answer is `{"error": {"code": <status>, "message": "..."}}`, whatever went
 * wrong and however early: in the router (malformed or over-long URLs), in Node's HTTP parser
 * (unknown methods, oversized headers), in body parsing and in validation. No message repeats a
 * long piece of the request whole.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_BODY_LIMIT: '4096' } });
  token = server.admin.token;
});
afterAll(() => server.close());

const LONG = 'q'.repeat(101);

/** The error body, checked: the shape, the code, a message, and no long echo of the input. */
function expectError(status: number, body: unknown, expected: number, what: string): string {
  expect(status, what).toBe(expected);
  expect(body, what).toEqual({ error: { code: expected, message: expect.any(String) } });
  const message = (body as { error: { message: string } }).error.message;
  expect(message.length, what).toBeGreaterThan(0);
  expect(message.length, `${what}: ${message}`).toBeLessThanOrEqual(300);
  for (const letter of 'abcdefghijklmnopqrstuvwxyz')
    expect(message, `${what} echoes a long input`).not.toContain(letter.repeat(101));
  return message;
}

/** A request written byte for byte, for what fetch cannot send (unknown methods, huge headers). */
function sendRaw(requestText: string): Promise<{ status: number; body: unknown }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(requestText));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
    });
    socket.on('error', (error) => (data ? undefined : reject(error)));
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const text = rest.join('\r\n\r\n');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      resolve({ status, body });
    });
  });
}

const raw = (method: string, target: string, extra = '') =>
  sendRaw(
    `${method} ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n${extra}Connection: close\r\n\r\n`,
  );

describe('malformed and over-long URLs', () => {
  it.each([
    ['/v1/spaces/%'],
    ['/v1/spaces/%zz'],
    ['/v1/spaces/%C3%28'],
    ['/v1/spaces/%ff'],
    ['/v1/spaces/%E2%82'],
    ['/v1/orgs/%/spaces'],
    ['/%'],
    ['/sites/%zz/'],
    [`/v1/spaces/%zz${'z'.repeat(300)}`],
  ])('answers %s with 400', async (path) => {
    const res = await rawRequest(server.url, 'GET', path, { token });
    const message = expectError(res.status, res.body, 400, path);
    expect(message).toContain('Malformed URL');
  });

  it('answers a path parameter over its schema limit with 400 naming it', async () => {
    const res = await rawRequest(server.url, 'GET', `/v1/spaces/${'b'.repeat(300)}`, { token });
    expect(expectError(res.status, res.body, 400, 'long spaceId')).toContain('params.spaceId');
  });

  it.each([[`/v1/spaces/${'a'.repeat(600)}`], [`/v1/orgs/${'o'.repeat(5000)}/spaces`]])(
    'answers a path segment over the router limit with 414 (%#)',
    async (path) => {
      const res = await rawRequest(server.url, 'GET', path, { token });
      expect(expectError(res.status, res.body, 414, path.slice(0, 40))).toContain('URI too long');
    },
  );

  it('does not repeat a long parameter that reaches a handler whole', async () => {
    // 128 characters is within the schema's limit; the "not found" message quotes at most 100.
    const id = 'd'.repeat(128);
    const res = await rawRequest(server.url, 'GET', `/v1/spaces/${id}`, { token });
    expect(expectError(res.status, res.body, 404, 'long space id')).toContain('d'.repeat(100));
  });

  it('does not repeat a long wildcard path whole', async () => {
    const { orgId, api } = server.admin;
    const space = (await api.orgs.createSpace(orgId, { title: 'Paths' })).data.id;
    const res = await rawRequest(server.url, 'GET', `/v1/spaces/${space}/content/path/${'p'.repeat(1500)}`, {
      token,
    });
    expect(expectError(res.status, res.body, 404, 'long page path')).toContain('p'.repeat(100));
  });

  it('answers an unknown route with 404, quoting at most 100 characters of it', async () => {
    const res = await rawRequest(server.url, 'GET', `/v1/${'e'.repeat(400)}/x?token=secret`, { token });
    const message = expectError(res.status, res.body, 404, 'unknown route');
    expect(message).toContain('No route for GET /v1/eeee');
    expect(message).not.toContain('secret');
    const segment = await rawRequest(server.url, 'GET', `/v1/nope/${'c'.repeat(5000)}`, { token });
    expectError(segment.status, segment.body, 404, 'unknown route with a long segment');
  });

  it('answers a URL larger than the header limit with 431', async () => {
    const res = await raw('GET', `/v1/spaces/${'f'.repeat(20_000)}`);
    expectError(res.status, res.body, 431, 'huge URL');
  });
});

describe('unknown routes and methods', () => {
  it.each([
    ['GET', '/v1/no-such-thing'],
    ['GET', '/no-such-page'],
    ['PUT', '/v1/user'],
    ['DELETE', '/v1/user'],
    ['PATCH', '/healthz'],
    ['POST', '/v1/spaces/abc'],
  ])('%s %s answers 404', async (method, path) => {
    const res = await rawRequest(server.url, method, path, { token });
    expectError(res.status, res.body, 404, `${method} ${path}`);
  });

  it.each([['FOO'], ['GETT'], ['get']])('an unknown method %s answers 400', async (method) => {
    const res = await raw(method, '/v1/user');
    expectError(res.status, res.body, 400, method);
  });

  it('a malformed request line answers 400', async () => {
    const res = await sendRaw('GET /v1/user HTTP/9.9x\r\nHost: x\r\n\r\n');
    expectError(res.status, res.body, 400, 'bad request line');
  });
});

describe('bodies', () => {
  it.each([
    ['{"title": "Broken",', 'Malformed JSON'],
    ['{"title": 42}', 'body.title'],
    ['[1, 2]', 'body'],
    ['"just a string"', 'body'],
    ['null', 'body.title is required'],
    [`{"title": "ok", "emailDomains": "${LONG}"}`, 'body.emailDomains'],
  ])('answers %s with 400 naming the problem', async (body, wanted) => {
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', { token, body });
    expect(expectError(res.status, res.body, 400, body.slice(0, 40))).toContain(wanted);
  });

  it.each([
    ['text/plain', '{"title": "Plain"}'],
    ['application/x-www-form-urlencoded', 'title=Form'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/xml', '<title>x</title>'],
  ])('answers a %s body with 415', async (contentType, body) => {
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token,
      body,
      headers: { 'content-type': contentType },
    });
    expect(expectError(res.status, res.body, 415, contentType)).toContain('application/json');
  });

  it('answers an oversized body with 413', async () => {
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token,
      body: { title: 'x'.repeat(10_000) },
    });
    expectError(res.status, res.body, 413, 'oversized');
  });

  it('does not repeat a long body value that a service quotes', async () => {
    const { orgId, api } = server.admin;
    const space = (await api.orgs.createSpace(orgId, { title: 'Git' })).data.id;
    const res = await rawRequest(server.url, 'POST', `/v1/spaces/${space}/git/import`, {
      token,
      body: { url: 'https://93.184.215.14/repo.git', ref: `heads/${'r'.repeat(240)}` },
    });
    const message = expectError(res.status, res.body, 400, 'long ref');
    expect(message).toContain(`got "heads/${'r'.repeat(94)}…"`);
  });

  it('names an unknown property without repeating a long name whole', async () => {
    const res = await rawRequest(server.url, 'POST', `/v1/orgs/${server.admin.orgId}/link-invites`, {
      token,
      body: { role: 'read', [`${'g'.repeat(500)}`]: 1 },
    });
    const message = expectError(res.status, res.body, 400, 'long property name');
    expect(message).toContain(`body must not have the property "${'g'.repeat(100)}…"`);
  });
});

describe('queries and tokens', () => {
  it.each([
    [`/v1/orgs?limit=${'9'.repeat(400)}`, 'querystring.limit'],
    ['/v1/orgs?limit=0', 'querystring.limit'],
    [`/v1/orgs?page=${'h'.repeat(3000)}`, 'querystring.page'],
  ])('answers %# with 400 naming the parameter', async (path, field) => {
    const res = await rawRequest(server.url, 'GET', path, { token });
    expect(expectError(res.status, res.body, 400, field)).toContain(field);
  });

  it('answers a missing or malformed token with 401', async () => {
    const none = await rawRequest(server.url, 'GET', '/v1/user');
    expectError(none.status, none.body, 401, 'no token');
    const long = await rawRequest(server.url, 'GET', '/v1/user', {
      headers: { authorization: `Bearer ${'t'.repeat(3000)}` },
    });
    expectError(long.status, long.body, 401, 'long token');
  });
});
