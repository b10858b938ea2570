import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { type MemberRow, presentMember } from './present.js';
import { ListMembersQuery, Member, MemberParams, UpdateMemberBody } from './schemas.js';

export function memberRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['members'];
  const presentAll = async (orgId: string, rows: MemberRow[]) => {
    const counts = await services.members.counts(
      orgId,
      rows.map((r) => r.user.id),
    );
    return rows.map((row) => presentMember(row, counts.get(row.user.id)!, urls));
  };
  const presentOne = async (orgId: string, row: MemberRow) => (await presentAll(orgId, [row]))[0]!;

  app.get(
    '/v1/orgs/:organizationId/members',
    {
      schema: {
        operationId: 'listMembersInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListMembersQuery,
        response: { 200: listOf(Member), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.members.list(request.actor, request.params.organizationId, request.query);
      return { ...page, items: await presentAll(request.params.organizationId, page.items) };
    },
  );

  app.get(
    '/v1/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'getMemberInOrganizationById',
        tags,
        params: MemberParams,
        response: { 200: Member, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      return presentOne(organizationId, await services.members.get(request.actor, organizationId, userId));
    },
  );

  app.patch(
    '/v1/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'updateMemberInOrganizationById',
        tags,
        summary: "Change a member's role (null makes them a guest)",
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Member, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, userId } = request.params;
      const row = await services.members.updateRole(request.actor, organizationId, userId, request.body.role);
      return presentOne(organizationId, row);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/members/:userId',
    {
      schema: {
        operationId: 'removeMemberFromOrganizationById',
        tags,
        params: MemberParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, userId } = request.params;
      await services.members.remove(request.actor, organizationId, userId);
      return reply.code(204).send(null);
    },
  );
}
