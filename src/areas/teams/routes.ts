import { Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentTeam, presentTeamMember } from './present.js';
import {
  AddTeamMemberBody,
  CreateTeamBody,
  ListTeamsQuery,
  Team,
  TeamMember,
  TeamMemberParams,
  TeamParams,
  UpdateTeamBody,
  UpdateTeamMembersBody,
} from './schemas.js';

export function teamRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['teams'];

  app.get(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        operationId: 'listTeamsInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListTeamsQuery,
        response: { 200: listOf(Team), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.teams.list(request.actor, request.params.organizationId, request.query);
      return { ...page, items: page.items.map(presentTeam) };
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams',
    {
      schema: {
        operationId: 'createOrganizationTeam',
        tags,
        params: OrgParams,
        body: CreateTeamBody,
        response: { 201: Team, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const team = presentTeam(
        await services.teams.create(request.actor, request.params.organizationId, request.body),
      );
      return reply
        .code(201)
        .header('Location', urls.api(`/orgs/${request.params.organizationId}/teams/${team.id}`))
        .send(team);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        operationId: 'getTeamInOrganizationById',
        tags,
        params: TeamParams,
        response: { 200: Team, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentTeam(
        await services.teams.get(request.actor, request.params.organizationId, request.params.teamId),
      ),
  );

  app.patch(
    '/v1/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        operationId: 'updateTeamInOrganizationById',
        tags,
        params: TeamParams,
        body: UpdateTeamBody,
        response: { 200: Team, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      return presentTeam(
        await services.teams.rename(request.actor, organizationId, teamId, request.body.title),
      );
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId',
    {
      schema: {
        operationId: 'removeTeamFromOrganizationById',
        tags,
        params: TeamParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.teams.delete(request.actor, request.params.organizationId, request.params.teamId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        operationId: 'listTeamMembersInOrganizationById',
        tags,
        params: TeamParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(TeamMember), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, teamId } = request.params;
      const page = await services.teams.listMembers(request.actor, organizationId, teamId, request.query);
      const counts = await services.members.counts(
        organizationId,
        page.items.map((m) => m.user.id),
      );
      return { ...page, items: page.items.map((m) => presentTeamMember(m, counts.get(m.user.id)!, urls)) };
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        operationId: 'updateMembersInOrganizationTeam',
        tags,
        params: TeamParams,
        body: UpdateTeamMembersBody,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      await services.teams.updateMembers(request.actor, organizationId, teamId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        operationId: 'addMemberToOrganizationTeamById',
        tags,
        params: TeamMemberParams,
        body: AddTeamMemberBody,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await services.teams.addMember(
        request.actor,
        organizationId,
        teamId,
        userId,
        request.body.role ?? 'member',
      );
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    {
      schema: {
        operationId: 'deleteMemberFromOrganizationTeamById',
        tags,
        params: TeamMemberParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      await services.teams.removeMember(request.actor, organizationId, teamId, userId);
      return reply.code(204).send(null);
    },
  );
}
