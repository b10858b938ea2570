import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { clientAddressing } from '../../src/http/client-address.js';
import { trustProxyOption } from '../../src/http/rate-limit.js';

/**
 * The front door reads the client address and protocol of requests Fastify never sees; they
 * must be what Fastify's `request.ip` and `request.protocol` say for the same request, or one
 * visitor would be two rate-limit keys and two kinds of page views.
 */
const settings: Array<Config['trustProxy']> = [false, 1, 2, 3, ['127.0.0.1'], ['10.0.0.0/8', 'loopback']];
const requests: Array<{ remoteAddress: string; headers: Record<string, string> }> = [
  { remoteAddress: '127.0.0.1', headers: {} },
  { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } },
  { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.1, 10.1.2.3, 203.0.113.7' } },
  { remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.9' } },
  {
    remoteAddress: '192.0.2.44',
    headers: { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' },
  },
  { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'http, https' } },
  { remoteAddress: '10.0.0.5', headers: { 'x-forwarded-proto': ' https ' } },
  { remoteAddress: '::1', headers: { 'x-forwarded-for': '2001:db8::1', 'x-forwarded-proto': 'https' } },
];

describe('clientAddressing', () => {
  for (const setting of settings)
    it(`agrees with Fastify's request.ip and request.protocol (trust proxy ${JSON.stringify(setting)})`, async () => {
      const ours = clientAddressing(setting);
      const app = Fastify({ trustProxy: trustProxyOption(setting) });
      app.get('/', async (request) => ({
        fastify: { ip: request.ip, protocol: request.protocol },
        ours: { ip: ours.ip(request.raw), protocol: ours.protocol(request.raw) },
      }));
      try {
        for (const asked of requests) {
          const answer = (await app.inject({ url: '/', ...asked })).json();
          expect(answer.ours, JSON.stringify(asked)).toEqual(answer.fastify);
        }
      } finally {
        await app.close();
      }
    });
});
