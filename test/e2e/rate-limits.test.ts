import { request } from 'node:http';
import { SiteVisibility } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createOrg, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { docsSpace, publishedSite } from '../helpers/sites.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET to `server` with any headers, Host and X-Forwarded-For included (fetch forbids Host). */
function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const from = (address: string) => ({ 'x-forwarded-for': address });

async function statuses(server: TestServer, path: string, headers: Array<Record<string, string>>) {
  const answers: number[] = [];
  for (const h of headers) answers.push((await get(server, path, h)).status);
  return answers;
}

function expectTooMany(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(JSON.parse(answer.body)).toEqual({
    error: { code: 429, message: expect.stringContaining('rate limit') },
  });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  expect(answer.headers['x-ratelimit-remaining']).toBe('0');
}

describe('what the API limit counts', () => {
  const clock = new ManualClock();
  let server: TestServer;
  let token: string;
  let sitePath: string;
  let assetPath: string;
  let filePath: string;
  const customHost = 'docs.limits-example.test';

  beforeAll(async () => {
    server = await startTestServer({ clock, env: { QUIRE_RATE_LIMIT: '30', QUIRE_SITE_RATE_LIMIT: '300' } });
    const owner = await createUser(server, { name: 'Owner' });
    token = owner.token;
    const orgId = await createOrg(owner);
    const { spaceId } = await docsSpace(owner, orgId);
    const site = await publishedSite(owner, orgId, [spaceId], SiteVisibility.Public);
    await owner.api.orgs.updateSiteById(orgId, site.id, { hostname: customHost } as never);
    sitePath = `/sites/${site.id}/`;
    const page = await get(server, sitePath);
    expect(page.status).toBe(200);
    const asset = /\/~assets\/[^"'?#]+/.exec(page.body)?.[0];
    if (!asset) throw new Error('a site page links its assets');
    assetPath = `/sites/${site.id}${asset}`;
    const { hash } = await server.app.quire.services.blobs.put(Buffer.from('hello, limits'));
    filePath = `/files/${hash}/hello.txt`;
    // The setup's API calls are in past windows.
    clock.advance(61_000);
  });
  afterAll(() => server.close());

  it('leaves out published pages, their assets, file downloads and /healthz', async () => {
    for (let i = 0; i < 35; i++) {
      const page = await get(server, sitePath);
      expect(page.status).toBe(200);
      // Pages are cacheable: no per-visitor counters on them.
      expect(page.headers['x-ratelimit-limit']).toBeUndefined();
      expect((await get(server, `${sitePath}guides/install`)).status).toBe(200);
      expect((await get(server, assetPath)).status).toBe(200);
      expect((await get(server, filePath)).status).toBe(200);
      expect((await get(server, '/healthz')).status).toBe(200);
      expect((await get(server, '/guides/install', { host: customHost })).status).toBe(200);
    }

    // The address and the token still have their whole API allowance.
    const anonymous = await get(server, '/v1/');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['x-ratelimit-limit']).toBe('30');
    expect(anonymous.headers['x-ratelimit-remaining']).toBe('29');
    const user = await get(server, '/v1/user', bearer(token));
    expect(user.status).toBe(200);
    expect(user.headers['x-ratelimit-remaining']).toBe('29');
  });
});

