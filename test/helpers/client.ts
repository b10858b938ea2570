import { GitBookAPI } from '@gitbook/api';
import { GitBookAPI as GitBookAPI146 } from 'gitbook-api-0146';
import { checkResponse } from './official-spec.js';

/** Every operation a test file's responses were checked against, for coverage reports. */
export const checkedOperations = new Set<string>();

/**
 * fetch that checks every response against the official schema of its operation (both API
 * versions) and fails the call when it does not validate.
 */
export async function checkedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (!url.pathname.startsWith('/v1')) return response;
  const apiPath = url.pathname.slice(3) || '/';
  const text = await response.clone().text();
  let body: unknown = null;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(
        `${method} ${url.pathname} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
      );
    }
  }
  if (response.status === 204 && text !== '')
    throw new Error(`${method} ${url.pathname} answered 204 with a body`);
  const { operations, problems } = checkResponse(method, apiPath, response.status, body);
  for (const op of operations) checkedOperations.add(op);
  if (problems.length > 0 && problems.every((p) => p.version === '0.146') && method === 'GET') {
    // A 0.202 client is sent documents with nodes 0.146 does not have. Quire negotiates: the
    // same request from a client that says no version must then validate against both.
    const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
    if (/@gitbook\/api\/0\.2\d\d\./.test(headers.get('user-agent') ?? '')) {
      headers.set('user-agent', 'quire-tests');
      await checkedFetch(url.toString(), { ...init, method, headers });
      return response;
    }
  }
  if (problems.length > 0) {
    const detail = problems
      .map((p) => `  ${p.operationId}@${p.version}:\n    ${p.errors.join('\n    ')}`)
      .join('\n');
    throw new Error(
      `${method} ${url.pathname} -> ${response.status} does not match the official schema:\n${detail}\nbody: ${text.slice(0, 1500)}`,
    );
  }
  return response;
}

/** The official client (0.202.0) pointed at a Quire server, with every response checked. */
export function apiClient(baseUrl: string, token?: string): GitBookAPI {
  return new GitBookAPI({ endpoint: baseUrl, authToken: token, serviceBinding: { fetch: checkedFetch } });
}

/** The 0.146.0 client, for operations only it has. */
export function apiClient146(baseUrl: string, token?: string): GitBookAPI146 {
  return new GitBookAPI146({ endpoint: baseUrl, authToken: token, serviceBinding: { fetch: checkedFetch } });
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** A plain HTTP call (for malformed input the client would never send), still schema-checked. */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: string | object; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await checkedFetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
