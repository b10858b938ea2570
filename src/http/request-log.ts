import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { RequestLogger } from './request-logger.js';

/**
 * One access-log line per request, written when it completes (method, URL, status, time), in
 * place of Fastify's two (an "incoming" line and a "completed" line with nested objects): every
 * log line is a cost on every request, and the completed line alone says what happened.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const entry = completedEntry(request.method, request.url, reply.statusCode, reply.elapsedTime);
    const log = reply.log;
    // Through the parent when request.log built no child of its own (request-logger.ts).
    if (log instanceof RequestLogger) {
      if (error) log.line('error', { ...entry, err: error }, 'request errored');
      else log.line('info', entry, 'request completed');
    } else if (error) log.error({ ...entry, err: error }, 'request errored');
    else log.info(entry, 'request completed');
  }
}

/** The fields of a request's access-log line (also written by the front door, front-door.ts). */
export function completedEntry(method: string, url: string, statusCode: number, milliseconds: number) {
  return { method, url, statusCode, responseTime: Math.round(milliseconds * 100) / 100 };
}