describe('the published-site limit and the address of a request', () => {
  const clock = new ManualClock();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { QUIRE_RATE_LIMIT: '3', QUIRE_SITE_RATE_LIMIT: '4' } });
  });
  afterAll(() => server.close());

  it('answers 429 past the site limit, for pages and files alike, apart from the API', async () => {
    clock.advance(61_000);
    const { hash } = await server.app.quire.services.blobs.put(Buffer.from('site limit'));
    const answers = [
      await get(server, '/sites/nosuchsite/'),
      await get(server, '/sites/nosuchsite/some/page'),
      await get(server, `/files/${hash}/a.txt`),
      await get(server, '/sites/other/'),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 200, 404]);
    const over = await get(server, `/files/${hash}/a.txt`);
    expectTooMany(over);
    expect(over.headers['x-ratelimit-limit']).toBe('4');
    expectTooMany(await get(server, '/sites/nosuchsite/'));
    // The health check and the API are not in the site's bucket.
    expect((await get(server, '/healthz')).status).toBe(200);
    expect((await get(server, '/v1/')).status).toBe(200);
  });

  it('ignores X-Forwarded-For without QUIRE_TRUST_PROXY: the socket address is the bucket', async () => {
    clock.advance(61_000);
    expect(
      await statuses(server, '/v1/', [from('203.0.113.1'), from('203.0.113.2'), from('203.0.113.3')]),
    ).toEqual([200, 200, 200]);
    const spoofed = await get(server, '/v1/', from('198.51.100.99'));
    expectTooMany(spoofed);
  });

  it('counts unknown and malformed tokens against the address, never as fresh buckets', async () => {
    clock.advance(61_000);
    const answers = [
      await get(server, '/v1/user', bearer('quire_made-up-one')),
      await get(server, '/v1/user', bearer('quire_made-up-two')),
      await get(server, '/v1/user', { authorization: 'Token something' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(JSON.parse(answers[0]!.body).error.message).toContain('Invalid API token');

    // The address is spent, whatever token value comes next; a real token has its own bucket.
    expectTooMany(await get(server, '/v1/user', bearer('quire_made-up-three')));
    expectTooMany(await get(server, '/v1/'));
    const real = await get(server, '/v1/user', bearer(server.admin.token));
    expect(real.status).toBe(200);
    expect(real.headers['x-ratelimit-remaining']).toBe('2');

    // A revoked token is an unknown one too.
    const user = await createUser(server);
    await server.app.quire.services.tokens.revoke(user.token);
    expectTooMany(await get(server, '/v1/user', bearer(user.token)));
  });
});

describe('QUIRE_TRUST_PROXY', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });
  const start = async (trust: string) => {
    const server = await startTestServer({ env: { QUIRE_RATE_LIMIT: '2', QUIRE_TRUST_PROXY: trust } });
    servers.push(server);
    return server;
  };

  it('true: the right-most X-Forwarded-For address, the one the proxy added, is the client', async () => {
    const server = await start('true');
    const first = [from('203.0.113.1'), from('203.0.113.1'), from('203.0.113.1')];
    expect(await statuses(server, '/v1/', first)).toEqual([200, 200, 429]);
    expect(await statuses(server, '/v1/', [from('203.0.113.2')])).toEqual([200]);
    // What the client wrote itself, left of the proxy's entry, decides nothing.
    const spoof = [from('198.51.100.5, 203.0.113.1'), from('198.51.100.6, 203.0.113.1')];
    expect(await statuses(server, '/v1/', spoof)).toEqual([429, 429]);
  });

  it('a list of proxy addresses: entries are believed while they come from a listed proxy', async () => {
    const server = await start('127.0.0.1, 10.0.0.0/8');
    expect(await statuses(server, '/v1/', [from('203.0.113.7'), from('203.0.113.7')])).toEqual([200, 200]);
    expect(await statuses(server, '/v1/', [from('203.0.113.7')])).toEqual([429]);
    // Through a second, listed proxy: still the same client.
    expect(await statuses(server, '/v1/', [from('203.0.113.7, 10.1.2.3')])).toEqual([429]);
    expect(await statuses(server, '/v1/', [from('203.0.113.8, 10.1.2.3')])).toEqual([200]);
  });

  it('gives site visitors behind the proxy a bucket each', async () => {
    const server = await startTestServer({
      env: { QUIRE_SITE_RATE_LIMIT: '1', QUIRE_TRUST_PROXY: '1' },
    });
    servers.push(server);
    expect(await statuses(server, '/sites/x/', [from('203.0.113.1'), from('203.0.113.1')])).toEqual([
      404, 429,
    ]);
    expect(await statuses(server, '/sites/x/', [from('203.0.113.2')])).toEqual([404]);
  });
});
