import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, UNAVAILABLE_RETRY_AFTER_S, Unavailable } from '../errors.js';
import { quoted, schemaError } from '../validation.js';

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Authentication required',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  409: 'Conflict',
  411: 'A Content-Length header is required',
  412: 'Precondition failed',
  413: 'Request body too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** The router's limit on one path parameter (a longer one is answered 414 before any route runs). */
export const MAX_PARAM_LENGTH = 512;

/** Longest piece of the request (a path, a parameter) a message repeats; longer ones are cut. */
const MAX_ECHO = 100;

export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

/** The path of a request as a message may show it: without the query, cut to MAX_ECHO. */
function shownPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return path.length > MAX_ECHO ? `${path.slice(0, MAX_ECHO)}…` : path;
}

/** A double-quoted string in a message (JSON-style escapes allowed inside). */
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/**
 * Messages name what the caller sent ('Space "…" not found', 'No page at the path "…"'). Schemas
 * bound most of it, but not all (wildcard paths, values checked by services): wherever a
 * message repeats a path parameter or quotes a value longer than MAX_ECHO, it is cut, so a long
 * input is never sent back whole.
 */
function withoutLongEchoes(message: string, request: FastifyRequest): string {
  let out = message;
  const params = request.params;
  if (params && typeof params === 'object') {
    for (const value of Object.values(params as Record<string, unknown>)) {
      if (typeof value === 'string' && value.length > MAX_ECHO && out.includes(value)) {
        out = out.replaceAll(value, `${value.slice(0, MAX_ECHO)}…`);
      }
    }
  }
  return out.replace(QUOTED, (whole, inner: string) =>
    inner.length > MAX_ECHO ? `"${inner.slice(0, MAX_ECHO)}…"` : whole,
  );
}

/** Every non-2xx answer, thrown or not, leaves in the one error shape. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply
        .status(error.status)
        .send(errorBody(error.status, withoutLongEchoes(error.message, request)));
    }
    if (error.validation) {
      const invalid = schemaError(error.validationContext ?? 'request', error.validation);
      return reply.status(400).send(errorBody(400, invalid.message));
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (error instanceof Unavailable) {
      request.log.error({ err: error }, 'request failed');
      reply.header('Retry-After', UNAVAILABLE_RETRY_AFTER_S);
      return reply.status(503).send(errorBody(503, error.publicMessage));
    }
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send(errorBody(status, STATUS_MESSAGES[status] ?? 'Internal server error'));
    }
    return reply
      .status(status)
      .send(errorBody(status, withoutLongEchoes(clientErrorMessage(error, status), request)));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody(404, `No route for ${request.method} ${shownPath(request.url)}; see /openapi.json`));
  });
}

/** Fastify's own client errors (bad JSON, wrong content type, oversized body) with a useful message. */
function clientErrorMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return `Malformed JSON body: ${error.message}`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type: send the body as application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body too large: reduce its size or raise QUIRE_BODY_LIMIT';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Content-Length does not match the body';
    default:
      return error.message || STATUS_MESSAGES[status] || 'Bad request';
  }
}

/**
 * Errors Fastify answers before any route or hook runs (server options `frameworkErrors`):
 * a path that does not decode (`%zz`, `%`, invalid UTF-8) and a path segment longer than the
 * router's `maxParamLength`. Their default answers are in Fastify's own shape and quote the
 * whole URL; these are in ours and quote at most MAX_ECHO characters of it.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = quoted((request.raw.url ?? '').split('?', 1)[0]);
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    const message = `Malformed URL: ${path} has a % that does not start a valid UTF-8 escape; encode it as %25`;
    reply.status(400).send(errorBody(400, message));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const message = `URI too long: a path segment of ${path} is longer than ${MAX_PARAM_LENGTH} characters`;
    reply.status(414).send(errorBody(414, message));
  } else {
    request.log.error({ err: error }, 'request failed');
    reply.status(500).send(errorBody(500, STATUS_MESSAGES[500]!));
  }
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (server option
 * `clientErrorHandler`): an unknown method, headers over the size limit (a very long URL), a
 * malformed request line, a client too slow to send its headers. Answered in the error shape,
 * then the connection is closed, as Node and Fastify do.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'Malformed HTTP request';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'Request timeout: the request was not sent in time';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'Request header fields too large: shorten the URL or the headers';
  } else if (error.code === 'HPE_INVALID_METHOD') {
    message = 'Unknown HTTP method';
  } else if (error.code === 'HPE_INVALID_URL') {
    message = 'Malformed URL in the request line';
  }
  if (socket.writable) {
    const body = JSON.stringify(errorBody(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
