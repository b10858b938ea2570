import type { Actor } from '../../auth/actor.js';
import { validateDocument } from '../../content/validate-document.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type {
  ChangeRequestContributorsTable,
  ChangeRequestReviewersTable,
  ChangeRequestReviewsTable,
  ChangeRequestsTable,
} from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MembersService } from '../members/service.js';
import type { UserRow } from '../users/present.js';
import type { UsersService } from '../users/service.js';
import type { RequestReviewersBody, SubmitReviewBody } from './schemas.js';
import type { ChangeRequestsService } from './service.js';

/** Requested reviewers, reviews and contributors of change requests. */
/** The services reviews call. */
export interface ReviewsNeeds {
  changeRequests: Pick<ChangeRequestsService, 'access'>;
  members: Pick<MembersService, 'among'>;
  users: Pick<UsersService, 'byIds'>;
}

export class ReviewsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: ReviewsNeeds,
  ) {}

  async listRequested(
    actor: Actor,
    spaceId: string,
    crId: string,
    page: PageRequest,
  ): Promise<{ page: Page<ChangeRequestReviewersTable>; users: Map<string, UserRow> }> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'view');
    const query = this.deps.db
      .selectFrom('change_request_reviewers')
      .selectAll()
      .where('change_request_id', '=', cr.id);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'user_id', dir: 'asc', value: (r) => r.user_id },
      ],
      page,
      'requested-reviewers',
    );
    const users = await this.services.users.byIds(
      this.deps.db,
      result.items.flatMap((r) => [r.user_id, r.requested_by]),
    );
    return { page: result, users };
  }

  /** Asks members of the organization to review; answers the reviewers requested by this call. */
  async request(
    actor: Actor,
    spaceId: string,
    crId: string,
    input: RequestReviewersBody,
  ): Promise<{ rows: ChangeRequestReviewersTable[]; users: Map<string, UserRow> }> {
    const { cr, space } = await this.services.changeRequests.access(actor, spaceId, crId, 'propose');
    if (cr.status === 'merged')
      throw conflict('This change request is merged; there is nothing left to review');
    if (input.description !== undefined) validateDocument(input.description, 'body.description');
    const unique = [...new Set(input.users)];
    const members = await this.services.members.among(this.deps.db, space.org_id, unique);
    const stranger = input.users.findIndex((id) => !members.has(id));
    if (stranger >= 0) {
      throw invalidField(
        `body.users.${stranger}`,
        `"${input.users[stranger]}" is not a member of this organization`,
      );
    }
    const now = this.deps.clock.now().toISOString();
    const rows = unique.map((userId) => ({
      change_request_id: cr.id,
      user_id: userId,
      requested_by: actor.userId,
      revision: cr.revision,
      created_at: now,
    }));
    await this.deps.db.transaction().execute(async (tx) => {
      for (const row of rows) {
        await tx
          .insertInto('change_request_reviewers')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['change_request_id', 'user_id'])
              .doUpdateSet({ revision: row.revision, requested_by: row.requested_by }),
          )
          .execute();
      }
      const patch: Partial<ChangeRequestsTable> = { updated_at: now };
      if (input.subject !== undefined) patch.subject = input.subject.trim();
      if (input.description !== undefined) patch.description = JSON.stringify(input.description);
      await tx.updateTable('change_requests').set(patch).where('id', '=', cr.id).execute();
    });
    const users = await this.services.users.byIds(this.deps.db, [...unique, actor.userId]);
    return { rows, users };
  }

  async removeRequested(actor: Actor, spaceId: string, crId: string, userId: string): Promise<void> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'propose');
    await this.deps.db
      .deleteFrom('change_request_reviewers')
      .where('change_request_id', '=', cr.id)
      .where('user_id', '=', userId)
      .execute();
  }

  async submit(
    actor: Actor,
    spaceId: string,
    crId: string,
    input: SubmitReviewBody,
  ): Promise<{ row: ChangeRequestReviewsTable; cr: ChangeRequestsTable; reviewer: UserRow }> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'review');
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw conflict(`This change request is ${cr.status}; it can no longer be reviewed`);
    }
    if (cr.created_by === actor.userId) throw forbidden('Authors cannot review their own change request');
    const now = this.deps.clock.now().toISOString();
    const row: ChangeRequestReviewsTable = {
      id: newId(),
      change_request_id: cr.id,
      reviewer_id: actor.userId,
      status: input.status,
      revision: cr.revision,
      comment: input.comment?.markdown ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.insertInto('change_request_reviews').values(row).execute();
      await tx.updateTable('change_requests').set({ updated_at: now }).where('id', '=', cr.id).execute();
    });
    const reviewer = (await this.services.users.byIds(this.deps.db, [actor.userId])).get(actor.userId)!;
    return { row, cr, reviewer };
  }

  async list(
    actor: Actor,
    spaceId: string,
    crId: string,
    page: PageRequest,
  ): Promise<{
    page: Page<ChangeRequestReviewsTable>;
    cr: ChangeRequestsTable;
    users: Map<string, UserRow>;
  }> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'view');
    const query = this.deps.db
      .selectFrom('change_request_reviews')
      .selectAll()
      .where('change_request_id', '=', cr.id);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'reviews',
    );
    const users = await this.services.users.byIds(
      this.deps.db,
      result.items.map((r) => r.reviewer_id),
    );
    return { page: result, cr, users };
  }

  async get(
    actor: Actor,
    spaceId: string,
    crId: string,
    reviewId: string,
  ): Promise<{ row: ChangeRequestReviewsTable; cr: ChangeRequestsTable; reviewer: UserRow }> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'view');
    const row = await this.deps.db
      .selectFrom('change_request_reviews')
      .selectAll()
      .where('change_request_id', '=', cr.id)
      .where('id', '=', reviewId)
      .executeTakeFirst();
    if (!row) throw notFound(`Review "${reviewId}" not found`);
    const reviewer = (await this.services.users.byIds(this.deps.db, [row.reviewer_id])).get(row.reviewer_id)!;
    return { row, cr, reviewer };
  }

  /** The latest review of each reviewer of a change request. */
  async latestByReviewer(crId: string): Promise<Map<string, ChangeRequestReviewsTable>> {
    const rows = await this.deps.db
      .selectFrom('change_request_reviews')
      .selectAll()
      .where('change_request_id', '=', crId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return new Map(rows.map((r) => [r.reviewer_id, r]));
  }

  async contributors(
    actor: Actor,
    spaceId: string,
    crId: string,
    page: PageRequest,
  ): Promise<{ page: Page<ChangeRequestContributorsTable>; users: Map<string, UserRow> }> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, crId, 'view');
    const query = this.deps.db
      .selectFrom('change_request_contributors')
      .selectAll()
      .where('change_request_id', '=', cr.id);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'updated_at', dir: 'desc', value: (r) => r.updated_at },
        { ref: 'user_id', dir: 'desc', value: (r) => r.user_id },
        { ref: 'action_type', dir: 'desc', value: (r) => r.action_type },
      ],
      page,
      'contributors',
    );
    const users = await this.services.users.byIds(
      this.deps.db,
      result.items.map((r) => r.user_id),
    );
    return { page: result, users };
  }
}
