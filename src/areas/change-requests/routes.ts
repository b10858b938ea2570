import { Type } from 'typebox';
import { minimal, wantsMinimal } from '../../http/prefer-minimal.js';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentFile } from '../content/present.js';
import { OrgParams } from '../orgs/schemas.js';
import { SpaceParams } from '../spaces/schemas.js';
import { ContentUpdateResult, UpdateContentBody, UpdateContentQuery } from './content-schemas.js';
import { presentChangeRequest } from './present.js';
import {
  ChangeRequest,
  ChangeRequestParams,
  CreateChangeRequestBody,
  ListOrgChangeRequestsQuery,
  ListSpaceChangeRequestsQuery,
  MergeResult,
  UpdateChangeRequestBody,
  UpdateResult,
} from './schemas.js';

export function changeRequestRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['change-requests'];

  app.post(
    '/v1/spaces/:spaceId/change-requests',
    {
      schema: {
        operationId: 'createChangeRequest',
        tags,
        params: SpaceParams,
        body: CreateChangeRequestBody,
        response: { 201: ChangeRequest, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const cr = presentChangeRequest(
        await services.changeRequests.create(request.actor, request.params.spaceId, request.body),
        urls,
      );
      return reply.code(201).header('Location', cr.urls.location).send(cr);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/change-requests',
    {
      schema: {
        operationId: 'listChangeRequestsForSpace',
        tags,
        params: SpaceParams,
        querystring: ListSpaceChangeRequestsQuery,
        response: { 200: listOf(ChangeRequest), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.changeRequests.listInSpace(
        request.actor,
        request.params.spaceId,
        request.query,
      );
      return { ...page, items: page.items.map((view) => presentChangeRequest(view, urls)) };
    },
  );

  app.get(
    '/v1/orgs/:organizationId/change-requests',
    {
      schema: {
        operationId: 'listChangeRequestsForOrganization',
        tags,
        params: OrgParams,
        querystring: ListOrgChangeRequestsQuery,
        response: { 200: listOf(ChangeRequest), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.changeRequests.listInOrg(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((view) => presentChangeRequest(view, urls)) };
    },
  );

  app.get(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'getChangeRequestById',
        tags,
        params: ChangeRequestParams,
        response: { 200: ChangeRequest, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return presentChangeRequest(
        await services.changeRequests.view(request.actor, spaceId, changeRequestId),
        urls,
      );
    },
  );

  app.patch(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        operationId: 'updateChangeRequestById',
        tags,
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequest, 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const view = await services.changeRequests.update(
        request.actor,
        spaceId,
        changeRequestId,
        request.body,
      );
      if (wantsMinimal(request)) return minimal(reply);
      return presentChangeRequest(view, urls);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      schema: {
        operationId: 'mergeChangeRequest',
        tags,
        summary: 'Merge into the main content (three-way, by page); conflicts change nothing',
        params: ChangeRequestParams,
        response: { 200: MergeResult, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return services.merges.merge(request.actor, spaceId, changeRequestId);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      schema: {
        operationId: 'updateChangeRequest',
        tags,
        summary: 'Bring the change request up to date with the main content',
        params: ChangeRequestParams,
        response: { 200: UpdateResult, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return services.merges.update(request.actor, spaceId, changeRequestId);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
    {
      schema: {
        operationId: 'updateChangeRequestContent',
        tags,
        summary: 'Apply up to 50 content changes at once, as one new revision of the change request',
        params: ChangeRequestParams,
        querystring: UpdateContentQuery,
        body: UpdateContentBody,
        response: { 200: Type.Union([ChangeRequest, ContentUpdateResult]), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const outcome = await services.contentWrites.apply(
        request.actor,
        spaceId,
        changeRequestId,
        request.body.changes,
      );
      const { space } = await services.authz.space(request.actor, spaceId, 'view');
      const view = await services.changeRequests.toView(app.quire.deps.db, outcome.cr, space.revision_id);
      const changeRequest = presentChangeRequest(view, urls);
      if (request.query.compat !== false) return changeRequest;
      const pageRef = (id: string) => ({
        object: 'page' as const,
        id,
        urls: {
          location: urls.api(`/spaces/${spaceId}/change-requests/${outcome.cr.id}/content/page/${id}`),
        },
      });
      const ctx = { urls, metadata: true };
      return {
        changeRequest,
        changes: outcome.changes.map((change) =>
          change.object === 'deleted_page'
            ? change
            : change.object === 'created_page'
              ? {
                  object: change.object,
                  ...(change.ref ? { ref: change.ref } : {}),
                  page: pageRef(change.page),
                }
              : { object: change.object, page: pageRef(change.page) },
        ),
        insertedFiles: outcome.insertedFiles.map((file) => presentFile(file, ctx)),
      };
    },
  );
}
