import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { contentAllows } from '../../auth/content-policy.js';
import type { MemberRole } from '../../auth/roles.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import { lockSpace } from '../../db/locks.js';
import type {
  ChangeRequestsTable,
  CommentReactionsTable,
  CommentRepliesTable,
  CommentsTable,
  SpacesTable,
} from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ChangeRequestsService } from '../change-requests/service.js';
import type { ContentService } from '../content/service.js';
import type { MemberCounts, MemberRow } from '../members/present.js';
import type { MembersService } from '../members/service.js';
import type { SpacesService } from '../spaces/service.js';
import type { UserRow } from '../users/present.js';
import type { UsersService } from '../users/service.js';
import { markdownOfBody } from './bodies.js';
import { checkReactions } from './reactions.js';
import type {
  ListCommentsQuery,
  PostCommentBody,
  PostReplyBody,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';

/** Where comments live: a space, or one change request of it. */
export interface Thread {
  spaceId: string;
  changeRequestId?: string | undefined;
}

interface ThreadAccess {
  space: SpacesTable;
  role: MemberRole;
  cr?: ChangeRequestsTable | undefined;
  /** The revision comment targets are looked up in. */
  revision: string;
}

export interface Replier {
  user_id: string;
  count: number;
  updated_at: string;
}

/** Everything the presenters need besides the rows themselves. */
export interface CommentContext {
  viewer: { userId: string; role: MemberRole };
  users: Map<string, UserRow>;
  /** Reactions by the comment or reply they are on, oldest first. */
  reactions: Map<string, CommentReactionsTable[]>;
  repliers: Map<string, Replier[]>;
}

export interface CommentsResult extends CommentContext {
  comments: CommentsTable[];
}

export interface RepliesResult extends CommentContext {
  comment: CommentsTable;
  replies: CommentRepliesTable[];
}

type CommentAction = 'view' | 'comment';

/** The services comments call. */
export interface CommentsNeeds {
  authz: Pick<Authorizer, 'space'>;
  changeRequests: Pick<ChangeRequestsService, 'access' | 'addContribution' | 'countComments'>;
  content: Pick<ContentService, 'hasPage'>;
  members: Pick<MembersService, 'listAmong' | 'counts'>;
  spaces: Pick<SpacesService, 'countComments'>;
  users: Pick<UsersService, 'byIds'>;
}

/** Comments and their replies, in both families: on a space and on a change request. */
export class CommentsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: CommentsNeeds,
  ) {}

  async list(
    actor: Actor,
    thread: Thread,
    query: ListCommentsQuery,
  ): Promise<Page<CommentsTable> & CommentContext> {
    const access = await this.access(actor, thread, 'view');
    const dir = query.order ?? 'desc';
    let q = this.inThread(this.deps.db.selectFrom('comments').selectAll(), access);
    if (query.status === 'open' || query.status === 'resolved') q = q.where('status', '=', query.status);
    if (query.targetPage) q = q.where('target_page', '=', query.targetPage);
    if (query.authors?.length) q = q.where('posted_by', 'in', query.authors);
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'seq', dir, value: (r) => r.seq },
        { ref: 'id', dir, value: (r) => r.id },
      ],
      query,
      `comments:${dir}`,
    );
    return { ...page, ...(await this.context(actor, access, page.items, [])) };
  }

  async get(actor: Actor, thread: Thread, commentId: string): Promise<CommentsResult> {
    const access = await this.access(actor, thread, 'view');
    const comment = await this.find(this.deps.db, access, commentId);
    return { comments: [comment], ...(await this.context(actor, access, [comment], [])) };
  }

  async post(actor: Actor, thread: Thread, input: PostCommentBody): Promise<CommentsResult> {
    const access = await this.access(actor, thread, 'comment');
    const body = markdownOfBody(input.body, 'body.body');
    if (
      input.page !== undefined &&
      !(await this.services.content.hasPage(access.space.id, access.revision, input.page))
    ) {
      throw invalidField('body.page', `is "${input.page}", which is not a page of this content`);
    }
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      await lockSpace(tx, this.deps.dialect, access.space.id);
      const now = this.now();
      const last = await tx
        .selectFrom('comments')
        .select((eb) => eb.fn.max('seq').as('n'))
        .where('space_id', '=', access.space.id)
        .executeTakeFirst();
      await tx
        .insertInto('comments')
        .values({
          id,
          space_id: access.space.id,
          change_request_id: access.cr?.id ?? null,
          seq: Number(last?.n ?? 0) + 1,
          posted_by: actor.userId,
          posted_at: now,
          edited_at: null,
          body,
          revision: access.revision,
          target_page: input.page ?? null,
          target_node: input.node ?? null,
          target_record: input.tableCell?.record ?? null,
          target_definition: input.tableCell?.definition ?? null,
          status: 'open',
          resolved_at: null,
          resolved_by: null,
          replies: 0,
        })
        .execute();
      await this.countOpen(tx, access, 1);
      if (access.cr)
        await this.services.changeRequests.addContribution(tx, access.cr.id, actor.userId, now, 'comment');
    });
    return this.get(actor, thread, id);
  }

  async update(
    actor: Actor,
    thread: Thread,
    commentId: string,
    input: UpdateCommentBody,
  ): Promise<CommentsResult> {
    const access = await this.access(actor, thread, 'comment');
    const comment = await this.find(this.deps.db, access, commentId);
    const edit = this.checkEdit(actor, comment, input);
    await this.deps.db.transaction().execute(async (tx) => {
      const now = this.now();
      const patch: Partial<CommentsTable> = {};
      if (edit.body !== undefined) Object.assign(patch, { body: edit.body, edited_at: now });
      if (input.resolved === true && comment.status === 'open') {
        Object.assign(patch, { status: 'resolved', resolved_at: now, resolved_by: actor.userId });
        await this.countOpen(tx, access, -1);
      } else if (input.resolved === false && comment.status === 'resolved') {
        Object.assign(patch, { status: 'open', resolved_at: null, resolved_by: null });
        await this.countOpen(tx, access, 1);
      }
      if (Object.keys(patch).length > 0)
        await tx.updateTable('comments').set(patch).where('id', '=', comment.id).execute();
      await this.react(tx, actor, comment.id, comment.id, edit, now);
    });
    return this.get(actor, thread, commentId);
  }

  /** Deletes the comment with its replies and reactions; absent is not an error. */
  async delete(actor: Actor, thread: Thread, commentId: string): Promise<void> {
    const access = await this.access(actor, thread, 'view');
    const comment = await this.findOptional(this.deps.db, access, commentId);
    if (!comment) return;
    this.checkDelete(actor, access, comment.posted_by, 'comment');
    await this.deps.db.transaction().execute(async (tx) => {
      // Cascades would do it on both databases; explicit deletes keep it independent of pragmas.
      await tx.deleteFrom('comment_reactions').where('comment_id', '=', comment.id).execute();
      await tx.deleteFrom('comment_replies').where('comment_id', '=', comment.id).execute();
      const gone = await tx.deleteFrom('comments').where('id', '=', comment.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 1 && comment.status === 'open')
        await this.countOpen(tx, access, -1);
    });
  }

  async listReplies(
    actor: Actor,
    thread: Thread,
    commentId: string,
    request: PageRequest,
  ): Promise<Page<CommentRepliesTable> & CommentContext & { comment: CommentsTable }> {
    const access = await this.access(actor, thread, 'view');
    const comment = await this.find(this.deps.db, access, commentId);
    const q = this.deps.db.selectFrom('comment_replies').selectAll().where('comment_id', '=', comment.id);
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'seq', dir: 'asc', value: (r) => r.seq },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      request,
      'comment-replies',
    );
    return { ...page, comment, ...(await this.context(actor, access, [], page.items)) };
  }

  async getReply(actor: Actor, thread: Thread, commentId: string, replyId: string): Promise<RepliesResult> {
    const access = await this.access(actor, thread, 'view');
    const comment = await this.find(this.deps.db, access, commentId);
    const reply = await this.findReply(this.deps.db, comment, replyId);
    return { comment, replies: [reply], ...(await this.context(actor, access, [], [reply])) };
  }

  async postReply(
    actor: Actor,
    thread: Thread,
    commentId: string,
    input: PostReplyBody,
  ): Promise<RepliesResult> {
    const access = await this.access(actor, thread, 'comment');
    const comment = await this.find(this.deps.db, access, commentId);
    const body = markdownOfBody(input.body, 'body.body');
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      await lockSpace(tx, this.deps.dialect, access.space.id);
      const now = this.now();
      const last = await tx
        .selectFrom('comment_replies')
        .select((eb) => eb.fn.max('seq').as('n'))
        .where('comment_id', '=', comment.id)
        .executeTakeFirst();
      await tx
        .insertInto('comment_replies')
        .values({
          id,
          comment_id: comment.id,
          seq: Number(last?.n ?? 0) + 1,
          posted_by: actor.userId,
          posted_at: now,
          edited_at: null,
          body,
        })
        .execute();
      await tx
        .updateTable('comments')
        .set((eb) => ({ replies: eb('replies', '+', 1) }))
        .where('id', '=', comment.id)
        .execute();
      if (access.cr)
        await this.services.changeRequests.addContribution(tx, access.cr.id, actor.userId, now, 'comment');
    });
    return this.getReply(actor, thread, commentId, id);
  }

  async updateReply(
    actor: Actor,
    thread: Thread,
    commentId: string,
    replyId: string,
    input: UpdateReplyBody,
  ): Promise<RepliesResult> {
    const access = await this.access(actor, thread, 'comment');
    const comment = await this.find(this.deps.db, access, commentId);
    const reply = await this.findReply(this.deps.db, comment, replyId);
    const edit = this.checkEdit(actor, reply, input);
    await this.deps.db.transaction().execute(async (tx) => {
      const now = this.now();
      if (edit.body !== undefined)
        await tx
          .updateTable('comment_replies')
          .set({ body: edit.body, edited_at: now })
          .where('id', '=', reply.id)
          .execute();
      await this.react(tx, actor, comment.id, reply.id, edit, now);
    });
    return this.getReply(actor, thread, commentId, replyId);
  }

  async deleteReply(actor: Actor, thread: Thread, commentId: string, replyId: string): Promise<void> {
    const access = await this.access(actor, thread, 'view');
    const comment = await this.findOptional(this.deps.db, access, commentId);
    if (!comment) return;
    const reply = await this.deps.db
      .selectFrom('comment_replies')
      .selectAll()
      .where('id', '=', replyId)
      .where('comment_id', '=', comment.id)
      .executeTakeFirst();
    if (!reply) return;
    this.checkDelete(actor, access, reply.posted_by, 'reply');
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('comment_reactions').where('subject_id', '=', reply.id).execute();
      const gone = await tx.deleteFrom('comment_replies').where('id', '=', reply.id).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 1)
        await tx
          .updateTable('comments')
          .set((eb) => ({ replies: eb('replies', '-', 1) }))
          .where('id', '=', comment.id)
          .execute();
    });
  }

  /** Organization members who posted a comment or a reply in the thread. */
  async commenters(
    actor: Actor,
    thread: Thread,
    request: PageRequest,
  ): Promise<{ page: Page<MemberRow>; counts: Map<string, MemberCounts> }> {
    const access = await this.access(actor, thread, 'view');
    const db = this.deps.db;
    const authors = this.inThread(db.selectFrom('comments').select('posted_by as user_id'), access).union(
      this.inThread(
        db
          .selectFrom('comment_replies')
          .innerJoin('comments', 'comments.id', 'comment_replies.comment_id')
          .select('comment_replies.posted_by as user_id'),
        access,
        'comments.',
      ),
    );
    const page = await this.services.members.listAmong(access.space.org_id, authors, request, 'commenters');
    const counts = await this.services.members.counts(
      access.space.org_id,
      page.items.map((m) => m.user.id),
    );
    return { page, counts };
  }

  private async access(actor: Actor, thread: Thread, action: CommentAction): Promise<ThreadAccess> {
    if (thread.changeRequestId !== undefined) {
      const { space, role, cr } = await this.services.changeRequests.access(
        actor,
        thread.spaceId,
        thread.changeRequestId,
        action,
      );
      return { space, role, cr, revision: cr.revision };
    }
    const { space, role } = await this.services.authz.space(actor, thread.spaceId, action);
    return { space, role, revision: space.revision_id };
  }

  /** Restricts a query on comments to the thread: the space's own comments, or the request's. */
  // biome-ignore lint/suspicious/noExplicitAny: shared by selects over comments alone and joined
  private inThread<Q extends { where: (...args: any[]) => Q }>(q: Q, access: ThreadAccess, prefix = ''): Q {
    const scoped = q.where(`${prefix}space_id`, '=', access.space.id);
    return access.cr
      ? scoped.where(`${prefix}change_request_id`, '=', access.cr.id)
      : scoped.where(`${prefix}change_request_id`, 'is', null);
  }

  private async findOptional(
    db: Db | Tx,
    access: ThreadAccess,
    commentId: string,
  ): Promise<CommentsTable | undefined> {
    return this.inThread(
      db.selectFrom('comments').selectAll().where('id', '=', commentId),
      access,
    ).executeTakeFirst();
  }

  private async find(db: Db | Tx, access: ThreadAccess, commentId: string): Promise<CommentsTable> {
    const comment = await this.findOptional(db, access, commentId);
    if (!comment) throw notFound(`Comment "${commentId}" not found`);
    return comment;
  }

  private async findReply(
    db: Db | Tx,
    comment: CommentsTable,
    replyId: string,
  ): Promise<CommentRepliesTable> {
    const reply = await db
      .selectFrom('comment_replies')
      .selectAll()
      .where('id', '=', replyId)
      .where('comment_id', '=', comment.id)
      .executeTakeFirst();
    if (!reply) throw notFound(`Reply "${replyId}" not found on this comment`);
    return reply;
  }

  /** Validates an edit before anything is written: only authors change a body. */
  private checkEdit(
    actor: Actor,
    subject: { posted_by: string },
    input: UpdateReplyBody,
  ): { body?: string; added: string[]; removed: string[] } {
    const added = checkReactions(input.addedReactions, 'body.addedReactions');
    const removed = checkReactions(input.removedReactions, 'body.removedReactions');
    if (input.body === undefined) return { added, removed };
    if (subject.posted_by !== actor.userId) throw forbidden('Only its author can edit what a comment says');
    return { body: markdownOfBody(input.body, 'body.body'), added, removed };
  }

  private checkDelete(actor: Actor, access: ThreadAccess, author: string, what: 'comment' | 'reply'): void {
    const own = author === actor.userId && contentAllows(access.role, 'comment');
    if (!own && !contentAllows(access.role, 'admin'))
      throw forbidden(`Only its author or an admin of the space can delete a ${what}`);
  }

  /** The caller's reactions: added ones are kept once per emoji, removed ones only their own. */
  private async react(
    tx: Tx,
    actor: Actor,
    commentId: string,
    subjectId: string,
    edit: { added: string[]; removed: string[] },
    now: string,
  ): Promise<void> {
    if (edit.added.length > 0)
      await tx
        .insertInto('comment_reactions')
        .values(
          edit.added.map((emoji) => ({
            comment_id: commentId,
            subject_id: subjectId,
            emoji,
            user_id: actor.userId,
            reacted_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['subject_id', 'emoji', 'user_id']).doNothing())
        .execute();
    if (edit.removed.length > 0)
      await tx
        .deleteFrom('comment_reactions')
        .where('subject_id', '=', subjectId)
        .where('user_id', '=', actor.userId)
        .where('emoji', 'in', edit.removed)
        .execute();
  }

  /** Moves the count of open comments shown on the space or the change request. */
  private async countOpen(tx: Tx, access: ThreadAccess, delta: 1 | -1): Promise<void> {
    if (access.cr) await this.services.changeRequests.countComments(tx, access.cr.id, delta);
    else await this.services.spaces.countComments(tx, access.space.id, delta);
  }

  private async context(
    actor: Actor,
    access: ThreadAccess,
    comments: CommentsTable[],
    replies: CommentRepliesTable[],
  ): Promise<CommentContext> {
    const db = this.deps.db;
    const subjects = [...comments.map((c) => c.id), ...replies.map((r) => r.id)];
    const reactions = new Map<string, CommentReactionsTable[]>();
    if (subjects.length > 0) {
      const rows = await db
        .selectFrom('comment_reactions')
        .selectAll()
        .where('subject_id', 'in', subjects)
        .orderBy('reacted_at')
        .orderBy('user_id')
        .execute();
      for (const row of rows) {
        const list = reactions.get(row.subject_id) ?? [];
        list.push(row);
        reactions.set(row.subject_id, list);
      }
    }
    const repliers = new Map<string, Replier[]>();
    const withReplies = comments.filter((c) => Number(c.replies) > 0).map((c) => c.id);
    if (withReplies.length > 0) {
      const rows = await db
        .selectFrom('comment_replies')
        .select([
          'comment_id',
          'posted_by',
          sql<number>`count(*)`.as('n'),
          sql<string>`max(posted_at)`.as('latest'),
        ])
        .where('comment_id', 'in', withReplies)
        .groupBy(['comment_id', 'posted_by'])
        .orderBy(sql`max(posted_at)`)
        .execute();
      for (const row of rows) {
        const list = repliers.get(row.comment_id) ?? [];
        list.push({ user_id: row.posted_by, count: Number(row.n), updated_at: row.latest });
        repliers.set(row.comment_id, list);
      }
    }
    const userIds = [
      ...comments.flatMap((c) => (c.resolved_by ? [c.posted_by, c.resolved_by] : [c.posted_by])),
      ...replies.map((r) => r.posted_by),
      ...[...reactions.values()].flat().map((r) => r.user_id),
      ...[...repliers.values()].flat().map((r) => r.user_id),
    ];
    const users = await this.services.users.byIds(db, userIds);
    return { viewer: { userId: actor.userId, role: access.role }, users, reactions, repliers };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
