import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { apiClient, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_BODY_LIMIT: '4096' } });
  user = await createUser(server);
});
afterAll(() => server.close());

describe('authentication', () => {
  it('refuses a missing, malformed or unknown token with 401', async () => {
    const missing = await rawRequest(server.url, 'GET', '/v1/user');
    expect(missing.status).toBe(401);
    expect((missing.body as { error: { message: string } }).error.message).toContain('Bearer');
    const malformed = await rawRequest(server.url, 'GET', '/v1/user', {
      headers: { authorization: 'Token abc' },
    });
    expect(malformed.status).toBe(401);
    expect(malformed.text).toContain('Malformed');
    const unknown = await failure(
      apiClient(server.url, 'quire_not-a-real-token').user.getAuthenticatedUser(),
    );
    expect(unknown.code).toBe(401);
  });

  it('refuses a revoked token at once', async () => {
    const victim = await createUser(server);
    expect((await victim.api.user.getAuthenticatedUser()).data.id).toBe(victim.id);
    await server.app.quire.services.tokens.revoke(victim.token);
    const refused = await failure(victim.api.user.getAuthenticatedUser());
    expect(refused).toEqual({ code: 401, message: expect.stringContaining('revoked') });
  });

  it('stores tokens only as hashes', async () => {
    const rows = await server.database.db.selectFrom('api_tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(user.token);
    expect(stored).not.toContain(user.token.slice(6, 30));
    for (const row of rows) expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('issues tokens with at least 128 random bits', () => {
    const secret = user.token.replace(/^quire_/, '');
    expect(Buffer.from(secret, 'base64url').length).toBeGreaterThanOrEqual(16);
  });
});

describe('request conventions', () => {
  it('answers malformed JSON with a 400 in the error shape', async () => {
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token: user.token,
      body: '{"title": "Broken",',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 400, message: expect.stringContaining('Malformed JSON') } });
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token: user.token,
      body: 'title=Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: { code: 415, message: expect.stringContaining('application/json') } });
    const text = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token: user.token,
      body: '{"title":"Plain"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
  });

  it('answers an oversized body with 413 and writes nothing', async () => {
    const before = (await user.api.orgs.listOrganizationsForAuthenticatedUser()).data.count;
    const res = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token: user.token,
      body: { title: 'Too big', emailDomains: Array.from({ length: 400 }, (_, i) => `d${i}.example.com`) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 413, message: expect.stringContaining('too large') } });
    expect((await user.api.orgs.listOrganizationsForAuthenticatedUser()).data.count).toBe(before);
  });

  it('names wrong types and unknown enum values', async () => {
    const wrongType = await rawRequest(server.url, 'POST', '/v1/orgs', {
      token: user.token,
      body: { title: 42 },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toContain('body.title');
    const notObject = await rawRequest(server.url, 'POST', '/v1/orgs', { token: user.token, body: '[1,2]' });
    expect(notObject.status).toBe(400);
  });

  it('accepts an empty body with a JSON content type on body-less operations', async () => {
    // The body passes (no "Malformed JSON" 400); the operation then answers as it would without
    // one: the caller is not in the organization and may not join it, so it is not found.
    const res = await rawRequest(server.url, 'POST', `/v1/orgs/${server.admin.orgId}/join`, {
      token: user.token,
      body: '',
    });
    expect(res.status).toBe(404);
    expect(res.text).toContain('not found');
  });

  it('gives every response a request id', async () => {
    const a = await rawRequest(server.url, 'GET', '/healthz');
    const b = await rawRequest(server.url, 'GET', '/v1/user', { token: user.token });
    expect(a.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });

  it('answers CORS preflights and exposes rate-limit headers', async () => {
    const res = await fetch(`${server.url}/v1/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://tools.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    const get = await fetch(`${server.url}/v1/user`, {
      headers: { origin: 'https://tools.example.com', authorization: `Bearer ${user.token}` },
    });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });
});

describe('rate limiting', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { QUIRE_RATE_LIMIT: '5' } });
  });
  afterAll(() => limited.close());

  it('counts requests per token and answers 429 past the limit', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof rawRequest>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await rawRequest(limited.url, 'GET', '/v1/user', { token: limited.admin.token });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('x-ratelimit-limit')).toBe('5');
        expect(last.headers.get('x-ratelimit-remaining')).toBe('4');
        const reset = Number(last.headers.get('x-ratelimit-reset'));
        expect(reset).toBeGreaterThan(Date.now() / 1000);
        expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.body).toEqual({ error: { code: 429, message: expect.stringContaining('rate limit') } });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);

    const other = await limited.app.quire.services.tokens.create(limited.admin.userId, 'other');
    const fresh = await rawRequest(limited.url, 'GET', '/v1/user', { token: other.token });
    expect(fresh.status).toBe(200);
  });
});

describe('logging', () => {
  it('puts the request id on every log line of a request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'info' });
    const database = await openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(database);
    const app = await buildApp({ config, database, logger: { level: 'info', stream } });
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/user' });
      expect(res.statusCode).toBe(401);
      const id = res.headers['x-request-id'];
      const requestLines = lines.filter((l) => l.requestId !== undefined);
      expect(requestLines.length).toBeGreaterThanOrEqual(1);
      expect(requestLines.at(-1)).toMatchObject({ method: 'GET', url: '/v1/user', statusCode: 401 });
      for (const line of requestLines) expect(line.requestId).toBe(id);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
