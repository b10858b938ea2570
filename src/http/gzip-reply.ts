import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GzipBody, GzipParts } from './gzip-parts.js';

/** Bodies of fewer bytes are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_FROM = 32 * 1024;

/** Replies whose encoding `sendParts` chose: compress-answers.ts leaves them as they are. */
const chosen = new WeakSet<FastifyReply>();

export function encodingChosen(reply: FastifyReply): boolean {
  return chosen.has(reply);
}

/** The answer differs by Accept-Encoding: caches keep its encodings apart. */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/** Whether the request takes a gzip body (`Accept-Encoding`, its q-values honored). */
export function acceptsGzip(header: string | undefined): boolean {
  return header !== undefined && negotiate(header, ['gzip']) === 'gzip';
}

/**
 * A body already encoded, as parts, sent in gzip to a client that takes it (fetch, the official
 * client and browsers do) once its compressed parts are at hand, else as it is. A large answer's
 * bytes, not the server, were its time on the wire: the 100,000-page tree is 56 MiB of JSON and
 * 4 MiB in gzip.
 */
export async function sendParts(
  request: FastifyRequest,
  reply: FastifyReply,
  body: GzipBody,
  gzip: GzipParts,
): Promise<FastifyReply> {
  chosen.add(reply);
  if (body.length >= COMPRESS_FROM) {
    varyOnEncoding(reply);
    if (acceptsGzip(request.headers['accept-encoding'])) {
      // A failure to compress is not the reader's: the body goes as it is.
      const compressed = await gzip.of(body.parts).catch(() => undefined);
      if (compressed) {
        reply.header('content-encoding', 'gzip');
        body = compressed;
      }
    }
  }
  if (body.parts.length === 1) return reply.send(body.parts[0]);
  return sendAtOnce(reply, body);
}

/**
 * Many buffers written to the socket at once, corked: a few system calls for the two thousand
 * parts of a tree. Piped from a stream, each part was a write of its own and a turn of its
 * machinery (list pages of the 100,000-page tree right after a merge, scratch on SQLite: median
 * 19.4 and 17.5 ms piped, 14.8 and 14.3 written at once). The reply is taken over from Fastify
 * with the headers and status it was given. No onSend hook runs: the one registered
 * (compress-answers.ts) leaves bodies sent here alone, and one added for every answer would not
 * see these.
 */
function sendAtOnce(reply: FastifyReply, body: GzipBody): FastifyReply {
  reply.hijack();
  const response = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) response.setHeader(name, value);
  response.setHeader('content-length', body.length);
  response.writeHead(reply.statusCode);
  response.cork();
  for (const part of body.parts) response.write(part);
  response.end();
  return reply;
}
