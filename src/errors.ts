/**
 * The errors services raise. Each carries the HTTP status it maps to; the error handler turns it
 * into `{"error": {"code", "message"}}`. Messages say what is wrong and how to fix it.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
export const preconditionFailed = (message: string) => new ApiError(412, message);
export const tooManyRequests = (message: string) => new ApiError(429, message);

/** 400 naming the offending field, in the same form schema validation errors use. */
export const invalidField = (field: string, rule: string) =>
  new ApiError(400, `Invalid request: ${field} ${rule}`);

/**
 * A part the server depends on failed (its file storage): 503 with `Retry-After`, so clients and
 * load balancers try again rather than take it for a bug. The answer says only what failed and
 * what to do; the detail (where, which object, why) is the error's own message, for the log.
 */
export class Unavailable extends Error {
  readonly statusCode = 503;
  constructor(
    readonly publicMessage: string,
    detail: string,
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = 'Unavailable';
  }
}

/** Seconds a client is asked to wait before it tries again after an `Unavailable`. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
