import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OutboundClient } from '../../src/http/outbound.js';
import type { GatewayRequest } from '../../src/integrations/runtime/gateway.js';
import { IntegrationRuntime } from '../../src/integrations/runtime/runtime.js';
import { ScriptFailure } from '../../src/integrations/runtime/worker-process.js';
import { findWorkerd } from '../../src/integrations/runtime/workerd-binary.js';

/**
 * The integration runtime against real workerd processes: scripts written the way bundled
 * GitBook integrations are (an ES module whose default export has `fetch`), events posted as
 * GitBook's dispatcher posts them.
 */

const SCRIPT = `
export default {
  async fetch(request) {
    const form = await request.formData();
    const event = JSON.parse(form.get('event'));
    const environment = JSON.parse(form.get('environment'));
    switch (event.type) {
      case 'echo':
        return Response.json({ type: event.type, name: environment.integration.name, path: new URL(request.url).pathname });
      case 'call': {
        const response = await fetch(event.url, { method: 'POST', headers: { 'x-test': '1' }, body: 'ping' });
        return new Response(response.status + ' ' + (await response.text()));
      }
      case 'socket': {
        try {
          const { connect } = await import('cloudflare:sockets');
          const socket = connect({ hostname: '127.0.0.1', port: Number(event.port) });
          await socket.opened;
          return new Response('connected');
        } catch (error) {
          return new Response('refused: ' + error.message);
        }
      }
      case 'loop':
        for (;;) {}
      case 'allocate': {
        const kept = [];
        for (;;) kept.push(new Array(1e6).fill(event.type));
      }
      case 'throw':
        throw new Error('the script failed on purpose');
      case 'log':
        console.log('hello from the script');
        return new Response('logged');
    }
    return new Response('unknown event', { status: 400 });
  },
};
`;

const seen: GatewayRequest[] = [];
const outbound = new OutboundClient({ allow: [] });
let runtime: IntegrationRuntime;
let target: Server;
let targetUrl: string;
let targetHits = 0;

beforeAll(async () => {
  target = createServer((_request, response) => {
    targetHits++;
    response.end('reached');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/private`;
  runtime = new IntegrationRuntime({
    binary: findWorkerd(),
    limits: { timeoutMs: 2000, memoryMb: 32, maxBodyBytes: 1024 * 1024 },
    idleMs: 60_000,
    log: pino({ level: 'silent' }),
    gateway: () => async (request) => {
      seen.push(request);
      if (new URL(request.url).hostname === 'api.quire.test') {
        return { status: 201, headers: { 'content-type': 'text/plain' }, body: Buffer.from('from quire') };
      }
      // Everything else goes through the guarded client, as in the server.
      try {
        const answer = await outbound.fetch(request.url, { method: request.method, body: request.body });
        return { status: answer.status, headers: answer.headers, body: answer.body };
      } catch (error) {
        return { status: 502, headers: {}, body: Buffer.from((error as Error).message) };
      }
    },
  });
}, 30_000);
afterAll(async () => {
  await runtime?.close();
  target?.close();
});

const hello = (version = 1) => ({ name: 'hello', version, script: SCRIPT });
const environment = { integration: { name: 'hello' }, apiEndpoint: 'https://api.quire.test' };
const dispatch = (event: object, integration = hello()) => runtime.dispatch(integration, event, environment);
const text = async (event: object) => (await dispatch(event)).body.toString();

async function failure(promise: Promise<unknown>): Promise<ScriptFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ScriptFailure);
  return error as ScriptFailure;
}

describe('integration scripts in workerd', () => {
  it('posts an event as a multipart form to /v1 and answers what the script answers', async () => {
    const answer = await dispatch({ type: 'echo' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ type: 'echo', name: 'hello', path: '/v1' });
  });

  it("sends every fetch() of the script to Quire's gateway, with the full URL, method and body", async () => {
    expect(await text({ type: 'call', url: 'https://api.quire.test/v1/user' })).toBe('201 from quire');
    const call = seen.at(-1)!;
    expect(call).toMatchObject({ method: 'POST', url: 'https://api.quire.test/v1/user' });
    expect(call.headers['x-test']).toBe('1');
    expect(call.body?.toString()).toBe('ping');
  });

  it('reaches no private address: the guarded client refuses it, and sockets go nowhere', async () => {
    const answer = await text({ type: 'call', url: targetUrl });
    expect(answer).toMatch(/^502 .*loopback/);
    const port = new URL(targetUrl).port;
    expect(await text({ type: 'socket', port })).toMatch(/^refused/);
    expect(targetHits).toBe(0);
  });

  it('stops a script that loops, keeps other integrations running, and starts it again', async () => {
    const other = { name: 'other', version: 1, script: SCRIPT };
    const looping = failure(dispatch({ type: 'loop' }));
    // While one integration loops, another answers at once: they are separate processes.
    expect((await dispatch({ type: 'echo' }, other)).status).toBe(200);
    const stopped = await looping;
    expect(stopped.reason).toBe('timeout');
    expect((await dispatch({ type: 'echo' })).status).toBe(200);
  });

  it('reports a script that exhausts its memory, and runs the next event', async () => {
    const crashed = await failure(dispatch({ type: 'allocate' }));
    expect(crashed.reason).toBe('crashed');
    expect(crashed.message).toMatch(/heap|memory|stopped/i);
    expect((await dispatch({ type: 'echo' })).status).toBe(200);
  });

  it("answers a script's exception as an error response, and keeps its console output", async () => {
    const thrown = await dispatch({ type: 'throw' });
    expect(thrown.status).toBe(500);
    expect(await text({ type: 'log' })).toBe('logged');
    // The output arrives on its own pipe, shortly after the answer.
    await vi.waitFor(() => expect(runtime.recentLog('hello')).toContain('hello from the script'));
  });

  it('runs a new version in a new process', async () => {
    const next = { ...hello(2), script: SCRIPT.replace('type: event.type, name', "type: 'v2', name") };
    expect(JSON.parse((await dispatch({ type: 'echo' }, next)).body.toString()).type).toBe('v2');
  });

  it('says why when workerd is missing, instead of doing nothing', async () => {
    const without = new IntegrationRuntime({
      binary: { missing: 'workerd cannot run on this machine: Unsupported platform' },
      limits: { timeoutMs: 1000, memoryMb: 32, maxBodyBytes: 1024 },
      idleMs: 1000,
      log: pino({ level: 'silent' }),
      gateway: () => async () => ({ status: 500, headers: {}, body: Buffer.alloc(0) }),
    });
    expect(without.unavailable).toContain('Unsupported platform');
    const refused = await failure(without.dispatch(hello(), { type: 'echo' }, environment));
    expect(refused.reason).toBe('unavailable');
    await without.close();
  });
});
