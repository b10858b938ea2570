import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A translation service on loopback for tests: it speaks the three protocols Quire's providers
 * use (OpenAI-compatible chat completions, LibreTranslate, DeepL), answers deterministically
 * (text outside tags and character references upper-cased), records every request, and can be
 * told to fail.
 */
export type Failure =
  /** Answers normally (to let some requests through before the failures that follow). */
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'timeout' }
  | { kind: 'wrong-count' }
  | { kind: 'malformed' }
  /** Drops the tags of segments containing `marker`. */
  | { kind: 'break-tags'; marker: string };

export interface Recorded {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The segments it was asked to translate. */
  segments: string[];
}

export interface TranslationServer {
  url: string;
  requests: Recorded[];
  /** Failures to give, in order, before answering normally again (each entry once). */
  failures: Failure[];
  /** Segments sent across all requests. */
  segmentsSent(): string[];
  close(): Promise<void>;
}

export function translate(segment: string): string {
  return segment
    .split(/(<[^>]*>|&[a-z]+;|&#\d+;)/g)
    .map((part, i) => (i % 2 === 1 ? part : part.toUpperCase()))
    .join('');
}

function segmentsOf(path: string, body: Record<string, unknown>): string[] {
  if (path === '/v1/chat/completions') {
    const messages = body.messages as Array<{ role: string; content: string }>;
    const user = messages.find((m) => m.role === 'user')!;
    return (JSON.parse(user.content) as { segments: string[] }).segments;
  }
  if (path === '/translate') return body.q as string[];
  return body.text as string[];
}

function answer(path: string, texts: string[]): unknown {
  if (path === '/v1/chat/completions') {
    return {
      choices: [{ message: { role: 'assistant', content: JSON.stringify({ translations: texts }) } }],
    };
  }
  if (path === '/translate') return { translatedText: texts };
  return { translations: texts.map((text) => ({ detected_source_language: 'EN', text })) };
}

export async function startTranslationServer(): Promise<TranslationServer> {
  const state: TranslationServer = {
    url: '',
    requests: [],
    failures: [],
    segmentsSent: () => state.requests.flatMap((r) => r.segments),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      const segments = segmentsOf(path, body);
      state.requests.push({ path, headers: request.headers, body, segments });
      const failure = state.failures.shift();
      if (failure?.kind === 'timeout') return; // never answers; the client's timeout ends it
      if (failure?.kind === 'status') {
        response.writeHead(failure.status, {
          'content-type': 'application/json',
          ...(failure.retryAfter ? { 'retry-after': failure.retryAfter } : {}),
        });
        response.end(JSON.stringify({ error: `told to fail with ${failure.status}` }));
        return;
      }
      if (failure?.kind === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"translations": [');
        return;
      }
      let texts = segments.map(translate);
      if (failure?.kind === 'wrong-count') texts = texts.slice(1);
      if (failure?.kind === 'break-tags') {
        texts = texts.map((t) => (t.includes(failure.marker.toUpperCase()) ? t.replace(/<[^>]*>/g, '') : t));
        // Not used up while its marker has not come yet.
        if (!segments.some((s) => s.includes(failure.marker))) state.failures.unshift(failure);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer(path, texts)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
