import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentContentJson, presentSpec, presentVersion } from './present.js';
import {
  CreateSpecBody,
  ListQuery,
  OpenApiSpec,
  OpenApiSpecContent,
  OpenApiSpecRawContent,
  OpenApiSpecVersion,
  PutSpecBody,
  SpecParams,
  UpdateSpecBody,
  VersionParams,
} from './schemas.js';

const SPEC = '/v1/orgs/:organizationId/openapi/:specSlug';
const JSON_TYPE = 'application/json; charset=utf-8';

/** OpenAPI specifications (API.md 4.3) and their versions (CONTRACT §4 #32, 0.202's content). */
export function openApiRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['openapi'];

  app.get(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        operationId: 'listOpenAPISpecs',
        tags,
        params: Type.Pick(SpecParams, ['organizationId']),
        querystring: ListQuery,
        response: { 200: listOf(OpenApiSpec), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.openapi.list(request.actor, request.params.organizationId, request.query);
      return { ...page, items: page.items.map((view) => presentSpec(view, urls)) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/openapi',
    {
      schema: {
        operationId: 'createOpenAPISpec',
        tags,
        params: Type.Pick(SpecParams, ['organizationId']),
        body: CreateSpecBody,
        response: { 201: OpenApiSpec, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const spec = presentSpec(
        await services.openapi.create(request.actor, request.params.organizationId, request.body),
        urls,
      );
      return reply.code(201).header('Location', spec.urls.location).send(spec);
    },
  );

  app.get(
    SPEC,
    {
      schema: {
        operationId: 'getOpenAPISpecBySlug',
        tags,
        params: SpecParams,
        response: { 200: OpenApiSpec, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return presentSpec(await services.openapi.get(request.actor, organizationId, specSlug), urls);
    },
  );

  app.put(
    SPEC,
    {
      schema: {
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        tags,
        params: SpecParams,
        body: PutSpecBody,
        response: { 200: OpenApiSpec, 201: OpenApiSpec, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const { view, created } = await services.openapi.put(
        request.actor,
        organizationId,
        specSlug,
        request.body.source,
      );
      const spec = presentSpec(view, urls);
      if (created) reply.code(201).header('Location', spec.urls.location);
      return reply.send(spec);
    },
  );

  app.patch(
    SPEC,
    {
      schema: {
        operationId: 'updateOpenAPISpecBySlug',
        tags,
        params: SpecParams,
        body: UpdateSpecBody,
        response: { 200: OpenApiSpec, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      return presentSpec(
        await services.openapi.setVisibility(
          request.actor,
          organizationId,
          specSlug,
          request.body.visibility,
        ),
        urls,
      );
    },
  );

  app.delete(
    SPEC,
    {
      schema: {
        operationId: 'deleteOpenAPISpecBySlug',
        tags,
        params: SpecParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      await services.openapi.delete(request.actor, organizationId, specSlug);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${SPEC}/versions`,
    {
      schema: {
        operationId: 'listOpenAPISpecVersions',
        tags,
        params: SpecParams,
        querystring: ListQuery,
        response: { 200: listOf(OpenApiSpecVersion), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { spec, page } = await services.openapi.listVersions(
        request.actor,
        organizationId,
        specSlug,
        request.query,
      );
      return { ...page, items: page.items.map((version) => presentVersion(spec, version, urls)) };
    },
  );

  // `latest` and a version id share each route: the service reads `latest` as the spec's last version.
  for (const [suffix, operationId, params] of [
    ['latest', 'getLatestOpenAPISpecVersion', SpecParams],
    [':versionId', 'getOpenAPISpecVersionById', VersionParams],
  ] as const) {
    app.get(
      `${SPEC}/versions/${suffix}`,
      {
        schema: { operationId, tags, params, response: { 200: OpenApiSpecVersion, ...STANDARD_ERRORS } },
      },
      async (request) => {
        const { organizationId, specSlug } = request.params;
        const ref = 'versionId' in request.params ? (request.params.versionId as string) : 'latest';
        const { spec, version } = await services.openapi.version(
          request.actor,
          organizationId,
          specSlug,
          ref,
        );
        return presentVersion(spec, version, urls);
      },
    );
  }

  for (const [suffix, operationId, params] of [
    ['latest', 'getLatestOpenAPISpecVersionContent', SpecParams],
    [':versionId', 'getOpenAPISpecVersionContentById', VersionParams],
  ] as const) {
    app.get(
      `${SPEC}/versions/${suffix}/content`,
      {
        schema: { operationId, tags, params, response: { 200: OpenApiSpecContent, ...STANDARD_ERRORS } },
      },
      async (request, reply) => {
        const { organizationId, specSlug } = request.params;
        const ref = 'versionId' in request.params ? (request.params.versionId as string) : 'latest';
        const { spec, version, documentJson } = await services.openapi.content(
          request.actor,
          organizationId,
          specSlug,
          ref,
        );
        // Sent as text: the document is spliced in as stored, not serialized again.
        return reply.type(JSON_TYPE).send(presentContentJson(spec, version, documentJson, urls) as never);
      },
    );
  }

  // 0.202 has the latest one; the one by id is where each version's `url` points.
  for (const [suffix, operationId, params] of [
    ['latest', 'getLatestOpenAPISpecVersionContentRaw', SpecParams],
    [':versionId', 'getOpenAPISpecVersionContentRawById', VersionParams],
  ] as const) {
    app.get(
      `${SPEC}/versions/${suffix}/content/raw`,
      {
        schema: { operationId, tags, params, response: { 200: OpenApiSpecRawContent, ...STANDARD_ERRORS } },
      },
      async (request) => {
        const { organizationId, specSlug } = request.params;
        const ref = 'versionId' in request.params ? (request.params.versionId as string) : 'latest';
        return services.openapi.rawContent(request.actor, organizationId, specSlug, ref);
      },
    );
  }
}

/**
 * The public copy of a spec, for tools and "try it" consoles on published pages: no token, any
 * origin, and 404 while the spec is private (the same answer as for a spec that does not exist).
 */
export function publicOpenApiRoutes(app: App): void {
  const { services } = app.quire;
  app.get(
    PUBLIC_SPEC_ROUTE,
    {
      config: { public: true },
      schema: {
        hide: true,
        params: Type.Object({
          organizationId: Type.String({ minLength: 1, maxLength: 128 }),
          specSlug: Type.String({ minLength: 1, maxLength: 256 }),
        }),
      },
    },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      const content = await services.openapi.publicContent(organizationId, specSlug);
      reply.header('Access-Control-Allow-Origin', '*');
      if (!content) throw notFound(`No public OpenAPI specification "${specSlug}" here`);
      const etag = `"${content.versionId}"`;
      reply
        .header('ETag', etag)
        .header('Cache-Control', 'public, max-age=60')
        .header('X-Content-Type-Options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply
        .type(content.format === 'json' ? JSON_TYPE : 'application/yaml; charset=utf-8')
        .send(content.body);
    },
  );
}

export const PUBLIC_SPEC_ROUTE = '/openapi/o/:organizationId/:specSlug';
