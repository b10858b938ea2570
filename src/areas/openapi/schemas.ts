import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';

/**
 * API.md 2.4 and 0.202: letters of either case. 0.146 allows lower case only, so a spec with an
 * upper-case slug validates against 0.202 alone (the decision at the top of AREAS-2).
 */
export const SLUG_PATTERN = '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$';
export const SLUG = new RegExp(SLUG_PATTERN);
export const SLUG_MAX = 100;
export const SOURCE_URL_MAX = 2048;

export const OpenApiSlug = Type.String({ minLength: 1, maxLength: SLUG_MAX, pattern: SLUG_PATTERN });
const Url = Type.String({ format: 'uri', maxLength: SOURCE_URL_MAX });

/**
 * Officially a oneOf of `{url}` and `{text}`. Written as one object with both optional and
 * checked by the service, so that `{}` and a source with both get a message saying exactly that
 * rather than a union's "does not match any of the accepted forms".
 */
export const OpenApiSpecSource = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: SOURCE_URL_MAX,
        description: 'An http(s) URL the specification is fetched from, and refreshed from periodically',
      }),
    ),
    text: Type.Optional(
      Type.String({ minLength: 1, description: 'The specification itself, as JSON or YAML' }),
    ),
  },
  { description: 'Exactly one of `url` and `text`' },
);
export type OpenApiSpecSource = Static<typeof OpenApiSpecSource>;

export const OpenApiVisibility = Type.Enum(['private', 'public']);
export const ProcessingState = Type.Enum(['pending', 'progress', 'complete']);
export const ProcessingErrorCode = Type.Enum(['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR']);

export const CreateSpecBody = Type.Object({ slug: OpenApiSlug, source: OpenApiSpecSource });
export type CreateSpecBody = Static<typeof CreateSpecBody>;
export const PutSpecBody = Type.Object({ source: OpenApiSpecSource });
export const UpdateSpecBody = Type.Object({ visibility: OpenApiVisibility });

export const SpecParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  // Checked against the slug rule by the service: a malformed slug names no spec (404).
  specSlug: Type.String({ minLength: 1, maxLength: 256 }),
});
export const VersionParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  specSlug: Type.String({ minLength: 1, maxLength: 256 }),
  versionId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ListQuery = Type.Object(PageQuery);

export const ProcessingIssue = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

export const OpenApiSpec = Type.Object({
  object: Type.Literal('openapi-spec'),
  id: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  slug: Type.String(),
  sourceURL: Type.Optional(Url),
  processingState: ProcessingState,
  visibility: Type.Optional(OpenApiVisibility),
  lastVersion: Type.Optional(Type.String()),
  lastProcessedAt: Type.Optional(Timestamp),
  lastProcessErrorCode: Type.Optional(ProcessingErrorCode),
  lastProcessedErrors: Type.Optional(Type.Array(ProcessingIssue)),
  lastProcessedErrorCount: Type.Integer({ minimum: 0 }),
  permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
  urls: Type.Object({
    location: Url,
    app: Url,
    published: Type.Optional(Type.String({ format: 'uri' })),
  }),
});
export type OpenApiSpec = Static<typeof OpenApiSpec>;

export const OpenApiSpecVersion = Type.Object({
  object: Type.Literal('openapi-spec-version'),
  id: Type.String(),
  createdAt: Timestamp,
  url: Url,
  urls: Type.Object({ location: Url }),
});
export type OpenApiSpecVersion = Static<typeof OpenApiSpecVersion>;

/**
 * Valid in both versions: 0.146 requires `url`, 0.202 `urls`. `filesystem` is officially an
 * object; GitBook's is a list of files, so the one file is given under the key "0"
 * (`filesystem[0].specification` reads the same either way). Built as text by the presenter.
 */
export const OpenApiSpecContent = Type.Object({
  filesystem: Type.Record(
    Type.String(),
    Type.Object({
      dir: Type.String(),
      isEntrypoint: Type.Boolean(),
      references: Type.Array(Type.String()),
      filename: Type.String(),
      specification: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  url: Url,
  urls: Type.Object({ source: Url, public: Type.Union([Url, Type.Null()]) }),
});

export const OpenApiSpecRawContent = Type.Object({
  text: Type.String(),
  format: Type.Enum(['json', 'yaml']),
});
export type OpenApiSpecRawContent = Static<typeof OpenApiSpecRawContent>;
