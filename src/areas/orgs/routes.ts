import { Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import { presentShared } from '../../http/shared-answers.js';
import type { App } from '../../http/types.js';
import { type OrgView, presentOrganization } from './present.js';
import {
  CreateOrganizationBody,
  EmailDomainParams,
  Organization,
  OrganizationsForDomain,
  OrgParams,
  UpdateOrganizationBody,
} from './schemas.js';

export function orgRoutes(app: App): void {
  const { services, urls, frontDoor } = app.quire;
  const tags = ['organizations'];
  // The hottest read of the API: the service hands out one frozen view per cached row.
  const presentCached = presentShared((view: OrgView) => presentOrganization(view, urls));

  app.post(
    '/v1/orgs',
    {
      schema: {
        operationId: 'createOrganization',
        tags,
        summary: 'Create an organization; the caller becomes its admin',
        body: CreateOrganizationBody,
        response: { 201: Organization, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const org = presentOrganization(await services.orgs.create(request.actor.userId, request.body), urls);
      return reply.code(201).header('Location', org.urls.location).send(org);
    },
  );

  app.get(
    '/v1/orgs',
    {
      schema: {
        operationId: 'listOrganizationsForAuthenticatedUser',
        tags,
        summary: "The caller's organizations",
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(Organization), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.orgs.listForActor(request.actor, request.query);
      return { ...page, items: page.items.map((view) => presentOrganization(view, urls)) };
    },
  );

  app.get(
    '/v1/orgs/:organizationId',
    {
      schema: {
        operationId: 'getOrganizationById',
        tags,
        params: OrgParams,
        response: { 200: Organization, ...STANDARD_ERRORS },
      },
      // Clients poll it: answered again before routing while the database is unchanged.
      ...frontDoor.kept.hooks,
    },
    async (request) => presentCached(await services.orgs.get(request.actor, request.params.organizationId)),
  );

  app.patch(
    '/v1/orgs/:organizationId',
    {
      schema: {
        operationId: 'updateOrganizationById',
        tags,
        params: OrgParams,
        body: UpdateOrganizationBody,
        response: { 200: Organization, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentOrganization(
        await services.orgs.update(request.actor, request.params.organizationId, request.body),
        urls,
      ),
  );

  app.post(
    '/v1/orgs/:organizationId/join',
    {
      schema: {
        operationId: 'joinOrganization',
        tags,
        summary: "Join an organization that accepts the caller's email domain",
        params: OrgParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.orgs.join(request.actor, request.params.organizationId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/email-domains/:emailDomain/orgs',
    {
      schema: {
        operationId: 'getOrganizationsForEmailDomain',
        tags,
        summary: "Organizations open to the caller's email domain",
        params: EmailDomainParams,
        response: { 200: OrganizationsForDomain, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const views = await services.orgs.forEmailDomain(request.actor, request.params.emailDomain);
      return { organizations: views.map((view) => presentOrganization(view, urls)) };
    },
  );
}
