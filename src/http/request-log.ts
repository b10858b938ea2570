import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

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
    const entry = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...entry, err: error }, 'request errored');
    else reply.log.info(entry, 'request completed');
  }
}
