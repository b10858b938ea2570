import http from 'node:http';

/**
 * A small HTTP client for timed sequential requests: one keep-alive connection per client (so a
 * sample is one request on a warm socket, never a TCP handshake), the time taken from the
 * request's start to the last byte of its body (parsing JSON is not counted).
 */

export interface Answer {
  status: number;
  ms: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** A request's JSON payload and headers: the token, and the payload's type and length. */
export function outgoing(
  token: string | undefined,
  body: unknown,
  extra: Record<string, string>,
): { payload: string | undefined; headers: Record<string, string> } {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { ...extra };
  if (token) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return { payload, headers };
}

/** What the parts ask of a client: this one, or WorkerClient (a thread of its own). */
export interface HttpClient {
  request(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    extra?: Record<string, string>,
  ): Promise<Answer>;
  json<T = Record<string, unknown>>(
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<{ ms: number; json: T; bytes: number }>;
  /** The answer's bytes as sent (not decoded), whatever its status. */
  raw(
    method: string,
    pathAndQuery: string,
    extra?: Record<string, string>,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>;
  close(): void;
}

export class Client implements HttpClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly origin: URL;

  constructor(
    origin: string,
    private readonly token?: string,
  ) {
    this.origin = new URL(origin);
  }

  request(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    return this.bytes(method, pathAndQuery, body, extra).then(({ body: bytes, ...rest }) => ({
      ...rest,
      text: bytes.toString('utf8'),
    }));
  }

  async raw(
    method: string,
    pathAndQuery: string,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const { status, headers, body } = await this.bytes(method, pathAndQuery, undefined, extra);
    return { status, headers, body };
  }

  private bytes(
    method: string,
    pathAndQuery: string,
    body: unknown,
    extra: Record<string, string>,
  ): Promise<{ status: number; ms: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    const { payload, headers } = outgoing(this.token, body, extra);
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          agent: this.agent,
          host: this.origin.hostname,
          port: this.origin.port,
          method,
          path: pathAndQuery,
          headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              ms: performance.now() - started,
              body: Buffer.concat(chunks),
              headers: res.headers,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** A request that must answer 2xx (else it throws with the answer); the answer's JSON and time. */
  async json<T = Record<string, unknown>>(
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<{ ms: number; json: T; bytes: number }> {
    const answer = await this.request(method, pathAndQuery, body);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`${method} ${pathAndQuery} -> ${answer.status}: ${answer.text.slice(0, 500)}`);
    return {
      ms: answer.ms,
      json: (answer.text ? JSON.parse(answer.text) : null) as T,
      bytes: Buffer.byteLength(answer.text),
    };
  }

  close(): void {
    this.agent.destroy();
  }
}
