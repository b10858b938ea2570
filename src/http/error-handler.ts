import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

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
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

export function errorBody(code: number, message: string) {
  return { error: { code, message } };
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

/** "body.title must NOT have more than 255 characters": names the field and the rule. */
function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const issue = issues[0];
  if (!issue) return 'Invalid request';
  let field = `${context ?? 'request'}${issue.instancePath.replaceAll('/', '.')}`;
  let rule = issue.message ?? 'is invalid';
  const params = issue.params as Record<string, unknown>;
  if (issue.keyword === 'required' && typeof params.missingProperty === 'string') {
    field = `${field}.${params.missingProperty}`;
    rule = 'is required';
  } else if (issue.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    rule = `must be one of: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (issue.keyword === 'const') {
    rule = `must be ${JSON.stringify(params.allowedValue)}`;
  } else if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    rule = `must not have the property "${params.additionalProperty}"`;
  } else if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') {
    rule = 'does not match any of the accepted forms';
  }
  return `Invalid request: ${field} ${rule}`;
}

/** Every non-2xx answer, thrown or not, leaves in the one error shape. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send(errorBody(error.status, error.message));
    }
    if (error.validation) {
      return reply
        .status(400)
        .send(errorBody(400, describeValidation(error.validationContext, error.validation)));
    }
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send(errorBody(status, STATUS_MESSAGES[status] ?? 'Internal server error'));
    }
    return reply.status(status).send(errorBody(status, clientErrorMessage(error, status)));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody(404, `No route for ${request.method} ${request.url.split('?')[0]}; see /openapi.json`));
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
