import { Type } from 'typebox';
import { minimal, wantsMinimal } from '../../http/prefer-minimal.js';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentGroup, presentItem, presentSection, presentSiteSpace, presentStructure } from './present.js';
import {
  GroupParams,
  GroupSectionParams,
  SectionParams,
  ShareKeyQuery,
  SiteParams,
  SiteSpaceParams,
} from './schemas.js';
import {
  AddGroupBody,
  AddSectionBody,
  AddSectionToGroupBody,
  AddSiteSpaceBody,
  ListGroupsQuery,
  ListSectionsQuery,
  ListSiteSpacesQuery,
  MoveGroupBody,
  MoveSectionBody,
  MoveSiteSpaceBody,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
  SortStructureBody,
  StructureItem,
  UpdateGroupBody,
  UpdateSectionBody,
  UpdateSiteSpaceBody,
} from './structure-schemas.js';
import type { SiteContext } from './tree.js';

const NO_CONTENT = { 204: Type.Null(), ...STANDARD_ERRORS };

/** Sections, section groups, site spaces and the structure they form. */
export function structureRoutes(app: App): void {
  const area = app.quire.services.sites;
  const { links } = area;
  const tags = ['sites'];
  const S = '/v1/orgs/:organizationId/sites/:siteId';
  const section = (ctx: SiteContext, id: string) =>
    presentSection(ctx, ctx.tree.sections.find((s) => s.id === id)!, links);
  const group = (ctx: SiteContext, id: string) =>
    presentGroup(ctx, ctx.tree.groups.find((g) => g.id === id)!, links);
  const siteSpace = (ctx: SiteContext, id: string) =>
    presentSiteSpace(ctx, ctx.tree.siteSpaces.find((s) => s.id === id)!, links);

  // Sections

  app.get(
    `${S}/sections`,
    {
      schema: {
        operationId: 'listSiteSections',
        tags,
        params: SiteParams,
        querystring: ListSectionsQuery,
        response: { 200: listOf(SiteSection), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { ctx, ...page } = await area.sections.list(request.actor, organizationId, siteId, request.query);
      return { ...page, items: page.items.map((id) => section(ctx, id)) };
    },
  );

  app.post(
    `${S}/sections`,
    {
      schema: {
        operationId: 'addSectionToSite',
        tags,
        params: SiteParams,
        body: AddSectionBody,
        response: { 201: SiteSection, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { ctx, id } = await area.sections.add(request.actor, organizationId, siteId, request.body);
      return reply.code(201).send(section(ctx, id));
    },
  );

  app.patch(
    `${S}/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'updateSiteSectionById',
        tags,
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSection, ...NO_CONTENT },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      const { ctx, id } = await area.sections.update(
        request.actor,
        organizationId,
        siteId,
        siteSectionId,
        request.body,
      );
      return wantsMinimal(request) ? minimal(reply) : section(ctx, id);
    },
  );

  app.delete(
    `${S}/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'deleteSiteSectionById',
        tags,
        summary: 'Delete a section and its site spaces',
        params: SectionParams,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await area.sections.delete(request.actor, organizationId, siteId, siteSectionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${S}/sections/:siteSectionId/move`,
    {
      schema: {
        operationId: 'moveSiteSection',
        tags,
        deprecated: true,
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSection, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      const { ctx, id } = await area.sections.move(
        request.actor,
        organizationId,
        siteId,
        siteSectionId,
        request.body,
      );
      return section(ctx, id);
    },
  );

  // Section groups

  app.get(
    `${S}/section-groups`,
    {
      schema: {
        operationId: 'listSiteSectionGroups',
        tags,
        params: SiteParams,
        querystring: ListGroupsQuery,
        response: { 200: listOf(SiteSectionGroup), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { ctx, ...page } = await area.groups.list(request.actor, organizationId, siteId, request.query);
      return { ...page, items: page.items.map((id) => group(ctx, id)) };
    },
  );

  app.post(
    `${S}/section-groups`,
    {
      schema: {
        operationId: 'addSectionGroupToSite',
        tags,
        params: SiteParams,
        body: AddGroupBody,
        response: { 201: SiteSectionGroup, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { ctx, id } = await area.groups.add(request.actor, organizationId, siteId, request.body);
      return reply.code(201).send(group(ctx, id));
    },
  );

  app.patch(
    `${S}/section-groups/:siteSectionGroupId`,
    {
      schema: {
        operationId: 'updateSiteSectionGroupById',
        tags,
        params: GroupParams,
        body: UpdateGroupBody,
        response: { 200: SiteSectionGroup, ...NO_CONTENT },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const { ctx, id } = await area.groups.update(
        request.actor,
        organizationId,
        siteId,
        siteSectionGroupId,
        request.body,
      );
      return wantsMinimal(request) ? minimal(reply) : group(ctx, id);
    },
  );

  app.delete(
    `${S}/section-groups/:siteSectionGroupId`,
    {
      schema: {
        operationId: 'deleteSiteSectionGroupById',
        tags,
        summary: 'Delete a section group; what it held takes its place',
        params: GroupParams,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await area.groups.delete(request.actor, organizationId, siteId, siteSectionGroupId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${S}/section-groups/:siteSectionGroupId/sections`,
    {
      schema: {
        operationId: 'addSectionToGroup',
        tags,
        params: GroupParams,
        body: AddSectionToGroupBody,
        response: { 201: SiteSectionGroup, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const { ctx, id } = await area.groups.addSection(
        request.actor,
        organizationId,
        siteId,
        siteSectionGroupId,
        request.body.sectionId,
      );
      return reply.code(201).send(group(ctx, id));
    },
  );

  app.delete(
    `${S}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'removeSectionFromGroup',
        tags,
        summary: 'Take a section out of a group (it goes just after the group)',
        params: GroupSectionParams,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      await area.groups.removeSection(
        request.actor,
        organizationId,
        siteId,
        siteSectionGroupId,
        siteSectionId,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${S}/section-groups/:siteSectionGroupId/move`,
    {
      schema: {
        operationId: 'moveSiteSectionGroup',
        tags,
        deprecated: true,
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroup, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      const { ctx, id } = await area.groups.move(
        request.actor,
        organizationId,
        siteId,
        siteSectionGroupId,
        request.body,
      );
      return group(ctx, id);
    },
  );

  // Site spaces

  app.get(
    `${S}/site-spaces`,
    {
      schema: {
        operationId: 'listSiteSpaces',
        tags,
        params: SiteParams,
        querystring: ListSiteSpacesQuery,
        response: { 200: listOf(SiteSpace), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { ctx, ...page } = await area.siteSpaces.list(
        request.actor,
        organizationId,
        siteId,
        request.query,
      );
      return { ...page, items: page.items.map((id) => siteSpace(ctx, id)) };
    },
  );

  app.post(
    `${S}/site-spaces`,
    {
      schema: {
        operationId: 'addSpaceToSite',
        tags,
        params: SiteParams,
        body: AddSiteSpaceBody,
        response: { 201: SiteSpace, ...NO_CONTENT },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { ctx, id } = await area.siteSpaces.add(request.actor, organizationId, siteId, request.body);
      return wantsMinimal(request) ? minimal(reply) : reply.code(201).send(siteSpace(ctx, id));
    },
  );

  app.patch(
    `${S}/site-spaces/:siteSpaceId`,
    {
      schema: {
        operationId: 'updateSiteSpaceById',
        tags,
        params: SiteSpaceParams,
        body: UpdateSiteSpaceBody,
        response: { 200: SiteSpace, ...NO_CONTENT },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const { ctx, id } = await area.siteSpaces.update(
        request.actor,
        organizationId,
        siteId,
        siteSpaceId,
        request.body,
      );
      return wantsMinimal(request) ? minimal(reply) : siteSpace(ctx, id);
    },
  );

  app.delete(
    `${S}/site-spaces/:siteSpaceId`,
    {
      schema: {
        operationId: 'deleteSiteSpaceById',
        tags,
        summary: 'Stop publishing a space on the site (the space stays)',
        params: SiteSpaceParams,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await area.siteSpaces.delete(request.actor, organizationId, siteId, siteSpaceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${S}/site-spaces/:siteSpaceId/move`,
    {
      schema: {
        operationId: 'moveSiteSpace',
        tags,
        deprecated: true,
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpace, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      const { ctx, id } = await area.siteSpaces.move(
        request.actor,
        organizationId,
        siteId,
        siteSpaceId,
        request.body,
      );
      return siteSpace(ctx, id);
    },
  );

  // The structure as a whole

  app.get(
    `${S}/structure`,
    {
      schema: {
        operationId: 'getSiteStructure',
        tags,
        params: SiteParams,
        querystring: ShareKeyQuery,
        response: { 200: SiteStructure, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const ctx = await area.structure.get(request.actor, organizationId, siteId, request.query.shareKey);
      return presentStructure(ctx, links);
    },
  );

  app.patch(
    `${S}/structure/sort`,
    {
      schema: {
        operationId: 'sortSiteStructure',
        tags,
        params: SiteParams,
        body: SortStructureBody,
        response: { 200: StructureItem, ...NO_CONTENT },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { ctx, item } = await area.structure.sort(request.actor, organizationId, siteId, request.body);
      return wantsMinimal(request) ? minimal(reply) : presentItem(ctx, item, links);
    },
  );
}
