import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { documentProfile } from '../../http/client-version.js';
import type { GzipParts } from '../../http/gzip-parts.js';
import { sendParts } from '../../http/gzip-reply.js';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentChangeRequest } from '../change-requests/present.js';
import { type ContentContext, presentFile, presentPage, presentRevisionBesidesPages } from './present.js';
import type { ContentTarget, OpenContent } from './service.js';
import { type EncodedJson, joinObjects, PageTreeJson } from './tree-json.js';

/** Bytes of page-tree JSON kept for repeated reads: two trees of 100,000 pages (56 MiB each). */
const PAGE_TREE_JSON_BUDGET = 128 * 2 ** 20;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * JSON already serialized and encoded (of the route's response schema): sent as it is, its parts
 * one after the other, or in gzip from the parts' kept compressed blocks.
 */
function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  json: EncodedJson,
  gzip: GzipParts,
): Promise<FastifyReply> {
  reply.type(JSON_TYPE);
  return sendParts(request, reply, json, gzip);
}

/**
 * Revisions, pages and files are deep, recursive trees; their responses are declared open so the
 * serializer passes the presented objects through unchanged (tests check them against the
 * official schemas).
 */
const Open = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

const Flags = {
  metadata: Type.Optional(Type.Boolean()),
  computed: Type.Optional(Type.Boolean()),
};
const PageQuery = Type.Object({
  ...Flags,
  format: Type.Optional(Type.Enum(['document', 'markdown'])),
  evaluated: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('deterministic-only')])),
  dereferenced: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('reusable-contents')])),
  'format.markdown.refs': Type.Optional(Type.Enum(['relative', 'stable'])),
});
const FilesQuery = Type.Object({
  ...Flags,
  page: Type.Optional(Type.String({ maxLength: 2048 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
const Id = Type.String({ minLength: 1, maxLength: 128 });

interface Family {
  /** Route prefix, e.g. `/v1/spaces/:spaceId/content`. */
  prefix: string;
  /** Extra path parameters of the family (beyond spaceId). */
  params: Record<string, TSchema>;
  target: (params: Record<string, string>) => ContentTarget;
  ops: {
    content: string;
    pages: string;
    page: string;
    path: string;
    files: string;
    file: string;
  };
}

const FAMILIES: Family[] = [
  {
    prefix: '/v1/spaces/:spaceId/content',
    params: {},
    target: () => ({ kind: 'space' }),
    ops: {
      content: 'getCurrentRevision',
      pages: 'listPages',
      page: 'getPageById',
      path: 'getPageByPath',
      files: 'listFiles',
      file: 'getFileById',
    },
  },
  {
    prefix: '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
    params: { changeRequestId: Id },
    target: (p) => ({ kind: 'change-request', id: p.changeRequestId! }),
    ops: {
      content: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      page: 'getPageInChangeRequestById',
      path: 'getPageInChangeRequestByPath',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
    },
  },
  {
    prefix: '/v1/spaces/:spaceId/revisions/:revisionId',
    params: { revisionId: Id },
    target: (p) => ({ kind: 'revision', id: p.revisionId! }),
    ops: {
      content: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      page: 'getPageInRevisionById',
      path: 'getPageInRevisionByPath',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
    },
  },
];

export function contentRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['content'];
  const trees = new PageTreeJson(PAGE_TREE_JSON_BUDGET);
  const { gzip } = app.quire;

  for (const family of FAMILIES) {
    const params = (extra: Record<string, TSchema> = {}) =>
      Type.Object({ spaceId: Id, ...family.params, ...extra });
    const open = (request: { actor: Parameters<typeof services.content.open>[0]; params: unknown }) => {
      const p = request.params as Record<string, string>;
      return services.content.open(request.actor, p.spaceId!, family.target(p));
    };
    const context = (content: OpenContent, query: { metadata?: boolean | undefined }): ContentContext => ({
      spaceId: content.space.id,
      urls,
      index: content.index,
      metadata: query.metadata ?? true,
    });
    const sub = (path: string) => `${family.prefix}${path}`;

    app.get(
      family.prefix,
      {
        schema: {
          operationId: family.ops.content,
          tags,
          params: params(),
          querystring: Type.Object(Flags),
          response: { 200: Open, ...STANDARD_ERRORS },
        },
      },
      async (request, reply) => {
        const content = await open(request);
        const mergedFrom = content.mergedFrom ? presentChangeRequest(content.mergedFrom, urls) : undefined;
        const ctx = context(content, request.query);
        const rest = presentRevisionBesidesPages(content.revision, content.snapshot.content, ctx, mergedFrom);
        // Encoded JSON, with a JSON type: sent as it is, not serialized again.
        return sendJson(request, reply, joinObjects(trees.of(content, ctx), JSON.stringify(rest)), gzip);
      },
    );

    app.get(
      sub('/pages'),
      {
        schema: {
          operationId: family.ops.pages,
          tags,
          params: params(),
          querystring: Type.Object(Flags),
          response: { 200: Type.Object({ pages: Type.Array(Open) }), ...STANDARD_ERRORS },
        },
      },
      async (request, reply) => {
        const content = await open(request);
        return sendJson(request, reply, trees.of(content, context(content, request.query)), gzip);
      },
    );

    app.get(
      sub('/page/:pageId'),
      {
        schema: {
          operationId: family.ops.page,
          tags,
          params: params({ pageId: Id }),
          querystring: PageQuery,
          response: { 200: Open, ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const content = await open(request);
        const page = services.content.page(content, (request.params as Record<string, string>).pageId!);
        const body = await services.content.body(
          content,
          page,
          request.query.format ?? 'document',
          documentProfile(request.headers['user-agent']),
        );
        return presentPage(
          page,
          context(content, request.query),
          page.type === 'document' ? body : undefined,
        );
      },
    );

    app.get(
      sub('/path/*'),
      {
        schema: {
          operationId: family.ops.path,
          tags,
          params: params({ '*': Type.String({ maxLength: 2048 }) }),
          querystring: PageQuery,
          response: { 200: Open, ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const content = await open(request);
        const page = services.content.pageByPath(
          content,
          (request.params as Record<string, string>)['*'] ?? '',
        );
        const body = await services.content.body(
          content,
          page,
          request.query.format ?? 'document',
          documentProfile(request.headers['user-agent']),
        );
        return presentPage(
          page,
          context(content, request.query),
          page.type === 'document' ? body : undefined,
        );
      },
    );

    app.get(
      sub('/files'),
      {
        schema: {
          operationId: family.ops.files,
          tags,
          params: params(),
          querystring: FilesQuery,
          response: { 200: listOf(Open), ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const content = await open(request);
        const page = services.content.files(content, request.query);
        const ctx = context(content, request.query);
        return { ...page, items: page.items.map((file) => presentFile(file, ctx)) };
      },
    );

    app.get(
      sub('/files/:fileId'),
      {
        schema: {
          operationId: family.ops.file,
          tags,
          params: params({ fileId: Id }),
          querystring: Type.Object(Flags),
          response: { 200: Open, ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const content = await open(request);
        const file = services.content.file(content, (request.params as Record<string, string>).fileId!);
        return presentFile(file, context(content, request.query));
      },
    );
  }
}

/** Starting a space from a built-in template (into a change request, never straight to main). */
export function templateRoutes(app: App): void {
  const { services } = app.quire;
  app.post(
    '/v1/spaces/:spaceId/content/template',
    {
      schema: {
        operationId: 'applyTemplateToSpace',
        tags: ['content'],
        params: Type.Object({ spaceId: Id }),
        body: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 128 }),
          params: Type.Optional(Type.Object({}, { additionalProperties: true })),
          changeRequestId: Type.Optional(Id),
        }),
        response: { 201: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const crId = await services.templates.apply(
        request.actor,
        request.params.spaceId,
        request.body.id,
        request.body.params,
        request.body.changeRequestId,
      );
      return reply
        .code(201)
        .header('Location', app.quire.urls.api(`/spaces/${request.params.spaceId}/change-requests/${crId}`))
        .send(null);
    },
  );
}
