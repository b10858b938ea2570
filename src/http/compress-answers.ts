import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { giveWay } from '../time-slices.js';
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
 * Once made (compressed, or encoded for a client that takes no gzip), an answer is written after
 * a turn of the event loop: the requests that arrived while it was made go on first. Writing it
 * is one more long step (about a millisecond for a 100-hit search on loopback), and they waited
 * for the making and the writing at once.
 *
 * Answers kept as buffers (page trees, published pages) chose their encoding in `sendParts`,
 * from blocks compressed once; this hook leaves them as they are, even those sent uncompressed
 * while their blocks are made (compressing a 56 MiB tree here would take half a second).
 */
export function compressAnswers(app: App): void {
  // A callback, not an async hook: most answers pass through untouched, without a promise each.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!compressible(reply, payload)) return done(null, payload);
    varyOnEncoding(reply);
    // Sent from a promise: a throw while sending would otherwise be an unhandled rejection,
    // which ends the process.
    const afterATurn = (send: () => void) =>
      void giveWay()
        .then(send)
        .catch((error: unknown) => request.log.error({ err: error }, 'could not send the answer'));
    if (!acceptsGzip(request.headers['accept-encoding'])) {
      const body = encoded(payload);
      return afterATurn(() => done(null, body));
    }
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
    if (bytesAtLeast(payload, SYNC_BELOW)) return zlib.gzip(payload, options, send);
    let body: Buffer;
    try {
      body = zlib.gzipSync(payload, options);
    } catch (error) {
      return send(error as Error);
    }
    afterATurn(() => send(null, body));
  });
}

/**
 * An answer sent uncompressed leaves as bytes encoded here, once: given a string, Fastify counts
 * its UTF-8 bytes for Content-Length and the socket encodes it again. (A long list is bytes
 * already: validators.ts.)
 */
function encoded(payload: string | Buffer): Buffer {
  return typeof payload === 'string' ? Buffer.from(payload) : payload;
}

/** Whether the answer is one to compress. */
function compressible(reply: FastifyReply, payload: unknown): payload is string | Buffer {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  if (!bytesAtLeast(payload, COMPRESS_FROM)) return false;
  if (encodingChosen(reply) || reply.hasHeader('content-encoding') || reply.hasHeader('content-range'))
    return false;
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return false;
  return !/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''));
}

/**
 * Whether `payload` is `bytes` long or longer in UTF-8, told from its length alone unless it
 * falls between: a string of n UTF-16 units is n to 3n bytes. Counting the bytes of a 100-hit
 * search's answer (95 KB, not all ASCII) took as long as serializing it (perf of the large
 * space's searches: 3.4% of the server's time each).
 */
export function bytesAtLeast(payload: string | Buffer, bytes: number): boolean {
  if (payload.length >= bytes) return true;
  if (typeof payload !== 'string' || payload.length * 3 < bytes) return false;
  return Buffer.byteLength(payload) >= bytes;
}
