import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { acceptsGzip, COMPRESS_FROM, encodingChosen, varyOnEncoding } from './gzip-reply.js';
import type { App } from './types.js';

const gzip = promisify(zlib.gzip) as (body: string | Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

/**
 * Bodies shorter than this are compressed on the server's thread (well under 2 ms at the fastest
 * level); longer ones in zlib's threads. A trip to zlib's threads cost a 100-hit search more than
 * the compression itself: the 100,000-page space searched through the API on SQLite, median
 * 15.9 and 15.4 ms compressed there, 13.6 and 13.1 ms here, 12.8 ms uncompressed.
 */
const SYNC_BELOW = 256 * 1024;

/** Bodies of these types compress; images, archives and PDFs are compressed already. */
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|yaml|x-yaml|javascript)\b|image\/svg\+xml)/;

/**
 * Answers made for one request, of 32 KB or more, in gzip to a client that takes it: a search's
 * hundred hits (about 95 KB of JSON), a large page document, an OpenAPI specification, a site's
 * llms-full.txt. Quire is often reached without a reverse proxy in front, and these bytes cross
 * a real network there. At zlib's fastest level, as nginx compresses by default, since each is
 * compressed anew.
 *
 * Answers kept as buffers (page trees, published pages) chose their encoding in `sendParts`,
 * from blocks compressed once; this hook leaves them as they are, even those sent uncompressed
 * while their blocks are made (compressing a 56 MiB tree here would take half a second).
 */
export function compressAnswers(app: App): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (encodingChosen(reply) || reply.hasHeader('content-encoding') || reply.hasHeader('content-range'))
      return payload;
    // A string of n characters is at most 3n bytes: most small answers are told without counting.
    if (payload.length < COMPRESS_FROM / 3) return payload;
    const bytes = Buffer.byteLength(payload);
    if (bytes < COMPRESS_FROM) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;
    varyOnEncoding(reply);
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    try {
      const options = { level: zlib.constants.Z_BEST_SPEED };
      const body = bytes < SYNC_BELOW ? zlib.gzipSync(payload, options) : await gzip(payload, options);
      reply.header('content-encoding', 'gzip');
      reply.removeHeader('content-length');
      return body;
    } catch (error) {
      // Not the client's failure: the answer goes as it is.
      request.log.warn({ err: error }, 'could not compress the answer; sent uncompressed');
      return payload;
    }
  });
}
