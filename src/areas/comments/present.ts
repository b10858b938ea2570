import { contentAllows } from '../../auth/content-policy.js';
import type { CommentReactionsTable, CommentRepliesTable, CommentsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { presentUser } from '../users/present.js';
import { bodyIn } from './bodies.js';
import type { CommentFormat, CommentReply, Comment as CommentSchema } from './schemas.js';
import type { CommentContext } from './service.js';

function location(urls: Urls, comment: CommentsTable, replyId?: string): string {
  const thread = comment.change_request_id
    ? `/spaces/${comment.space_id}/change-requests/${comment.change_request_id}/comments`
    : `/spaces/${comment.space_id}/comments`;
  return urls.api(`${thread}/${comment.id}${replyId ? `/replies/${replyId}` : ''}`);
}

function permissions(context: CommentContext, author: string) {
  const { viewer } = context;
  const canComment = contentAllows(viewer.role, 'comment');
  return {
    view: true,
    edit: canComment && author === viewer.userId,
    reply: canComment,
    delete: (canComment && author === viewer.userId) || contentAllows(viewer.role, 'admin'),
  };
}

/** Reactions grouped by emoji, in the order each emoji was first used. */
function reactions(rows: CommentReactionsTable[] | undefined, context: CommentContext, urls: Urls) {
  const byEmoji = new Map<string, CommentReactionsTable[]>();
  for (const row of rows ?? []) byEmoji.set(row.emoji, [...(byEmoji.get(row.emoji) ?? []), row]);
  return [...byEmoji].map(([emoji, list]) => ({
    emoji,
    count: list.length,
    users: list.map((r) => ({
      user: presentUser(context.users.get(r.user_id)!, urls),
      reactedAt: r.reacted_at,
    })),
  }));
}

export function presentComment(
  row: CommentsTable,
  context: CommentContext,
  format: CommentFormat,
  urls: Urls,
): CommentSchema {
  const target: CommentSchema['target'] = { space: row.space_id, revision: row.revision };
  if (row.target_page) target.page = { id: row.target_page };
  if (row.target_node) target.node = { id: row.target_node };
  if (row.target_record && row.target_definition)
    target.tableCell = { record: row.target_record, definition: row.target_definition };
  if (row.change_request_id) target.changeRequest = row.change_request_id;
  const common = {
    object: 'comment' as const,
    id: row.id,
    postedBy: presentUser(context.users.get(row.posted_by)!, urls),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: reactions(context.reactions.get(row.id), context, urls),
    replies: Number(row.replies),
    repliers: (context.repliers.get(row.id) ?? []).map((r) => ({
      updatedAt: r.updated_at,
      count: r.count,
      user: presentUser(context.users.get(r.user_id)!, urls),
    })),
    body: bodyIn(row.body, format),
    target,
    urls: { location: location(urls, row) },
    permissions: permissions(context, row.posted_by),
  };
  if (row.status === 'resolved' && row.resolved_at && row.resolved_by)
    return {
      ...common,
      status: 'resolved',
      resolvedAt: row.resolved_at,
      resolvedBy: presentUser(context.users.get(row.resolved_by)!, urls),
    };
  return { ...common, status: 'open' };
}

export function presentReply(
  comment: CommentsTable,
  row: CommentRepliesTable,
  context: CommentContext,
  format: CommentFormat,
  urls: Urls,
): CommentReply {
  return {
    object: 'comment-reply',
    id: row.id,
    postedBy: presentUser(context.users.get(row.posted_by)!, urls),
    postedAt: row.posted_at,
    ...(row.edited_at ? { editedAt: row.edited_at } : {}),
    reactions: reactions(context.reactions.get(row.id), context, urls),
    body: bodyIn(row.body, format),
    urls: { location: location(urls, comment, row.id) },
    permissions: permissions(context, row.posted_by),
  };
}
