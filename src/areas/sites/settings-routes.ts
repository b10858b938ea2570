import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Customization, CustomizationQuery, CustomizationSettings } from './customization-schemas.js';
import { presentPublished, presentShareLink } from './present.js';
import { ShareKeyQuery, ShareLinkParams, SiteParams } from './schemas.js';
import {
  CreateShareLinkBody,
  ListShareLinksQuery,
  PublishedContentSite,
  PublishingAuth,
  ShareLink,
  SiteAdaptiveSchema,
  TemplateConditions,
  UpdateAdaptiveSchemaBody,
  UpdatePublishingAuthBody,
  UpdateShareLinkBody,
} from './settings-schemas.js';

/** Share links, customization, adaptive schema, visitor authentication, published content. */
export function settingsRoutes(app: App): void {
  const area = app.quire.services.sites;
  const { links } = area;
  const tags = ['sites'];
  const S = '/v1/orgs/:organizationId/sites/:siteId';

  // Share links

  app.get(
    `${S}/share-links`,
    {
      schema: {
        operationId: 'listSiteShareLinks',
        tags,
        params: SiteParams,
        querystring: ListShareLinksQuery,
        response: { 200: listOf(ShareLink), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const page = await area.shareLinks.list(request.actor, organizationId, siteId, request.query);
      return { ...page, items: page.items.map((v) => presentShareLink(v.row, v.site, links)) };
    },
  );

  app.post(
    `${S}/share-links`,
    {
      schema: {
        operationId: 'createSiteShareLink',
        tags,
        params: SiteParams,
        body: CreateShareLinkBody,
        response: { 201: ShareLink, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const view = await area.shareLinks.create(request.actor, organizationId, siteId, request.body.name);
      return reply.code(201).send(presentShareLink(view.row, view.site, links));
    },
  );

  app.patch(
    `${S}/share-links/:shareLinkId`,
    {
      schema: {
        operationId: 'updateSiteShareLinkById',
        tags,
        params: ShareLinkParams,
        body: UpdateShareLinkBody,
        response: { 200: ShareLink, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      const view = await area.shareLinks.update(
        request.actor,
        organizationId,
        siteId,
        shareLinkId,
        request.body,
      );
      return presentShareLink(view.row, view.site, links);
    },
  );

  app.delete(
    `${S}/share-links/:shareLinkId`,
    {
      schema: {
        operationId: 'deleteSiteShareLinkById',
        tags,
        summary: 'Revoke a share link',
        params: ShareLinkParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      await area.shareLinks.delete(request.actor, organizationId, siteId, shareLinkId);
      return reply.code(204).send(null);
    },
  );

  // Customization

  app.get(
    `${S}/customization`,
    {
      schema: {
        operationId: 'getSiteCustomizationById',
        tags,
        params: SiteParams,
        querystring: CustomizationQuery,
        response: { 200: CustomizationSettings, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.customization.get(request.actor, organizationId, siteId);
    },
  );

  app.put(
    `${S}/customization`,
    {
      schema: {
        operationId: 'updateSiteCustomizationById',
        tags,
        summary: 'Replace the customization; keys left out take their defaults',
        params: SiteParams,
        body: Customization,
        response: { 200: CustomizationSettings, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.customization.update(request.actor, organizationId, siteId, request.body);
    },
  );

  // Adaptive content

  app.get(
    `${S}/adaptive-schema`,
    {
      schema: {
        operationId: 'getSiteAdaptiveSchema',
        tags,
        params: SiteParams,
        response: { 200: SiteAdaptiveSchema, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.adaptive.get(request.actor, organizationId, siteId);
    },
  );

  app.put(
    `${S}/adaptive-schema`,
    {
      schema: {
        operationId: 'updateSiteAdaptiveSchema',
        tags,
        params: SiteParams,
        body: UpdateAdaptiveSchemaBody,
        response: { 200: SiteAdaptiveSchema, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.adaptive.update(request.actor, organizationId, siteId, request.body.jsonSchema);
    },
  );

  app.get(
    `${S}/adaptive-schema/template-conditions`,
    {
      schema: {
        operationId: 'listSiteAdaptiveTemplateConditions',
        tags,
        params: SiteParams,
        response: { 200: TemplateConditions, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.adaptive.templateConditions(request.actor, organizationId, siteId);
    },
  );

  // Visitor authentication

  app.get(
    `${S}/publishing/auth`,
    {
      schema: {
        operationId: 'getSitePublishingAuthById',
        tags,
        params: SiteParams,
        response: { 200: PublishingAuth, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.publishingAuth.get(request.actor, organizationId, siteId);
    },
  );

  app.patch(
    `${S}/publishing/auth`,
    {
      schema: {
        operationId: 'updateSitePublishingAuthById',
        tags,
        params: SiteParams,
        body: UpdatePublishingAuthBody,
        response: { 200: PublishingAuth, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.publishingAuth.update(request.actor, organizationId, siteId, request.body);
    },
  );

  app.post(
    `${S}/publishing/auth/regenerate`,
    {
      schema: {
        operationId: 'regenerateSitePublishingAuthById',
        tags,
        summary: 'Replace the visitor-token signing key (tokens signed with the old one stop working)',
        params: SiteParams,
        response: { 200: PublishingAuth, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      return area.publishingAuth.regenerate(request.actor, organizationId, siteId);
    },
  );

  // Published content

  app.get(
    `${S}/published`,
    {
      schema: {
        operationId: 'getPublishedContentSite',
        tags,
        params: SiteParams,
        querystring: ShareKeyQuery,
        response: { 200: PublishedContentSite, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const view = await area.published.get(request.actor, organizationId, siteId, request.query.shareKey);
      return presentPublished(view, links);
    },
  );
}
