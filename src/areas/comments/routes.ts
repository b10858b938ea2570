import { Type } from 'typebox';
import { listOf, PageQuery, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentMember } from '../members/present.js';
import { Member } from '../members/schemas.js';
import { presentComment, presentReply } from './present.js';
import {
  Comment,
  CommentReply,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  paramsOf,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';
import type { Thread } from './service.js';

const Ids = { commentId: Type.String({ minLength: 1, maxLength: 128 }) };
const ReplyIds = { ...Ids, commentReplyId: Type.String({ minLength: 1, maxLength: 128 }) };

interface Family {
  kind: 'space' | 'change-request';
  /** The suffix of the official operation ids. */
  suffix: 'InSpace' | 'InChangeRequest';
  base: string;
}

const FAMILIES: Family[] = [
  { kind: 'space', suffix: 'InSpace', base: '/v1/spaces/:spaceId' },
  {
    kind: 'change-request',
    suffix: 'InChangeRequest',
    base: '/v1/spaces/:spaceId/change-requests/:changeRequestId',
  },
];

function threadOf(params: { spaceId: string; changeRequestId?: string }): Thread {
  return { spaceId: params.spaceId, changeRequestId: params.changeRequestId };
}

/** Both comment families (on a space, on a change request): the same operations on two prefixes. */
export function commentRoutes(app: App): void {
  for (const family of FAMILIES) familyRoutes(app, family);
}

function familyRoutes(app: App, family: Family): void {
  const { services, urls } = app.quire;
  const tags = ['comments'];
  const op = (name: string) => `${name}${family.suffix}`;
  const comments = `${family.base}/comments`;
  const one = `${comments}/:commentId`;
  const replies = `${one}/replies`;
  const reply = `${replies}/:commentReplyId`;
  const ThreadParams = paramsOf(family.kind, {});
  const CommentParams = paramsOf(family.kind, Ids);
  const ReplyParams = paramsOf(family.kind, ReplyIds);

  app.get(
    comments,
    {
      schema: {
        operationId: op('listComments'),
        tags,
        params: ThreadParams,
        querystring: ListCommentsQuery,
        response: { 200: listOf(Comment), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { items, count, next, ...context } = await services.comments.list(
        request.actor,
        threadOf(request.params),
        request.query,
      );
      const format = request.query.format ?? 'markdown';
      return {
        items: items.map((row) => presentComment(row, context, format, urls)),
        count,
        ...(next ? { next } : {}),
      };
    },
  );

  app.post(
    comments,
    {
      schema: {
        operationId: op('postComment'),
        tags,
        params: ThreadParams,
        body: PostCommentBody,
        response: { 200: Comment, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { comments: rows, ...context } = await services.comments.post(
        request.actor,
        threadOf(request.params),
        request.body,
      );
      return presentComment(rows[0]!, context, 'markdown', urls);
    },
  );

  app.get(
    one,
    {
      schema: {
        operationId: op('getComment'),
        tags,
        params: CommentParams,
        querystring: FormatQuery,
        response: { 200: Comment, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { comments: rows, ...context } = await services.comments.get(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
      );
      return presentComment(rows[0]!, context, request.query.format ?? 'markdown', urls);
    },
  );

  app.put(
    one,
    {
      schema: {
        operationId: op('updateComment'),
        tags,
        params: CommentParams,
        body: UpdateCommentBody,
        response: { 200: Comment, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { comments: rows, ...context } = await services.comments.update(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.body,
      );
      return presentComment(rows[0]!, context, 'markdown', urls);
    },
  );

  app.delete(
    one,
    {
      schema: {
        operationId: op('deleteComment'),
        tags,
        params: CommentParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, response) => {
      await services.comments.delete(request.actor, threadOf(request.params), request.params.commentId);
      return response.code(204).send(null);
    },
  );

  app.get(
    replies,
    {
      schema: {
        operationId: op('listCommentReplies'),
        tags,
        params: CommentParams,
        querystring: ListRepliesQuery,
        response: { 200: listOf(CommentReply), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { items, count, next, comment, ...context } = await services.comments.listReplies(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.query,
      );
      const format = request.query.format ?? 'markdown';
      return {
        items: items.map((row) => presentReply(comment, row, context, format, urls)),
        count,
        ...(next ? { next } : {}),
      };
    },
  );

  app.post(
    replies,
    {
      schema: {
        operationId: op('postCommentReply'),
        tags,
        params: CommentParams,
        // The official change-request operation takes `format`; the space one does not.
        ...(family.kind === 'change-request' ? { querystring: FormatQuery } : {}),
        body: PostReplyBody,
        response: { 200: CommentReply, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const {
        comment,
        replies: rows,
        ...context
      } = await services.comments.postReply(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.body,
      );
      const format = (request.query as { format?: 'markdown' | 'document' } | undefined)?.format;
      return presentReply(comment, rows[0]!, context, format ?? 'markdown', urls);
    },
  );

  app.get(
    reply,
    {
      schema: {
        operationId: op('getCommentReply'),
        tags,
        params: ReplyParams,
        querystring: FormatQuery,
        response: { 200: CommentReply, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const {
        comment,
        replies: rows,
        ...context
      } = await services.comments.getReply(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.params.commentReplyId,
      );
      return presentReply(comment, rows[0]!, context, request.query.format ?? 'markdown', urls);
    },
  );

  app.put(
    reply,
    {
      schema: {
        operationId: op('updateCommentReply'),
        tags,
        params: ReplyParams,
        body: UpdateReplyBody,
        response: { 200: CommentReply, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const {
        comment,
        replies: rows,
        ...context
      } = await services.comments.updateReply(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.params.commentReplyId,
        request.body,
      );
      return presentReply(comment, rows[0]!, context, 'markdown', urls);
    },
  );

  app.delete(
    reply,
    {
      schema: {
        operationId: op('deleteCommentReply'),
        tags,
        params: ReplyParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, response) => {
      await services.comments.deleteReply(
        request.actor,
        threadOf(request.params),
        request.params.commentId,
        request.params.commentReplyId,
      );
      return response.code(204).send(null);
    },
  );

  app.get(
    `${family.base}/commenters`,
    {
      schema: {
        operationId: op('listCommenters'),
        tags,
        params: ThreadParams,
        querystring: Type.Object(PageQuery),
        response: { 200: listOf(Member), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { page, counts } = await services.comments.commenters(
        request.actor,
        threadOf(request.params),
        request.query,
      );
      return {
        ...page,
        items: page.items.map((row) => presentMember(row, counts.get(row.user.id)!, urls)),
      };
    },
  );
}
