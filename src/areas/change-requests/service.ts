import type { Actor } from '../../auth/actor.js';
import type { Authorizer, SpaceAccess } from '../../auth/authorize.js';
import type { ContentAction } from '../../auth/content-policy.js';
import { validateDocument } from '../../content/validate-document.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate, type SortKey } from '../../db/keyset.js';
import { lockSpace } from '../../db/locks.js';
import type { ChangeRequestStatus, ChangeRequestsTable, UsersTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SpacesService } from '../spaces/service.js';
import type { UsersService } from '../users/service.js';
import type { ChangeRequestView } from './present.js';
import type {
  CreateChangeRequestBody,
  ListOrgChangeRequestsQuery,
  ListSpaceChangeRequestsQuery,
  UpdateChangeRequestBody,
} from './schemas.js';

export interface ChangeRequestAccess extends SpaceAccess {
  cr: ChangeRequestsTable;
}

/** The services change requests call. */
export interface ChangeRequestsNeeds {
  authz: Pick<Authorizer, 'space' | 'scope'>;
  spaces: Pick<SpacesService, 'visibleIdsIn' | 'revisionIds' | 'countChangeRequests'>;
  users: Pick<UsersService, 'byIds'>;
  /** Whether a conversations cluster of the organization has this id. */
  clusterExists(orgId: string, clusterId: string): Promise<boolean>;
}

