import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a path answers: a body (200), or a status, a delay, or any handler. */
export type Route =
  | string
  | { status?: number; body?: string; delayMs?: number; type?: string }
  | ((request: http.IncomingMessage, response: http.ServerResponse) => void);

/**
 * A real HTTP server on loopback that serves OpenAPI files (or misbehaves on purpose), and
 * records every connection and request it sees: tests that a URL is refused check that it was
 * never reached.
 */
export class SpecServer {
  readonly routes = new Map<string, Route>();
  readonly requests: string[] = [];
  connections = 0;
  private readonly server: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor() {
    this.server = http.createServer((request, response) => this.answer(request, response));
    this.server.on('connection', (socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<SpecServer> {
    const spec = new SpecServer();
    await new Promise<void>((resolve) => spec.server.listen(0, '127.0.0.1', resolve));
    return spec;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests seen for paths starting with `prefix`. */
  seen(prefix: string): number {
    return this.requests.filter((path) => path.startsWith(prefix)).length;
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const path = request.url ?? '/';
    this.requests.push(path);
    const route = this.routes.get(path) ?? this.routes.get(path.replace(/\/[^/]*$/, '/*'));
    if (route === undefined) {
      response.statusCode = 404;
      response.end('not found');
      return;
    }
    if (typeof route === 'function') {
      route(request, response);
      return;
    }
    const {
      status = 200,
      body = '',
      delayMs = 0,
      type = 'application/json',
    } = typeof route === 'string' ? { body: route } : route;
    const send = () => {
      if (response.destroyed) return;
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    if (delayMs > 0) setTimeout(send, delayMs).unref();
    else send();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
