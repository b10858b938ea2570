import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { acceptsGzip, COMPRESS_FROM, encodingChosen, varyOnEncoding } from './gzip-reply.js';
import type { App } from './types.js';

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
  // A callback, not an async hook: most answers pass through untouched, without a promise each.
  app.addHook('onSend', (request, reply, payload, done) => {
    const bytes = compressible(reply, payload);
    if (bytes === undefined) return done(null, payload);
    varyOnEncoding(reply);
    if (!acceptsGzip(request.headers['accept-encoding'])) return done(null, payload);
    const send = (error: Error | null, body?: Buffer) => {
      if (error || !body) {
        // Not the client's failure: the answer goes as it is.
        request.log.warn({ err: error }, 'could not compress the answer; sent uncompressed');
        return done(null, payload);
      }
      reply.header('content-encoding', 'gzip');
      reply.removeHeader('content-length');
      done(null, body);
    };
    const options = { level: zlib.constants.Z_BEST_SPEED };
    if (bytes >= SYNC_BELOW) return zlib.gzip(payload as string | Buffer, options, send);
    let body: Buffer;
    try {
      body = zlib.gzipSync(payload as string | Buffer, options);
    } catch (error) {
      return send(error as Error);
    }
    send(null, body);
  });
}

/** The answer's length in bytes when it is one to compress, else undefined. */
function compressible(reply: FastifyReply, payload: unknown): number | undefined {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  // A string of n characters is at most 3n bytes: most answers are told without counting.
  if (payload.length < COMPRESS_FROM / 3) return undefined;
  if (encodingChosen(reply) || reply.hasHeader('content-encoding') || reply.hasHeader('content-range'))
    return undefined;
  const bytes = Buffer.byteLength(payload);
  if (bytes < COMPRESS_FROM) return undefined;
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return undefined;
  if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return undefined;
  return bytes;
}
