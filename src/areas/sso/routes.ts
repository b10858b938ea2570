import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentSamlProvider } from './present.js';
import {
  CreateSamlProviderBody,
  ListSamlProvidersQuery,
  SamlProvider,
  SamlProviderParams,
  SsoProviderLogins,
  UpdateSamlProviderBody,
} from './schemas.js';

/** The SAML provider operations of API.md 4.9 and the public list of sign-in providers. */
export function ssoRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['sso'];

  app.get(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListSamlProvidersQuery,
        response: { 200: listOf(SamlProvider), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.samlProviders.list(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((view) => presentSamlProvider(view, urls)) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/saml',
    {
      schema: {
        operationId: 'createOrganizationSAMLProvider',
        tags,
        params: OrgParams,
        body: CreateSamlProviderBody,
        response: { 201: SamlProvider, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const provider = presentSamlProvider(
        await services.samlProviders.create(request.actor, request.params.organizationId, request.body),
        urls,
      );
      return reply.code(201).header('Location', provider.urls.location).send(provider);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'getOrganizationSAMLProviderById',
        tags,
        params: SamlProviderParams,
        response: { 200: SamlProvider, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      return presentSamlProvider(
        await services.samlProviders.get(request.actor, organizationId, samlProviderId),
        urls,
      );
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'updateOrganizationSAMLProvider',
        tags,
        params: SamlProviderParams,
        body: UpdateSamlProviderBody,
        response: { 200: SamlProvider, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      return presentSamlProvider(
        await services.samlProviders.update(request.actor, organizationId, samlProviderId, request.body),
        urls,
      );
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'deleteOrganizationSAMLProvider',
        tags,
        params: SamlProviderParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, samlProviderId } = request.params;
      await services.samlProviders.delete(request.actor, organizationId, samlProviderId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/sso',
    {
      config: { public: true },
      schema: {
        operationId: 'listSSOProviderLoginsInOrganization',
        tags,
        security: [],
        params: OrgParams,
        response: { 200: SsoProviderLogins, ...STANDARD_ERRORS },
      },
    },
    async (request) => ({ items: await services.samlProviders.logins(request.params.organizationId) }),
  );
}
