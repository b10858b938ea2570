import { type TSchema, Type } from 'typebox';

/** `{"error": {"code", "message"}}`: the body of every non-2xx answer. */
export const ErrorBody = Type.Object({
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
});

/** Error answers every authenticated route can give. */
export const STANDARD_ERRORS = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  412: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
};

export const Timestamp = Type.String({ format: 'date-time' });

/** Query of every paginated list. */
export const PageQuery = {
  page: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'Cursor of the page to fetch: the `next.page` of the previous answer',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Items per page (default 100)' }),
  ),
};

export const DEFAULT_PAGE_SIZE = 100;

/** `{items, count, next?: {page}}` around `item`. */
export function listOf<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    count: Type.Number(),
    next: Type.Optional(Type.Object({ page: Type.String() })),
  });
}

export const EmptyObject = Type.Object({});

/** An id in a path: a non-empty URL-safe string. */
export const IdParam = Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' });
