import { Type } from 'typebox';
import { notFound } from '../../errors.js';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentInstallation, presentIntegration } from './present.js';
import {
  AssetParams,
  InstallationParams,
  InstallIntegrationBody,
  Integration,
  IntegrationInstallation,
  IntegrationParams,
  ListInstallationsQuery,
  ListIntegrationsQuery,
  OrganizationInstallation,
  PublishIntegrationBody,
} from './schemas.js';
import { viewerOf } from './viewer.js';

const INTEGRATION = '/v1/integrations/:integrationName';

/**
 * Integrations (API.md 4.13) and the extras a usable server needs (CONTRACT §4: install,
 * unpublish, an organization's installations). The public endpoint of an integration
 * (`urls.publicEndpoint`) belongs to the runtime, in endpoint-routes.ts.
 */
export function integrationRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['integrations'];

  app.get(
    '/v1/integrations',
    {
      config: { public: true },
      schema: {
        operationId: 'listIntegrations',
        tags,
        security: [],
        querystring: ListIntegrationsQuery,
        response: { 200: listOf(Integration), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const page = await services.integrations.list(viewer, request.query);
      return { ...page, items: page.items.map((view) => presentIntegration(view, urls)) };
    },
  );

  app.get(
    INTEGRATION,
    {
      config: { public: true },
      schema: {
        operationId: 'getIntegrationByName',
        tags,
        security: [],
        params: IntegrationParams,
        response: { 200: Integration, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      return presentIntegration(
        await services.integrations.get(viewer, request.params.integrationName),
        urls,
      );
    },
  );

  app.post(
    INTEGRATION,
    {
      schema: {
        operationId: 'publishIntegration',
        tags,
        params: IntegrationParams,
        body: PublishIntegrationBody,
        response: { 200: Integration, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentIntegration(
        await services.integrations.publish(request.actor, request.params.integrationName, request.body),
        urls,
      ),
  );

  app.delete(
    INTEGRATION,
    {
      schema: {
        operationId: 'unpublishIntegration',
        tags,
        params: IntegrationParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.integrations.unpublish(request.actor, request.params.integrationName);
      return reply.code(204).send(null);
    },
  );

  // Always 201, with the installation there already when it was installed before: the
  // contract gives this operation no other success status.
  app.post(
    `${INTEGRATION}/installations`,
    {
      schema: {
        operationId: 'installIntegration',
        tags,
        params: IntegrationParams,
        body: InstallIntegrationBody,
        response: { 201: IntegrationInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { row, spaces } = await services.integrations.install(
        request.actor,
        request.params.integrationName,
        request.body.organization,
      );
      const installation = presentInstallation(row, urls, spaces);
      return reply.code(201).header('Location', installation.urls.location).send(installation);
    },
  );

  app.get(
    `${INTEGRATION}/installations/:installationId`,
    {
      schema: {
        operationId: 'getIntegrationInstallationById',
        tags,
        params: InstallationParams,
        response: { 200: IntegrationInstallation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { row, spaces } = await services.integrations.getInstallation(
        request.actor,
        integrationName,
        installationId,
      );
      return presentInstallation(row, urls, spaces);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/installations',
    {
      schema: {
        operationId: 'listOrganizationInstallations',
        tags,
        params: OrgParams,
        querystring: ListInstallationsQuery,
        response: { 200: listOf(OrganizationInstallation), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.integrations.listInstallations(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map((view) => ({
          installation: presentInstallation(view.row, urls, view.spaces),
          integration: presentIntegration(view.integration, urls),
        })),
      };
    },
  );
}

/**
 * An integration's icon and preview images (`urls.icon`, `previewImages`), under `urls.assets`:
 * `/integrations/<name>/assets/<blob hash>`. Only PNG, JPEG and WebP were accepted, and each is
 * sent with the type its bytes are and `nosniff`, so no browser reads one as a page or a script.
 * Named by content, so cacheable for good.
 */
export function integrationAssetRoutes(app: App): void {
  const { services } = app.quire;
  app.get(
    '/integrations/:integrationName/assets/:asset',
    { config: { public: true }, schema: { hide: true, params: AssetParams } },
    async (request, reply) => {
      const { integrationName, asset } = request.params;
      const found = /^[0-9a-f]{64}$/.test(asset)
        ? await services.integrations.asset(integrationName, asset)
        : undefined;
      reply.header('X-Content-Type-Options', 'nosniff');
      if (!found) throw notFound(`Integration "${integrationName}" has no image "${asset}"`);
      return reply
        .type(found.type)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .send(found.data);
    },
  );
}
