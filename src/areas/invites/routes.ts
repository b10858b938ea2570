import { Type } from 'typebox';
import { EmptyObject, listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentInviteLink } from './present.js';
import {
  CreateInviteLinkBody,
  InviteLink,
  InviteParams,
  InviteUsersBody,
  InviteUsersResult,
  UpdateInviteLinkBody,
} from './schemas.js';

export function inviteRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['invites'];

  app.post(
    '/v1/orgs/:organizationId/invites',
    {
      schema: {
        operationId: 'inviteUsersToOrganization',
        tags,
        summary: 'Invite people by email',
        params: OrgParams,
        body: InviteUsersBody,
        response: { 200: InviteUsersResult, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      services.invites.inviteByEmail(request.actor, request.params.organizationId, request.body),
  );

  app.post(
    '/v1/orgs/:organizationId/invites/:inviteId',
    {
      schema: {
        operationId: 'joinOrganizationWithInvite',
        tags,
        summary: 'Join an organization through an invite link',
        params: InviteParams,
        response: { 200: EmptyObject, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      await services.invites.joinWithLink(
        request.actor,
        request.params.organizationId,
        request.params.inviteId,
      );
      return {};
    },
  );

  app.get(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: {
        operationId: 'listOrganizationInviteLinks',
        tags,
        params: OrgParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(InviteLink), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { page, context } = await services.invites.listLinks(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((row) => presentInviteLink(row, context, urls)) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/link-invites',
    {
      schema: {
        operationId: 'createOrganizationInvite',
        tags,
        params: OrgParams,
        body: CreateInviteLinkBody,
        response: { 201: InviteLink, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const { row, context } = await services.invites.createLink(request.actor, organizationId, request.body);
      return reply
        .code(201)
        .header('Location', urls.api(`/orgs/${organizationId}/link-invites/${row.id}`))
        .send(presentInviteLink(row, context, urls));
    },
  );

  app.get(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        operationId: 'getOrganizationInviteLink',
        tags,
        params: InviteParams,
        response: { 200: InviteLink, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const { row, context } = await services.invites.getLink(request.actor, organizationId, inviteId);
      return presentInviteLink(row, context, urls);
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        operationId: 'updateOrganizationInviteById',
        tags,
        params: InviteParams,
        body: UpdateInviteLinkBody,
        response: { 200: InviteLink, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const { row, context } = await services.invites.updateLink(
        request.actor,
        organizationId,
        inviteId,
        request.body,
      );
      return presentInviteLink(row, context, urls);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    {
      schema: {
        operationId: 'deleteOrganizationInviteById',
        tags,
        params: InviteParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, inviteId } = request.params;
      await services.invites.deleteLink(request.actor, organizationId, inviteId);
      return reply.code(204).send(null);
    },
  );
}
