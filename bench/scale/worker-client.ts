import type { IncomingHttpHeaders } from 'node:http';
import { Worker } from 'node:worker_threads';
import { type Answer, type HttpClient, outgoing } from './http.js';

interface Reply {
  id: number;
  error?: string;
  status: number;
  ms: number;
  bytes: number;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
}

/**
 * The client of the latency parts, in a thread of its own (client-worker.mjs): a client is never
 * inside the server's heap, and in it, it measured itself. Receiving the 56 MiB tree of a
 * 100,000-page space took 120-145 ms in the heap of the server holding that space, both from
 * Quire and from node:http sending the same bytes, and 13-18 ms from this thread (32 ms in an
 * empty process): the bytes received, concatenated and decoded there were the server's garbage
 * to collect. The time is still taken where the requests are made, from a request's start to the
 * last byte of its body; answers to `request` bring back only their first bytes.
 */
export class WorkerClient implements HttpClient {
  private readonly worker: Worker;
  private readonly waiting = new Map<
    number,
    { resolve: (reply: Reply) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;

  constructor(
    origin: string,
    private readonly token?: string,
  ) {
    this.worker = new Worker(new URL('./client-worker.mjs', import.meta.url), { workerData: { origin } });
    this.worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(reply);
    });
    this.worker.on('error', (error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
  }

  private send(
    method: string,
    path: string,
    body: unknown,
    extra: Record<string, string>,
    keepBody: boolean,
    delayMs = 0,
  ) {
    const { payload, headers } = outgoing(this.token, body, extra);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, method, path, headers, payload, keepBody, delayMs });
    });
  }

  /** The answer with its first 2,000 bytes as `text` (enough to say what went wrong). */
  async request(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Answer> {
    return answerOf(await this.send(method, pathAndQuery, body, extra, false));
  }

  /**
   * A GET made `delayMs` after it is asked, the pause taken on the client's thread and not timed.
   * Paused on this thread, the request left when the server's event loop (this thread's, in the
   * latency parts) ran its timers: between two stretches of the server's work, rarely during one.
   */
  async getAfter(delayMs: number, pathAndQuery: string): Promise<Answer> {
    return answerOf(await this.send('GET', pathAndQuery, undefined, {}, false, delayMs));
  }

  async json<T = Record<string, unknown>>(
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<{ ms: number; json: T; bytes: number }> {
    const reply = await this.send(method, pathAndQuery, body, {}, true);
    const text = Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength).toString(
      'utf8',
    );
    if (reply.status < 200 || reply.status >= 300)
      throw new Error(`${method} ${pathAndQuery} -> ${reply.status}: ${text.slice(0, 500)}`);
    return { ms: reply.ms, json: (text ? JSON.parse(text) : null) as T, bytes: reply.bytes };
  }

  async raw(
    method: string,
    pathAndQuery: string,
    extra: Record<string, string> = {},
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const reply = await this.send(method, pathAndQuery, undefined, extra, true);
    return {
      status: reply.status,
      headers: reply.headers,
      body: Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength),
    };
  }

  close(): void {
    this.worker.postMessage({ close: true });
    void this.worker.terminate();
  }
}

function answerOf(reply: Reply): Answer {
  return {
    status: reply.status,
    ms: reply.ms,
    text: Buffer.from(reply.body).toString('utf8'),
    headers: reply.headers,
  };
}
