import { Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentContributor, presentRequestedReviewer, presentReview } from './present.js';
import {
  ChangeRequestParams,
  Contributor,
  RequestedReviewer,
  RequestReviewersBody,
  Review,
  ReviewerParams,
  ReviewParams,
  SubmitReviewBody,
} from './schemas.js';

export function reviewRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['change-requests'];
  const base = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

  app.get(
    `${base}/requested-reviewers`,
    {
      schema: {
        operationId: 'getRequestedReviewersByChangeRequestId',
        tags,
        params: ChangeRequestParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(RequestedReviewer), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { page, users } = await services.reviews.listRequested(
        request.actor,
        spaceId,
        changeRequestId,
        request.query,
      );
      return { ...page, items: page.items.map((row) => presentRequestedReviewer(row, users, urls)) };
    },
  );

  app.post(
    `${base}/requested-reviewers`,
    {
      schema: {
        operationId: 'requestReviewersForChangeRequest',
        tags,
        params: ChangeRequestParams,
        body: RequestReviewersBody,
        response: { 200: Type.Object({ users: Type.Array(RequestedReviewer) }), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { rows, users } = await services.reviews.request(
        request.actor,
        spaceId,
        changeRequestId,
        request.body,
      );
      return { users: rows.map((row) => presentRequestedReviewer(row, users, urls)) };
    },
  );

  app.delete(
    `${base}/requested-reviewers/:userId`,
    {
      schema: {
        operationId: 'removeRequestedReviewerFromChangeRequest',
        tags,
        params: ReviewerParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, userId } = request.params;
      await services.reviews.removeRequested(request.actor, spaceId, changeRequestId, userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${base}/reviews`,
    {
      schema: {
        operationId: 'getReviewsByChangeRequestId',
        tags,
        params: ChangeRequestParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(Review), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { page, cr, users } = await services.reviews.list(
        request.actor,
        spaceId,
        changeRequestId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map((row) =>
          presentReview(row, users.get(row.reviewer_id)!, cr.revision, spaceId, urls),
        ),
      };
    },
  );

  app.post(
    `${base}/reviews`,
    {
      schema: {
        operationId: 'submitChangeRequestReview',
        tags,
        params: ChangeRequestParams,
        body: SubmitReviewBody,
        response: { 201: Review, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const { row, cr, reviewer } = await services.reviews.submit(
        request.actor,
        spaceId,
        changeRequestId,
        request.body,
      );
      const review = presentReview(row, reviewer, cr.revision, spaceId, urls);
      return reply.code(201).header('Location', review.urls.location).send(review);
    },
  );

  app.get(
    `${base}/reviews/:reviewId`,
    {
      schema: {
        operationId: 'getChangeRequestReviewById',
        tags,
        params: ReviewParams,
        response: { 200: Review, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId, reviewId } = request.params;
      const { row, cr, reviewer } = await services.reviews.get(
        request.actor,
        spaceId,
        changeRequestId,
        reviewId,
      );
      return presentReview(row, reviewer, cr.revision, spaceId, urls);
    },
  );

  app.get(
    `${base}/contributors`,
    {
      schema: {
        operationId: 'getContributorsByChangeRequestId',
        tags,
        params: ChangeRequestParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(Contributor), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { page, users } = await services.reviews.contributors(
        request.actor,
        spaceId,
        changeRequestId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map((row) => presentContributor(row, users.get(row.user_id)!, urls)),
      };
    },
  );
}