export class ChangeRequestsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: ChangeRequestsNeeds,
  ) {}

  /** A change request by id, without a permission check. */
  async find(db: Db | Tx, crId: string): Promise<ChangeRequestsTable | undefined> {
    return db.selectFrom('change_requests').selectAll().where('id', '=', crId).executeTakeFirst();
  }

  /** Moves the count of open comments shown on the change request. */
  async countComments(tx: Tx, crId: string, delta: number): Promise<void> {
    await tx
      .updateTable('change_requests')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', crId)
      .execute();
  }

  /**
   * Archives a change request nothing was written into (an import that failed before its first
   * write); merged, archived or edited ones stay as they are.
   */
  async archiveIfUntouched(tx: Tx, spaceId: string, crId: string): Promise<void> {
    const cr = await tx
      .selectFrom('change_requests')
      .select(['status', 'revision', 'revision_initial'])
      .where('id', '=', crId)
      .executeTakeFirst();
    if (!cr || cr.status === 'merged' || cr.status === 'archived' || cr.revision !== cr.revision_initial)
      return;
    await tx
      .updateTable('change_requests')
      .set({ status: 'archived', updated_at: this.deps.clock.now().toISOString() })
      .where('id', '=', crId)
      .execute();
    await this.countStatusChange(tx, spaceId, cr.status, 'archived');
  }

  /**
   * A change request of a space the caller may do `action` on, by id or by number in the space.
   * Change requests of spaces the caller cannot see are 404 like the space.
   */
  async access(
    actor: Actor,
    spaceId: string,
    idOrNumber: string,
    action: ContentAction,
  ): Promise<ChangeRequestAccess> {
    const access = await this.services.authz.space(actor, spaceId, action);
    let query = this.deps.db.selectFrom('change_requests').selectAll().where('space_id', '=', spaceId);
    query = /^\d{1,9}$/.test(idOrNumber)
      ? query.where('number', '=', Number(idOrNumber))
      : query.where('id', '=', idOrNumber);
    const cr = await query.executeTakeFirst();
    if (!cr) throw notFound(`Change request "${idOrNumber}" not found in this space`);
    return { ...access, cr };
  }

  async create(actor: Actor, spaceId: string, input: CreateChangeRequestBody): Promise<ChangeRequestView> {
    const { space } = await this.services.authz.space(actor, spaceId, 'propose');
    const cluster = input.conversationsIssuesCluster;
    if (cluster !== undefined && !(await this.services.clusterExists(space.org_id, cluster))) {
      throw invalidField(
        'body.conversationsIssuesCluster',
        `"${cluster}" is not a conversations cluster of this organization`,
      );
    }
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      await lockSpace(tx, this.deps.dialect, spaceId);
      const now = this.deps.clock.now().toISOString();
      const last = await tx
        .selectFrom('change_requests')
        .select((eb) => eb.fn.max('number').as('n'))
        .where('space_id', '=', spaceId)
        .executeTakeFirst();
      await tx
        .insertInto('change_requests')
        .values({
          id,
          space_id: spaceId,
          number: Number(last?.n ?? 0) + 1,
          status: 'draft',
          subject: input.subject?.trim() ?? '',
          description: null,
          created_by: actor.userId,
          created_at: now,
          updated_at: now,
          merged_by: null,
          merged_at: null,
          revision_initial: space.revision_id,
          revision: space.revision_id,
          revision_merged_ancestor: space.revision_id,
          revision_merged: null,
          comments: 0,
          conversations_cluster_id: cluster ?? null,
        })
        .execute();
      await this.countStatusChange(tx, spaceId, null, 'draft');
    });
    return this.view(actor, spaceId, id);
  }

  async view(actor: Actor, spaceId: string, idOrNumber: string): Promise<ChangeRequestView> {
    const { cr, space } = await this.access(actor, spaceId, idOrNumber, 'view');
    return this.toView(this.deps.db, cr, space.revision_id);
  }

  async toView(db: Db | Tx, cr: ChangeRequestsTable, spaceRevision: string): Promise<ChangeRequestView> {
    const users = await this.services.users.byIds(db, [
      cr.created_by,
      ...(cr.merged_by ? [cr.merged_by] : []),
    ]);
    return {
      row: cr,
      createdBy: users.get(cr.created_by)!,
      mergedBy: cr.merged_by ? users.get(cr.merged_by) : undefined,
      spaceRevision,
    };
  }

  async update(
    actor: Actor,
    spaceId: string,
    idOrNumber: string,
    input: UpdateChangeRequestBody,
  ): Promise<ChangeRequestView> {
    const { cr } = await this.access(actor, spaceId, idOrNumber, 'propose');
    if (cr.status === 'merged') throw conflict('This change request is merged and can no longer change');
    if (input.description !== undefined) validateDocument(input.description, 'body.description');
    await this.deps.db.transaction().execute(async (tx) => {
      const patch: Partial<ChangeRequestsTable> = { updated_at: this.deps.clock.now().toISOString() };
      if (input.subject !== undefined) patch.subject = input.subject.trim();
      if (input.description !== undefined) patch.description = JSON.stringify(input.description);
      if (input.status !== undefined && input.status !== cr.status) {
        patch.status = input.status;
        await this.countStatusChange(tx, spaceId, cr.status, input.status);
      }
      await tx.updateTable('change_requests').set(patch).where('id', '=', cr.id).execute();
    });
    return this.view(actor, spaceId, cr.id);
  }

  /** Keeps the space's counters in step with status changes (null: a new change request). */
  async countStatusChange(
    tx: Tx,
    spaceId: string,
    from: ChangeRequestStatus | null,
    to: ChangeRequestStatus,
  ): Promise<void> {
    const delta = { all: from === null ? 1 : 0, open: 0, draft: 0 };
    if (from === 'open') delta.open--;
    if (from === 'draft') delta.draft--;
    if (to === 'open') delta.open++;
    if (to === 'draft') delta.draft++;
    await this.services.spaces.countChangeRequests(tx, spaceId, delta);
  }

  async listInSpace(
    actor: Actor,
    spaceId: string,
    query: ListSpaceChangeRequestsQuery,
  ): Promise<Page<ChangeRequestView>> {
    const { space } = await this.services.authz.space(actor, spaceId, 'view');
    const q = this.filtered(
      this.changeRequests().where('cr.space_id', '=', spaceId),
      [query.status ?? 'open'],
      query,
    );
    return this.views(await this.paginateList(q, query), new Map([[spaceId, space.revision_id]]));
  }

  async listInOrg(
    actor: Actor,
    orgId: string,
    query: ListOrgChangeRequestsQuery,
  ): Promise<Page<ChangeRequestView>> {
    const scope = await this.services.authz.scope(actor, orgId);
    const visible = this.services.spaces.visibleIdsIn(orgId, scope.spaceVisibility());
    let q = this.changeRequests().where('cr.space_id', 'in', visible);
    if (query.space) q = q.where('cr.space_id', '=', query.space);
    const page = await this.paginateList(this.filtered(q, query.status ?? ['open'], query), query);
    const spaceIds = [...new Set(page.items.map((cr) => cr.space_id))];
    return this.views(page, await this.services.spaces.revisionIds(spaceIds));
  }

  private changeRequests() {
    return this.deps.db.selectFrom('change_requests as cr').selectAll('cr');
  }

  private filtered(
    q: ReturnType<ChangeRequestsService['changeRequests']>,
    statuses: ChangeRequestStatus[],
    filters: {
      creator?: string | undefined;
      contributor?: string | undefined;
      requestedReviewer?: string | undefined;
      conversationsIssuesCluster?: string | undefined;
    },
  ) {
    let query = q.where('cr.status', 'in', statuses);
    if (filters.creator) query = query.where('cr.created_by', '=', filters.creator);
    if (filters.conversationsIssuesCluster)
      query = query.where('cr.conversations_cluster_id', '=', filters.conversationsIssuesCluster);
    const { contributor, requestedReviewer } = filters;
    if (contributor) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('change_request_contributors as c')
            .select('c.user_id')
            .whereRef('c.change_request_id', '=', 'cr.id')
            .where('c.user_id', '=', contributor),
        ),
      );
    }
    if (requestedReviewer) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('change_request_reviewers as r')
            .select('r.user_id')
            .whereRef('r.change_request_id', '=', 'cr.id')
            .where('r.user_id', '=', requestedReviewer),
        ),
      );
    }
    return query;
  }

  private paginateList(
    q: ReturnType<ChangeRequestsService['changeRequests']>,
    query: {
      orderBy?: 'updatedAt' | 'createdAt' | undefined;
      page?: string | undefined;
      limit?: number | undefined;
    },
  ): Promise<Page<ChangeRequestsTable>> {
    const by = query.orderBy ?? 'updatedAt';
    const column = by === 'createdAt' ? 'created_at' : 'updated_at';
    const keys: SortKey<ChangeRequestsTable>[] = [
      { ref: `cr.${column}`, dir: 'desc', value: (r) => r[column] },
      { ref: 'cr.id', dir: 'desc', value: (r) => r.id },
    ];
    return paginate(this.deps.db, q, keys, query, `change-requests:${by}`);
  }

  private async views(
    page: Page<ChangeRequestsTable>,
    spaceRevisions: Map<string, string>,
  ): Promise<Page<ChangeRequestView>> {
    const users = await this.services.users.byIds(
      this.deps.db,
      page.items.flatMap((cr) => [cr.created_by, ...(cr.merged_by ? [cr.merged_by] : [])]),
    );
    return {
      ...page,
      items: page.items.map((cr) => ({
        row: cr,
        createdBy: users.get(cr.created_by) as UsersTable,
        mergedBy: cr.merged_by ? users.get(cr.merged_by) : undefined,
        spaceRevision: spaceRevisions.get(cr.space_id) ?? cr.revision_merged_ancestor,
      })),
    };
  }

  /** Records one more contribution of `userId` to the change request: a revision, or a comment. */
  async addContribution(
    tx: Tx,
    crId: string,
    userId: string,
    now: string,
    action: 'edit' | 'comment' = 'edit',
  ): Promise<void> {
    await tx
      .insertInto('change_request_contributors')
      .values({ change_request_id: crId, user_id: userId, action_type: action, count: 1, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['change_request_id', 'user_id', 'action_type']).doUpdateSet((eb) => ({
          count: eb('change_request_contributors.count', '+', 1),
          updated_at: now,
        })),
      )
      .execute();
  }
}
