import { Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentSpace } from '../spaces/present.js';
import { Space } from '../spaces/schemas.js';
import { type CollectionView, presentCollection } from './present.js';
import {
  Collection,
  CollectionParams,
  CreateCollectionBody,
  ListCollectionsQuery,
  MoveBody,
  TransferBody,
  UpdateCollectionBody,
} from './schemas.js';

export function collectionRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['collections'];
  const present = (view: CollectionView) => presentCollection(view, urls);

  app.get(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        operationId: 'listCollectionsInOrganizationById',
        tags,
        params: OrgParams,
        querystring: ListCollectionsQuery,
        response: { 200: listOf(Collection), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.collections.list(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map(present) };
    },
  );

  app.post(
    '/v1/orgs/:organizationId/collections',
    {
      schema: {
        operationId: 'createCollection',
        tags,
        params: OrgParams,
        body: CreateCollectionBody,
        response: { 201: Collection, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const collection = present(
        await services.collections.create(request.actor, request.params.organizationId, request.body),
      );
      return reply.code(201).header('Location', collection.urls.location).send(collection);
    },
  );

  app.get(
    '/v1/collections/:collectionId',
    {
      schema: {
        operationId: 'getCollectionById',
        tags,
        params: CollectionParams,
        response: { 200: Collection, ...STANDARD_ERRORS },
      },
    },
    async (request) => present(await services.collections.view(request.actor, request.params.collectionId)),
  );

  app.patch(
    '/v1/collections/:collectionId',
    {
      schema: {
        operationId: 'updateCollectionById',
        tags,
        params: CollectionParams,
        body: UpdateCollectionBody,
        response: { 200: Collection, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      present(await services.collections.update(request.actor, request.params.collectionId, request.body)),
  );

  app.delete(
    '/v1/collections/:collectionId',
    {
      schema: {
        operationId: 'deleteCollectionById',
        tags,
        summary: 'Move a collection, with everything in it, to the trash (restorable for 7 days)',
        params: CollectionParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.collections.delete(request.actor, request.params.collectionId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/collections/:collectionId/spaces',
    {
      schema: {
        operationId: 'listSpacesInCollectionById',
        tags,
        params: CollectionParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(Space), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.spaces.listInCollection(
        request.actor,
        request.params.collectionId,
        request.query,
      );
      return { ...page, items: page.items.map((view) => presentSpace(view, urls)) };
    },
  );

  app.post(
    '/v1/collections/:collectionId/move',
    {
      schema: {
        operationId: 'moveCollection',
        tags,
        params: CollectionParams,
        body: MoveBody,
        response: { 200: Collection, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      present(await services.collections.move(request.actor, request.params.collectionId, request.body)),
  );

  app.post(
    '/v1/collections/:collectionId/transfer',
    {
      schema: {
        operationId: 'transferCollection',
        tags,
        params: CollectionParams,
        body: TransferBody,
        response: { 200: Collection, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      present(await services.collections.transfer(request.actor, request.params.collectionId, request.body)),
  );
}
