import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { acceptsGzip, COMPRESS_FROM, encodingChosen, varyOnEncoding } from './gzip-reply.js';
import type { App } from './types.js';

const gzip = promisify(zlib.gzip) as (body: string | Buffer, options: zlib.ZlibOptions) => Promise<Buffer>;

/** Bodies of these types compress; images, archives and PDFs are compressed already. */
const COMPRESSIBLE =
  /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|yaml|x-yaml|javascript)\b|image\/svg\+xml)/;

/**
 * Answers made for one request, of 32 KB or more, in gzip to a client that takes it: a search's
 * hundred hits (about 95 KB of JSON), a large page document, an OpenAPI specification, a site's
 * llms-full.txt. Quire is often reached without a reverse proxy in front, and these bytes cross
 * a real network there. At zlib's fastest level, as nginx compresses by default, since each is
 * compressed anew; in zlib's threads, not the server's.
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
    if (payload.length < COMPRESS_FROM / 3 || Buffer.byteLength(payload) < COMPRESS_FROM) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;
    varyOnEncoding(reply);
    if (!acceptsGzip(request.headers['accept-encoding'])) return payload;
    try {
      const body = await gzip(payload, { level: zlib.constants.Z_BEST_SPEED });
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
