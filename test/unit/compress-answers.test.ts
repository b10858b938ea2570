import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesAtLeast, compressAnswers } from '../../src/http/compress-answers.js';
import type { App } from '../../src/http/types.js';

/** A bare Fastify server with the hook alone: which answers it compresses, and how they decode. */
const app = Fastify();
const json = (items: number) =>
  JSON.stringify({
    items: Array.from({ length: items }, (_, i) => ({ id: `page-${i}`, title: `Page ${i} …` })),
  });

beforeAll(async () => {
  compressAnswers(app as unknown as App);
  app.get('/json/:items', (request, reply) => {
    reply
      .type('application/json; charset=utf-8')
      .send(json(Number((request.params as { items: string }).items)));
  });
  app.get('/png', (_request, reply) => {
    reply.type('image/png').send(Buffer.alloc(100_000, 7));
  });
  app.get('/no-transform', (_request, reply) => {
    reply.type('text/plain').header('cache-control', 'no-transform').send('x'.repeat(100_000));
  });
  app.get('/yaml', (_request, reply) => {
    reply.type('application/yaml').send(Buffer.from('key: value\n'.repeat(10_000)));
  });
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string, acceptEncoding = 'gzip, deflate') =>
  app.inject({ method: 'GET', url, headers: { 'accept-encoding': acceptEncoding } });

describe('answers made for one request, in gzip', () => {
  it("compresses answers of 32 KB and more, on the thread or in zlib's threads, to what they were", async () => {
    // About 60 KB (compressed at once) and about 1.3 MB (in zlib's threads).
    for (const items of [1_500, 30_000]) {
      const answer = await get(`/json/${items}`);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
      expect(zlib.gunzipSync(answer.rawPayload).toString('utf8')).toBe(json(items));
      expect(answer.rawPayload.length).toBeLessThan(Buffer.byteLength(json(items)) / 4);
    }
    const yaml = await get('/yaml');
    expect(yaml.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(yaml.rawPayload).toString('utf8')).toBe('key: value\n'.repeat(10_000));
  });

  it('sends the rest as it is', async () => {
    // Under 32 KB: no Vary either, as its encoding never depends on the request.
    const small = await get('/json/100');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.payload).toBe(json(100));
    // A client that does not take gzip: the answer still says it could differ.
    for (const refusing of ['identity', 'gzip;q=0, identity', 'br']) {
      const plain = await get('/json/1500', refusing);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.payload).toBe(json(1_500));
    }
    // Compressed already, or asked not to be transformed.
    for (const url of ['/png', '/no-transform']) {
      const answer = await get(url);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.rawPayload.length).toBe(100_000);
    }
  });
});

describe('bytesAtLeast', () => {
  it('tells a length in UTF-8 bytes, whether counted or told from the length', () => {
    // Strings whose UTF-8 length differs from their length: 1, 2, 3 and 4 bytes a character.
    for (const char of ['a', 'é', '…', '😀']) {
      for (const count of [1, 10, 11, 12, 30, 40]) {
        const text = char.repeat(count);
        const bytes = Buffer.byteLength(text);
        for (const limit of [bytes - 1, bytes, bytes + 1, text.length, text.length * 3, 35]) {
          expect(bytesAtLeast(text, limit)).toBe(bytes >= limit);
          expect(bytesAtLeast(Buffer.from(text), limit)).toBe(bytes >= limit);
        }
      }
    }
  });
});

describe('a large answer made', () => {
  it('is written after the requests that arrived while it was made, as bytes of its length', async () => {
    const order: string[] = [];
    const busy = Fastify();
    compressAnswers(busy as unknown as App);
    busy.get('/json/:items', (request, reply) => {
      reply
        .type('application/json; charset=utf-8')
        .send(json(Number((request.params as { items: string }).items)));
      // As a request read while the answer was made: it goes on at the end of this turn.
      setImmediate(() => order.push('request'));
    });
    await busy.ready();
    try {
      for (const [items, acceptEncoding] of [
        [1_500, 'identity'],
        [1_500, 'gzip'],
        [100, 'identity'],
      ] as const) {
        order.length = 0;
        const answer = await busy.inject({
          method: 'GET',
          url: `/json/${items}`,
          headers: { 'accept-encoding': acceptEncoding },
        });
        order.push('answered');
        const body = acceptEncoding === 'gzip' ? zlib.gunzipSync(answer.rawPayload) : answer.rawPayload;
        expect(body.toString('utf8')).toBe(json(items));
        expect(Number(answer.headers['content-length'])).toBe(answer.rawPayload.length);
        // Under 32 KB, an answer is written at once, before the turn ends.
        expect(order).toEqual(items === 100 ? ['answered'] : ['request', 'answered']);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await busy.close();
    }
  });
});
