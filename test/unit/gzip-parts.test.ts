import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, type GzipBody, GzipParts } from '../../src/http/gzip-parts.js';
import { acceptsGzip } from '../../src/http/gzip-reply.js';

const decoded = (body: GzipBody) => {
  const bytes = Buffer.concat(body.parts);
  expect(bytes.length).toBe(body.length);
  // The strict decoder: it checks the CRC-32 and length of the trailer.
  return zlib.gunzipSync(bytes).toString('latin1');
};
/** The bytes as text: compared as strings, not element by element. */
const joined = (parts: Buffer[]) => Buffer.concat(parts).toString('latin1');

/** JSON-like text: compressible, as page trees are. */
const text = (n: number, seed: number) => {
  let out = '';
  for (let i = 0; out.length < n; i++)
    out += `{"id":"p${seed}-${i}","title":"Page ${i * 7 + seed}","pages":[]},`;
  return Buffer.from(out.slice(0, n));
};

/** Resolves once the parts' body is made without waiting on compression of large ones. */
async function settled(gzip: GzipParts, parts: Buffer[]): Promise<GzipBody> {
  for (let tries = 0; tries < 1000; tries++) {
    const body = await gzip.of(parts);
    if (body) return body;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the parts were never all compressed');
}

describe('CRC-32 of two byte strings from their own', () => {
  it('is the CRC-32 of the two together, for lengths from 0 to past 2^16', () => {
    for (const [a, b] of [
      [0, 0],
      [0, 5],
      [7, 0],
      [1, 1],
      [100, 3],
      [65_535, 65_537],
      [3, 1_000_003],
    ] as const) {
      const first = randomBytes(a);
      const second = randomBytes(b);
      expect(crc32Combine(zlib.crc32(first), zlib.crc32(second), b)).toBe(
        zlib.crc32(Buffer.concat([first, second])),
      );
    }
  });
});

describe('gzip bodies put together from parts compressed one by one', () => {
  it('decodes to the parts one after the other: small parts stored, large ones compressed', async () => {
    const gzip = new GzipParts({ ownBlocksFrom: 1000 });
    const parts = [
      text(5000, 1),
      Buffer.from(','),
      text(999, 2),
      Buffer.from(''),
      text(1000, 3),
      Buffer.from(']}'),
    ];
    const body = await gzip.of(parts);
    expect(decoded(body!)).toBe(joined(parts));
    expect(body!.length).toBeLessThan(Buffer.concat(parts).length / 2);
  });

  it('stores runs of small parts longer than a stored block holds, and nothing at all', async () => {
    const gzip = new GzipParts({ ownBlocksFrom: 10 ** 6 });
    const parts = Array.from({ length: 40 }, (_, i) => text(5000, i));
    expect(decoded((await gzip.of(parts))!)).toBe(joined(parts));
    expect(decoded((await gzip.of([]))!)).toBe('');
    // One part over two blocks and a half; a run filling a block exactly, between large parts.
    const one = [text(150_000, 7)];
    expect(decoded((await gzip.of(one))!)).toBe(joined(one));
    const between = new GzipParts({ ownBlocksFrom: 70_000 });
    const exact = [text(80_000, 1), text(65_000, 2), text(535, 3), text(80_000, 4), Buffer.from('x')];
    expect(decoded((await between.of(exact))!)).toBe(joined(exact));
  });

  it('compresses too much in the background, then makes a changed body from the kept blocks while the reader waits', async () => {
    const gzip = new GzipParts({ ownBlocksFrom: 1000, waitUpTo: 20_000 });
    const parts = Array.from({ length: 12 }, (_, i) => text(4000, i));
    // 48,000 bytes to compress, more than a reader waits for: sent as they are for now.
    expect(await gzip.of(parts)).toBeUndefined();
    expect(decoded(await settled(gzip, parts))).toBe(joined(parts));
    // The next revision: two parts new (8,000 bytes), the rest kept from the last one.
    const next = [
      ...parts.slice(0, 5),
      text(4000, 50),
      ...parts.slice(6, 9),
      text(4000, 51),
      ...parts.slice(10),
    ];
    const body = await gzip.of(next);
    expect(body).toBeDefined();
    expect(decoded(body!)).toBe(joined(next));
  });

  it('gives the same body for the same parts, read by several at once', async () => {
    const gzip = new GzipParts({ ownBlocksFrom: 100 });
    const parts = [text(3000, 1), Buffer.from(','), text(3000, 2)];
    const bodies = await Promise.all([gzip.of(parts), gzip.of(parts), gzip.of(parts)]);
    const bytes = bodies.map((body) => joined(body!.parts));
    expect(bytes[1]).toBe(bytes[0]);
    expect(bytes[2]).toBe(bytes[0]);
    expect(decoded(bodies[0]!)).toBe(joined(parts));
    // Read again, then again: the same bytes, kept in one buffer from the second read on.
    const again = (await gzip.of(parts))!;
    expect(again.parts).toHaveLength(1);
    expect(joined(again.parts)).toBe(bytes[0]);
    expect((await gzip.of(parts))!.parts[0]).toBe(again.parts[0]);
  });

  it('knows a body of one part by that part, whatever array holds it', async () => {
    const gzip = new GzipParts({ ownBlocksFrom: 100 });
    const page = text(3000, 9);
    const first = (await gzip.of([page]))!;
    const second = (await gzip.of([page]))!;
    expect(decoded(first)).toBe(page.toString('latin1'));
    expect(second.parts).toHaveLength(1);
    expect(decoded(second)).toBe(page.toString('latin1'));
    expect((await gzip.of([page]))!.parts[0]).toBe(second.parts[0]);
  });
});

describe('Accept-Encoding', () => {
  it('takes gzip when named or matched by a wildcard, unless its q is 0', () => {
    expect(acceptsGzip('gzip, deflate')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8, *;q=0.1')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('deflate, br')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
