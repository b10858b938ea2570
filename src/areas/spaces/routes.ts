import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { MoveBody, TransferBody } from '../collections/schemas.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentSpace } from './present.js';
import {
  CreateSpaceBody,
  GetSpaceQuery,
  ListSpacesQuery,
  Space,
  SpaceParams,
  UpdateSpaceBody,
} from './schemas.js';

export function spaceRoutes(app: App): void {
  const { services, urls, frontDoor } = app.quire;
  const tags = ['spaces'];

  app.post(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        operationId: 'createSpace',
        tags,
        params: OrgParams,
        body: CreateSpaceBody,
        response: { 201: Space, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const space = presentSpace(
        await services.spaces.create(request.actor, request.params.organizationId, request.body),
        urls,
      );
      return reply.code(201).header('Location', space.urls.location).send(space);
    },
  );

  app.get(
    '/v1/orgs/:organizationId/spaces',
    {
      schema: {
        operationId: 'listSpacesInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListSpacesQuery,
        response: { 200: listOf(Space), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.spaces.listInOrg(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((view) => presentSpace(view, urls)) };
    },
  );

  app.get(
    '/v1/spaces/:spaceId',
    {
      schema: {
        operationId: 'getSpaceById',
        tags,
        params: SpaceParams,
        querystring: GetSpaceQuery,
        response: { 200: Space, ...STANDARD_ERRORS },
      },
      // Tools poll it for a space's revision: answered again before routing while nothing changed.
      ...frontDoor.kept.hooks,
    },
    async (request) => presentSpace(await services.spaces.view(request.actor, request.params.spaceId), urls),
  );

  app.patch(
    '/v1/spaces/:spaceId',
    {
      schema: {
        operationId: 'updateSpaceById',
        tags,
        params: SpaceParams,
        body: UpdateSpaceBody,
        response: { 200: Space, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentSpace(await services.spaces.update(request.actor, request.params.spaceId, request.body), urls),
  );

  app.delete(
    '/v1/spaces/:spaceId',
    {
      schema: {
        operationId: 'deleteSpaceById',
        tags,
        summary: 'Move a space to the trash (restorable for 7 days)',
        params: SpaceParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.spaces.delete(request.actor, request.params.spaceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/restore',
    {
      schema: {
        operationId: 'restoreSpace',
        tags,
        params: SpaceParams,
        response: { 200: Space, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentSpace(await services.spaces.restore(request.actor, request.params.spaceId), urls),
  );

  app.post(
    '/v1/spaces/:spaceId/duplicate',
    {
      schema: {
        operationId: 'duplicateSpace',
        tags,
        params: SpaceParams,
        response: { 201: Space, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const space = presentSpace(
        await services.spaces.duplicate(request.actor, request.params.spaceId),
        urls,
      );
      return reply.code(201).header('Location', space.urls.location).send(space);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/move',
    {
      schema: {
        operationId: 'moveSpace',
        tags,
        params: SpaceParams,
        body: MoveBody,
        response: { 200: Space, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentSpace(await services.spaces.move(request.actor, request.params.spaceId, request.body), urls),
  );

  app.post(
    '/v1/spaces/:spaceId/transfer',
    {
      schema: {
        operationId: 'transferSpace',
        tags,
        params: SpaceParams,
        body: TransferBody,
        response: { 200: Space, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentSpace(await services.spaces.transfer(request.actor, request.params.spaceId, request.body), urls),
  );
}
