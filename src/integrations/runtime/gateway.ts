import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A request a script made with fetch(), as the gateway received it. */
export interface GatewayRequest {
  method: string;
  /** Absolute: workerd speaks to the gateway as to an HTTP proxy. */
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Decides what one script's fetch() gets; the runtime's owner supplies it (see runtime.ts). */
export type GatewayHandler = (request: GatewayRequest) => Promise<GatewayResponse>;

/** Headers that describe one hop and must not be passed on. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
]);

/**
 * The only way out of a worker process: an HTTP server on a Unix socket that workerd uses as
 * the script's global outbound. Every request is read whole (up to `maxBodyBytes`) and handed
 * to `handle`; a failure of `handle` is answered 502 with its message, never a crash.
 */
export async function startGateway(
  socketPath: string,
  handle: GatewayHandler,
  maxBodyBytes: number,
): Promise<{ close(): Promise<void> }> {
  rmSync(socketPath, { force: true });
  // workerd's proxy-style requests carry the full URL and no Host header.
  const server: Server = createServer({ requireHostHeader: false }, (request, response) => {
    void (async () => {
      const answer = await readBody(request, maxBodyBytes)
        .then(
          async (body) => {
            if (body === 'too-large') {
              return plain(413, `Request bodies from integrations are limited to ${maxBodyBytes} bytes`);
            }
            return handle({
              method: request.method ?? 'GET',
              url: request.url ?? '/',
              headers: flat(request),
              body,
            });
          },
          (error: Error) => plain(400, `Unreadable request: ${error.message}`),
        )
        .catch((error: Error) => plain(502, error.message));
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_HEADERS.has(name.toLowerCase()) && name.toLowerCase() !== 'content-length')
          headers[name] = value;
      }
      headers['content-length'] = String(answer.body.length);
      response.writeHead(answer.status, headers).end(answer.body);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function plain(status: number, message: string): GatewayResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(message) };
}

function flat(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_HEADERS.has(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function readBody(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(over ? 'too-large' : size === 0 ? undefined : Buffer.concat(chunks, size)),
    );
    request.on('error', reject);
  });
}
