import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentSite } from './present.js';
import { CreateSiteBody, ListSitesQuery, Site, SiteParams, UpdateSiteBody } from './schemas.js';
import { settingsRoutes } from './settings-routes.js';
import { structureRoutes } from './structure-routes.js';

/** Every route of the docs-site area. */
export function siteRoutes(app: App): void {
  const { services } = app.quire;
  const area = services.sites;
  const { links } = area;
  const tags = ['sites'];

  app.get(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        operationId: 'listSites',
        tags,
        params: OrgParams,
        querystring: ListSitesQuery,
        response: { 200: listOf(Site), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await area.sites.list(request.actor, request.params.organizationId, request.query);
      return { ...page, items: page.items.map((view) => presentSite(view, links)) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/sites',
    {
      schema: {
        operationId: 'createSite',
        tags,
        params: OrgParams,
        body: CreateSiteBody,
        response: { 201: Site, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const site = presentSite(
        await area.sites.create(request.actor, request.params.organizationId, request.body),
        links,
      );
      return reply.code(201).header('Location', site.urls.location).send(site);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'getSiteById',
        tags,
        params: SiteParams,
        response: { 200: Site, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return presentSite(await area.sites.view(request.actor, organizationId, siteId), links);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'updateSiteById',
        tags,
        params: SiteParams,
        body: UpdateSiteBody,
        response: { 200: Site, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return presentSite(await area.sites.update(request.actor, organizationId, siteId, request.body), links);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/sites/:siteId',
    {
      schema: {
        operationId: 'deleteSiteById',
        tags,
        summary: 'Delete a site with its sections, site spaces and share links (the spaces stay)',
        params: SiteParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await area.sites.delete(request.actor, request.params.organizationId, request.params.siteId);
      return reply.code(204).send(null);
    },
  );

  for (const [path, operationId, published] of [
    ['publish', 'publishSite', true],
    ['unpublish', 'unpublishSite', false],
  ] as const) {
    app.post(
      `/v1/orgs/:organizationId/sites/:siteId/${path}`,
      {
        schema: {
          operationId,
          tags,
          params: SiteParams,
          response: { 200: Site, ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const { organizationId, siteId } = request.params;
        return presentSite(
          await area.sites.setPublished(request.actor, organizationId, siteId, published),
          links,
        );
      },
    );
  }

  structureRoutes(app);
  settingsRoutes(app);
}
