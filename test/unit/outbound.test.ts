import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { OutboundClient, OutboundError } from '../../src/http/outbound.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface TestServer {
  /** Base URL without a trailing slash, such as http://127.0.0.1:40123. */
  url: string;
  port: number;
  requests: IncomingMessage[];
}

const servers: Server[] = [];

async function serve(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, port, requests };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const hello: Handler = (_request, response) => {
  response.setHeader('content-type', 'text/plain');
  response.end('hello');
};

/** The OutboundError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe('outbound client: address policy', () => {
  it('refuses loopback by default and never connects', async () => {
    const server = await serve(hello);
    const error = await refusal(new OutboundClient({ allow: [] }).fetch(`${server.url}/file`));
    expect(error.code).toBe('blocked');
    expect(error.message).toContain('127.0.0.1 is a loopback address');
    expect(error.message).toContain('QUIRE_OUTBOUND_ALLOW');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback, naming both', async () => {
    const server = await serve(hello);
    const error = await refusal(new OutboundClient({ allow: [] }).fetch(`http://localhost:${server.port}/`));
    expect(error.code).toBe('blocked');
    expect(error.message).toMatch(/localhost resolves to 127\.0\.0\.1, a loopback address; add localhost or/);
  });

  it.each([['127.0.0.1'], ['127.0.0.0/8'], ['localhost']])('allows loopback listed as %s', async (entry) => {
    const server = await serve(hello);
    const client = new OutboundClient({ allow: [entry] });
    // A listed name vouches for the name only, not for its address typed directly.
    const bases = [`http://localhost:${server.port}`, ...(entry === 'localhost' ? [] : [server.url])];
    for (const base of bases) {
      const response = await client.fetch(`${base}/file?x=1`);
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe('hello');
      expect(response.headers['content-type']).toBe('text/plain');
      expect(response.url).toBe(`${base}/file?x=1`);
    }
    if (entry === 'localhost') expect((await refusal(client.fetch(server.url))).code).toBe('blocked');
    expect(server.requests[0]?.url).toBe('/file?x=1');
    expect(server.requests[0]?.headers['user-agent']).toMatch(/^Quire\//);
  });

  it('allows an IPv6 range', async () => {
    const server = await serve(hello, '::1');
    const blocked = await refusal(new OutboundClient({ allow: ['127.0.0.0/8'] }).fetch(server.url));
    expect(blocked.message).toContain('::1 is a loopback address');
    const response = await new OutboundClient({ allow: ['::/120'] }).fetch(`${server.url}/six`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
  });

  it.each([
    ['http://[::1]/', 'a loopback address'],
    ['http://10.1.2.3/', 'a private address'],
    ['http://192.168.0.10/', 'a private address'],
    ['http://169.254.169.254/latest/meta-data/', 'a link-local address'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://[fd00::1]/', 'a unique-local (private) address'],
    ['http://100.64.0.1/', 'a carrier-grade NAT address'],
    ['http://0.0.0.0/', 'an unspecified address'],
    ['http://[::]/', 'an unspecified address'],
    ['http://224.0.0.1/', 'a multicast address'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback address'],
    ['http://[::ffff:a9fe:a9fe]/', 'a link-local address'],
    ['http://[64:ff9b::a00:1]/', 'a private address'],
    ['http://[2002:7f00:1::]/', 'a loopback address'],
    ['http://0x7f.1/', 'a loopback address'],
    ['http://2130706433/', 'a loopback address'],
  ])('check() refuses %s (%s)', async (url, reason) => {
    const error = await refusal(new OutboundClient({ allow: [] }).check(url));
    expect(error.code).toBe('blocked');
    expect(error.message).toContain(`is ${reason}; add it to QUIRE_OUTBOUND_ALLOW`);
  });

  it('check() answers the addresses of an allowed URL without fetching it', async () => {
    const client = new OutboundClient({ allow: ['localhost', '10.0.0.0/8'] });
    await expect(client.check('https://93.184.215.14/repo.git')).resolves.toMatchObject({
      addresses: ['93.184.215.14'],
    });
    await expect(client.check('http://[2606:4700::1]/')).resolves.toMatchObject({
      addresses: ['2606:4700::1'],
    });
    await expect(client.check('http://10.1.2.3/')).resolves.toMatchObject({ addresses: ['10.1.2.3'] });
    await expect(client.check('http://[::ffff:10.1.2.3]/')).resolves.toBeDefined();
    const checked = await client.check('http://LocalHost./x');
    expect(checked.url.hostname).toBe('localhost.');
    expect(checked.addresses).toContain('127.0.0.1');
  });

  it.each([['ftp://example.com/file'], ['file:///etc/passwd'], ['gopher://example.com/'], ['not a url']])(
    'refuses %s',
    async (url) => {
      const client = new OutboundClient({ allow: ['0.0.0.0/0'] });
      expect((await refusal(client.fetch(url))).code).toBe('scheme');
      expect((await refusal(client.check(url))).code).toBe('scheme');
    },
  );

  it('reports an unknown host as a DNS error', async () => {
    const error = await refusal(new OutboundClient({ allow: [] }).check('http://nothing-here.invalid/'));
    expect(error.code).toBe('dns');
    expect(error.message).toContain('nothing-here.invalid');
  });

  it('reports a refused connection as a network error', async () => {
    const server = await serve(hello);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error = await refusal(new OutboundClient({ allow: ['127.0.0.1'] }).fetch(server.url));
    expect(error.code).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('rejects an invalid allow-list entry', () => {
    expect(() => new OutboundClient({ allow: ['10.0.0.0/99'] })).toThrow(ConfigError);
  });

  it('keeps credentials and query strings out of messages', async () => {
    const error = await refusal(
      new OutboundClient({ allow: [] }).fetch('http://user:s3cret@10.0.0.1/x?token=abc'),
    );
    expect(error.message).not.toMatch(/s3cret|token=abc/);
  });
});

describe('outbound client: allow-list entries with ports and IPv4 inside IPv6', () => {
  it.each([
    ['http://[::127.0.0.1]/', 'a loopback address'],
    ['http://[::7f00:1]/', 'a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'a loopback address'],
    ['http://[::ffff:7f00:1]/', 'a loopback address'],
    ['http://[::10.1.2.3]/', 'a private address'],
    ['http://[::a9fe:a9fe]/', 'a link-local address'],
    ['http://[::ffff:0:192.168.1.1]/', 'a private address'],
    ['http://[::0.0.0.2]/', 'an unspecified address'],
  ])('classifies %s by its IPv4 address (%s)', async (url, reason) => {
    const error = await refusal(new OutboundClient({ allow: [] }).check(url));
    expect(error.code).toBe('blocked');
    expect(error.message).toContain(`is ${reason}; add it to QUIRE_OUTBOUND_ALLOW`);
  });

  it('lets an IPv4 entry allow the IPv6 forms of its address, and only those', async () => {
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    for (const url of ['http://[::127.0.0.1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/'])
      await expect(client.check(url), url).resolves.toBeDefined();
    expect((await refusal(client.check('http://[::127.0.0.2]/'))).code).toBe('blocked');
    // An entry written in an IPv6 form stands for its IPv4 address too.
    const mapped = new OutboundClient({ allow: ['[::ffff:10.0.0.1]'] });
    await expect(mapped.check('http://10.0.0.1/')).resolves.toBeDefined();
    await expect(mapped.check('http://[::10.0.0.1]/')).resolves.toBeDefined();
  });

  it('allows a listed address on its port only; a bare entry on every port', async () => {
    const server = await serve(hello);
    const other = server.port === 65535 ? 65534 : server.port + 1;
    const onPort = new OutboundClient({ allow: [`127.0.0.1:${server.port}`] });
    expect((await onPort.fetch(`${server.url}/x`)).status).toBe(200);
    const elsewhere = await refusal(onPort.check(`http://127.0.0.1:${other}/`));
    expect(elsewhere.code).toBe('blocked');
    expect(elsewhere.message).toContain(`allowed on port ${server.port} only, not ${other}`);
    // The default port counts: http is 80, https 443.
    expect(
      (await refusal(new OutboundClient({ allow: ['10.0.0.1:443'] }).check('http://10.0.0.1/'))).code,
    ).toBe('blocked');
    await expect(
      new OutboundClient({ allow: ['10.0.0.1:443'] }).check('https://10.0.0.1/'),
    ).resolves.toBeDefined();
    const everyPort = new OutboundClient({ allow: ['127.0.0.1'] });
    await expect(everyPort.check(`http://127.0.0.1:${other}/`)).resolves.toBeDefined();
    await expect(everyPort.check('http://127.0.0.1:1/')).resolves.toBeDefined();
  });

  it('reads ports on ranges, host names and bracketed IPv6', async () => {
    const server = await serve(hello);
    const byName = new OutboundClient({ allow: [`localhost:${server.port}`] });
    expect((await byName.fetch(`http://localhost:${server.port}/`)).status).toBe(200);
    expect((await refusal(byName.check(`http://localhost:${server.port + 1}/`))).code).toBe('blocked');
    const range = new OutboundClient({ allow: ['10.0.0.0/8:8443'] });
    await expect(range.check('http://10.9.8.7:8443/')).resolves.toBeDefined();
    expect((await refusal(range.check('http://10.9.8.7:8444/'))).code).toBe('blocked');
    const six = new OutboundClient({ allow: ['[::1]:8080', '[fd00::/8]:443'] });
    await expect(six.check('http://[::1]:8080/')).resolves.toBeDefined();
    expect((await refusal(six.check('http://[::1]:8081/'))).code).toBe('blocked');
    await expect(six.check('https://[fd12::1]/')).resolves.toBeDefined();
    expect((await refusal(six.check('http://[fd12::1]/'))).code).toBe('blocked');
    // A bare IPv6 entry has no port: every port.
    await expect(new OutboundClient({ allow: ['::1'] }).check('http://[::1]:9999/')).resolves.toBeDefined();
  });

  it.each([
    ['127.0.0.1:0'],
    ['127.0.0.1:65536'],
    ['127.0.0.1:http'],
    ['localhost:'],
    ['[::1]:x'],
    ['[127.0.0.1]:80'],
    ['bad host!'],
    ['10.0.0.0/33:80'],
  ])('refuses the entry %s at start', (entry) => {
    expect(() => new OutboundClient({ allow: [entry] })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_OUTBOUND_ALLOW: `example.com, ${entry}` })).toThrow(
      /QUIRE_OUTBOUND_ALLOW/,
    );
  });

  it('accepts entries with ports in the configuration', () => {
    const allow = '127.0.0.1:8080, [::1]:8080, git.internal:443, 10.0.0.0/8, [fd00::/8]:443, ::1';
    expect(loadConfig({ QUIRE_OUTBOUND_ALLOW: allow }).outboundAllow).toEqual(allow.split(', '));
  });
});

describe('outbound client: redirects', () => {
  it('follows redirects, checking each hop', async () => {
    const target = await serve(hello);
    const hop = await serve((_request, response) => {
      response.writeHead(302, { location: `${target.url}/final` }).end();
    });
    const start = await serve((request, response) => {
      // Relative first, then absolute to another origin.
      const location = request.url === '/' ? '/next' : `${hop.url}/`;
      response.writeHead(request.url === '/' ? 301 : 307, { location }).end();
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    const response = await client.fetch(`${start.url}/`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('hello');
    expect(response.url).toBe(`${target.url}/final`);
    expect(start.requests.map((r) => r.url)).toEqual(['/', '/next']);
  });

  it('sends a request body, keeps it on a 307 and drops it when a 303 turns the request into a GET', async () => {
    const bodies: string[] = [];
    const target = await serve((request, response) => {
      let text = '';
      request.on('data', (chunk) => {
        text += chunk;
      });
      request.on('end', () => {
        bodies.push(`${request.method} ${request.url} ${request.headers['content-length'] ?? '-'} ${text}`);
        if (request.url === '/keep') response.writeHead(307, { location: '/kept' }).end();
        else if (request.url === '/see') response.writeHead(303, { location: '/seen' }).end();
        else response.end('ok');
      });
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    const post = (path: string) =>
      client.fetch(`${target.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"a":1}'),
      });
    expect((await post('/keep')).status).toBe(200);
    expect((await post('/see')).status).toBe(200);
    expect(bodies).toEqual([
      'POST /keep 7 {"a":1}',
      'POST /kept 7 {"a":1}',
      'POST /see 7 {"a":1}',
      'GET /seen - ',
    ]);
  });

  it('refuses a redirect from an allowed host to a blocked one', async () => {
    const blocked = await serve(hello, '::1');
    const start = await serve((request, response) => {
      const to = request.url === '/metadata' ? 'http://169.254.169.254/latest/meta-data/' : `${blocked.url}/`;
      response.writeHead(302, { location: to }).end();
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    for (const path of ['/metadata', '/six']) {
      const error = await refusal(client.fetch(`${start.url}${path}`));
      expect(error.code).toBe('blocked');
      expect(error.message).toMatch(/^Refused to follow a redirect to/);
    }
    expect(blocked.requests).toHaveLength(0);
  });

  it('refuses a redirect to another scheme', async () => {
    const start = await serve((_request, response) => {
      response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    });
    const error = await refusal(new OutboundClient({ allow: ['127.0.0.1'] }).fetch(start.url));
    expect(error.code).toBe('scheme');
  });

  it('stops after five redirects', async () => {
    const loop = await serve((request, response) => {
      const n = Number(request.url?.slice(1)) || 0;
      response.writeHead(302, { location: `/${n + 1}` }).end();
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    const error = await refusal(client.fetch(`${loop.url}/0`));
    expect(error.code).toBe('redirects');
    expect(loop.requests.map((r) => r.url)).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);

    const five = await serve((request, response) => {
      const n = Number(request.url?.slice(1));
      if (n === 5) response.end('done');
      else response.writeHead(302, { location: `/${n + 1}` }).end();
    });
    expect((await client.fetch(`${five.url}/0`)).body.toString()).toBe('done');
  });

  it('drops credentials on a redirect to another origin', async () => {
    const other = await serve(hello);
    const start = await serve((_request, response) => {
      response.writeHead(303, { location: `${other.url}/` }).end();
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'] });
    await client.fetch(start.url, {
      method: 'DELETE',
      headers: { Authorization: 'Bearer x', Accept: 'text/plain' },
    });
    expect(start.requests[0]?.headers.authorization).toBe('Bearer x');
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers.accept).toBe('text/plain');
    expect(other.requests[0]?.method).toBe('GET');
  });
});

describe('outbound client: limits', () => {
  it('refuses a body over the cap, declared or not', async () => {
    const big = Buffer.alloc(64 * 1024, 'a');
    const server = await serve((request, response) => {
      if (request.url === '/declared') return response.end(big);
      response.write(big.subarray(0, 32 * 1024));
      setTimeout(() => response.end(big.subarray(32 * 1024)), 20);
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'], maxBytes: 1024 * 1024 });
    for (const path of ['/declared', '/chunked']) {
      const error = await refusal(client.fetch(`${server.url}${path}`, { maxBytes: 40 * 1024 }));
      expect(error.code).toBe('too-large');
      expect(error.message).toContain('larger than the limit of 40 KiB');
      expect((await client.fetch(`${server.url}${path}`)).body.length).toBe(big.length);
    }
    const small = new OutboundClient({ allow: ['127.0.0.1'], maxBytes: 1000 });
    expect((await refusal(small.fetch(`${server.url}/chunked`))).code).toBe('too-large');
  });

  it('times out on a server that does not answer', async () => {
    const server = await serve(() => {});
    const client = new OutboundClient({ allow: ['127.0.0.1'], timeoutMs: 10_000 });
    const error = await refusal(client.fetch(server.url, { timeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('within 200 ms');
  });

  it('times out on a body that trickles', async () => {
    const server = await serve((_request, response) => {
      response.write('a');
      const timer = setInterval(() => response.write('a'), 50);
      response.on('close', () => clearInterval(timer));
    });
    const client = new OutboundClient({ allow: ['127.0.0.1'], timeoutMs: 300 });
    expect((await refusal(client.fetch(server.url))).code).toBe('timeout');
  });

  it('reports a connection cut mid-body as a network error', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const error = await refusal(new OutboundClient({ allow: ['127.0.0.1'] }).fetch(server.url));
    expect(error.code).toBe('network');
  });
});
