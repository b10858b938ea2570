import { type TSchema, Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentTeam } from '../teams/present.js';
import { presentUser } from '../users/present.js';
import {
  CollectionGrantParams,
  CollectionTeamParams,
  CollectionUserParams,
  InviteBody,
  SpaceGrantParams,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermission,
  UpdateGrantBody,
  UserPermission,
} from './schemas.js';
import type { TargetType } from './service.js';

interface Family {
  type: TargetType;
  /** `/v1/spaces/:spaceId` or `/v1/collections/:collectionId`. */
  base: string;
  idParam: 'spaceId' | 'collectionId';
  /** Operation-id suffix: 'Space' or 'Collection'. */
  name: string;
  params: TSchema;
  userParams: TSchema;
  teamParams: TSchema;
}

const FAMILIES: Family[] = [
  {
    type: 'space',
    base: '/v1/spaces/:spaceId',
    idParam: 'spaceId',
    name: 'Space',
    params: SpaceGrantParams,
    userParams: SpaceUserParams,
    teamParams: SpaceTeamParams,
  },
  {
    type: 'collection',
    base: '/v1/collections/:collectionId',
    idParam: 'collectionId',
    name: 'Collection',
    params: CollectionGrantParams,
    userParams: CollectionUserParams,
    teamParams: CollectionTeamParams,
  },
];

type Params = Record<string, string>;

/** The grant operations, identical for spaces and collections. */
export function permissionRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['permissions'];

  for (const f of FAMILIES) {
    const idOf = (params: unknown) => (params as Params)[f.idParam]!;

    app.post(
      `${f.base}/permissions`,
      {
        schema: {
          operationId: `inviteTo${f.name}`,
          tags,
          summary: `Give users or teams a role on the ${f.type} (null takes it away)`,
          params: f.params,
          body: InviteBody,
          response: { 204: Type.Null(), ...STANDARD_ERRORS },
        },
      },
      async (request, reply) => {
        await services.grants.invite(request.actor, f.type, idOf(request.params), request.body);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${f.base}/permissions/users`,
      {
        schema: {
          operationId: `listUserPermissionsIn${f.name}`,
          tags,
          params: f.params,
          querystring: Type.Object(PageQuery),
          response: { 200: listOf(UserPermission), ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const page = await services.grants.listUsers(
          request.actor,
          f.type,
          idOf(request.params),
          request.query,
        );
        return {
          ...page,
          items: page.items.map((g) => ({ permission: g.role, user: presentUser(g.user, urls) })),
        };
      },
    );

    app.get(
      `${f.base}/permissions/teams`,
      {
        schema: {
          operationId: `listTeamPermissionsIn${f.name}`,
          tags,
          params: f.params,
          querystring: Type.Object(PageQuery),
          response: { 200: listOf(TeamPermission), ...STANDARD_ERRORS },
        },
      },
      async (request) => {
        const page = await services.grants.listTeams(
          request.actor,
          f.type,
          idOf(request.params),
          request.query,
        );
        return { ...page, items: page.items.map((g) => ({ permission: g.role, team: presentTeam(g.team) })) };
      },
    );

    for (const principal of ['user', 'team'] as const) {
      const Name = principal === 'user' ? 'User' : 'Team';
      const path = `${f.base}/permissions/${principal}s/:${principal}Id`;
      const principalOf = (params: unknown) => (params as Params)[`${principal}Id`]!;
      const params = principal === 'user' ? f.userParams : f.teamParams;

      app.patch(
        path,
        {
          schema: {
            operationId: `update${Name}PermissionIn${f.name}`,
            tags,
            params,
            body: UpdateGrantBody,
            response: { 204: Type.Null(), ...STANDARD_ERRORS },
          },
        },
        async (request, reply) => {
          await services.grants.update(
            request.actor,
            f.type,
            idOf(request.params),
            principal,
            principalOf(request.params),
            request.body.role,
          );
          return reply.code(204).send(null);
        },
      );

      app.delete(
        path,
        {
          schema: {
            operationId: `remove${Name}From${f.name}`,
            tags,
            params,
            response: { 204: Type.Null(), ...STANDARD_ERRORS },
          },
        },
        async (request, reply) => {
          await services.grants.remove(
            request.actor,
            f.type,
            idOf(request.params),
            principal,
            principalOf(request.params),
          );
          return reply.code(204).send(null);
        },
      );
    }
  }
}
