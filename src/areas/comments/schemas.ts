import { type Static, type TSchema, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { DocumentWire } from '../agent-instructions/schemas.js';
import { User } from '../users/schemas.js';

/** Longest comment or reply body, in characters of markdown. */
export const MAX_COMMENT_CHARS = 20_000;

const Id = Type.String({ minLength: 1, maxLength: 128 });

export const SpaceThreadParams = Type.Object({ spaceId: Id });
export const ChangeRequestThreadParams = Type.Object({ spaceId: Id, changeRequestId: Id });

/** The path parameters of a family, plus `extra`: one shape for both families' routes. */
export function paramsOf<P extends Record<string, TSchema>>(family: 'space' | 'change-request', extra: P) {
  const base = family === 'space' ? SpaceThreadParams.properties : ChangeRequestThreadParams.properties;
  return Type.Object({ ...base, ...extra });
}

export const CommentFormat = Type.Enum(['markdown', 'document']);
export type CommentFormat = Static<typeof CommentFormat>;
export const FormatQuery = Type.Object({ format: Type.Optional(CommentFormat) });

export const ListCommentsQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(Type.Enum(['asc', 'desc'])),
  format: Type.Optional(CommentFormat),
  status: Type.Optional(Type.Enum(['all', 'open', 'resolved'])),
  targetPage: Type.Optional(Type.String({ maxLength: 128 })),
  authors: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 100 })),
});
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

export const ListRepliesQuery = Type.Object({ ...PageQuery, format: Type.Optional(CommentFormat) });
export type ListRepliesQuery = Static<typeof ListRepliesQuery>;

/** A body as the official `Document`: markdown, a rich-text document, or empty (refused). */
export const BodyInput = Type.Object({
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(DocumentWire),
});
export type BodyInput = Static<typeof BodyInput>;

const TableCell = Type.Object({
  record: Type.String({ minLength: 1, maxLength: 256 }),
  definition: Type.String({ minLength: 1, maxLength: 256 }),
});

export const PostCommentBody = Type.Object({
  body: BodyInput,
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  node: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  tableCell: Type.Optional(TableCell),
});
export type PostCommentBody = Static<typeof PostCommentBody>;

const Reactions = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 });

export const UpdateReplyBody = Type.Object({
  body: Type.Optional(BodyInput),
  addedReactions: Type.Optional(Reactions),
  removedReactions: Type.Optional(Reactions),
});
export type UpdateReplyBody = Static<typeof UpdateReplyBody>;

export const UpdateCommentBody = Type.Object({
  ...UpdateReplyBody.properties,
  resolved: Type.Optional(Type.Boolean()),
});
export type UpdateCommentBody = Static<typeof UpdateCommentBody>;

export const PostReplyBody = Type.Object({ body: BodyInput });
export type PostReplyBody = Static<typeof PostReplyBody>;

const Body = Type.Union([Type.Object({ markdown: Type.String() }), Type.Object({ document: DocumentWire })]);

const EmojiReaction = Type.Object({
  emoji: Type.String(),
  count: Type.Number(),
  users: Type.Array(Type.Object({ user: User, reactedAt: Timestamp })),
});

const Permissions = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean(),
  reply: Type.Boolean(),
  delete: Type.Boolean(),
});

const Location = Type.Object({ location: Type.String({ format: 'uri' }) });

const CommentFields = {
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(EmojiReaction),
  replies: Type.Number(),
  repliers: Type.Array(Type.Object({ updatedAt: Timestamp, count: Type.Integer(), user: User })),
  body: Body,
  target: Type.Object({
    node: Type.Optional(Type.Object({ id: Type.String() })),
    tableCell: Type.Optional(Type.Object({ record: Type.String(), definition: Type.String() })),
    changeRequest: Type.Optional(Type.String()),
    page: Type.Optional(Type.Object({ id: Type.String() })),
    space: Type.String(),
    revision: Type.String(),
  }),
  urls: Location,
  permissions: Permissions,
};

export const Comment = Type.Union([
  Type.Object({ ...CommentFields, status: Type.Literal('open') }),
  Type.Object({
    ...CommentFields,
    status: Type.Literal('resolved'),
    resolvedAt: Timestamp,
    resolvedBy: User,
  }),
]);
export type Comment = Static<typeof Comment>;

export const CommentReply = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(EmojiReaction),
  body: Body,
  urls: Location,
  permissions: Permissions,
});
export type CommentReply = Static<typeof CommentReply>;
