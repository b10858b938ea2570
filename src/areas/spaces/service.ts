import type { SpaceVisibility } from '../../auth/access-scope.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { insertRevision, revisionTreeHash } from '../../content/revisions.js';
import type { ContentStore } from '../../content/store.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import { placeAmongSiblings } from '../../db/ordering.js';
import { prepared } from '../../db/prepared.js';
import type { SpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MoveBody, TransferBody } from '../collections/schemas.js';
import type { CollectionsService } from '../collections/service.js';
import type { OrgsService } from '../orgs/service.js';
import type { GrantsService } from '../permissions/service.js';
import type { SpaceView } from './present.js';
import type { CreateSpaceBody, UpdateSpaceBody } from './schemas.js';
import type { TrashService } from './trash.js';
import { visibleSpaces } from './visibility.js';

const DEFAULT_TITLE = 'Untitled space';
const COPY_SUFFIX = ' (copy)';

/** The services spaces call. */
export interface SpacesNeeds {
  authz: Pick<Authorizer, 'org' | 'space' | 'collection' | 'scope'>;
  collections: Pick<CollectionsService, 'requireCreateIn' | 'requireTargetAdmin'>;
  grants: Pick<GrantsService, 'ensureCreatorAdmin' | 'removeOn'>;
  orgs: Pick<OrgsService, 'checkMergeRuleUsers'>;
  store: Pick<ContentStore, 'emptyTree'>;
  trash: Pick<TrashService, 'trash' | 'restoreSpace'>;
}

/** A space's current revision moved, and who moved it (null: the system, e.g. a sync). */
export interface HeadMoved {
  spaceId: string;
  revisionId: string;
  by: string | null;
}

export type HeadMovedListener = (tx: Tx, moved: HeadMoved) => Promise<void>;
/** Told, before the spaces' rows change, that spaces move to the organization `orgId`. */
export type OrgMoveListener = (tx: Tx, spaceIds: string[], orgId: string) => Promise<void>;

export interface VisibilityChanged {
  spaceId: string;
  orgId: string;
  previous: string;
  visibility: string;
}

export type VisibilityListener = (tx: Tx, changed: VisibilityChanged) => Promise<void>;

export class SpacesService {
  private readonly headListeners: HeadMovedListener[] = [];
  private readonly orgMoveListeners: OrgMoveListener[] = [];
  private readonly visibilityListeners: VisibilityListener[] = [];
  /**
   * Every organization search asks it, and it reads every space of the organization (1.5 ms in
   * one of 10,000 spaces): kept while the database is unchanged.
   */
  private readonly languages;

  constructor(
    private readonly deps: Deps,
    private readonly services: SpacesNeeds,
  ) {
    this.languages = prepared(
      deps.db,
      (p: { orgId: string }) =>
        deps.db
          .selectFrom('spaces')
          .select('language')
          .distinct()
          .where('org_id', '=', p.orgId)
          .where('deleted_at', 'is', null),
      deps.database.cache,
    );
  }

  /** The live (not deleted) spaces among `ids`, without a permission check. */
  async liveByIds(ids: string[]): Promise<SpacesTable[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .selectFrom('spaces')
      .selectAll()
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** The space's row, deleted or not, without a permission check. */
  async find(spaceId: string): Promise<SpacesTable | undefined> {
    return this.deps.db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
  }

  /** The space if it is a live one of the organization, without a permission check. */
  async findLiveIn(db: Db | Tx, orgId: string, spaceId: string): Promise<SpacesTable | undefined> {
    return db
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', spaceId)
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Titles of the spaces, by id (deleted ones included). */
  async titles(spaceIds: string[]): Promise<Map<string, string>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.deps.db
      .selectFrom('spaces')
      .select(['id', 'title'])
      .where('id', 'in', spaceIds)
      .execute();
    return new Map(rows.map((row) => [row.id, row.title]));
  }

  /** The languages of the organization's live spaces, each once (null: no language set). */
  async languagesIn(orgId: string): Promise<Array<string | null>> {
    const rows = await this.languages.execute({ orgId });
    return rows.map((row) => row.language);
  }

  /** Whether the space exists and is not in the trash. */
  async isLive(spaceId: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('spaces')
      .select('id')
      .where('id', '=', spaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The spaces in any of the collections (deleted ones included, so a purge or transfer misses none). */
  async idsIn(db: Db | Tx, collectionIds: string[]): Promise<string[]> {
    if (collectionIds.length === 0) return [];
    const rows = await db.selectFrom('spaces').select('id').where('parent_id', 'in', collectionIds).execute();
    return rows.map((r) => r.id);
  }

  /** A query of the ids of the organization's live spaces that `visibility` lets a caller see. */
  visibleIdsIn(orgId: string, visibility: SpaceVisibility) {
    return this.deps.db
      .selectFrom('spaces as s')
      .select('s.id')
      .where('s.org_id', '=', orgId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSpaces(visibility));
  }

  /** The space's current revision, without a permission check (undefined: no such space). */
  async headOf(db: Db | Tx, spaceId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('spaces')
      .select('revision_id')
      .where('id', '=', spaceId)
      .executeTakeFirst();
    return row?.revision_id;
  }

  /** The current revision of each of the spaces, by space id. */
  async revisionIds(spaceIds: string[]): Promise<Map<string, string>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.deps.db
      .selectFrom('spaces')
      .select(['id', 'revision_id'])
      .where('id', 'in', spaceIds)
      .execute();
    return new Map(rows.map((r) => [r.id, r.revision_id]));
  }

  /**
   * Re-reads the space inside a transaction that will move its content, the row locked until
   * the transaction ends (PostgreSQL; SQLite runs one writer at a time).
   */
  async lockRow(tx: Tx, spaceId: string): Promise<SpacesTable | undefined> {
    let query = tx.selectFrom('spaces').selectAll().where('id', '=', spaceId);
    if (this.deps.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  /** Points the space's main content at a new revision (a merge, a git sync). */
  /**
   * The space's current revision becomes `revisionId` (a merge, a git import or export), and
   * everyone who follows the current content hears it within the same transaction.
   */
  async moveHead(tx: Tx, moved: HeadMoved, now: string): Promise<void> {
    await tx
      .updateTable('spaces')
      .set({ revision_id: moved.revisionId, updated_at: now })
      .where('id', '=', moved.spaceId)
      .execute();
    for (const listener of this.headListeners) await listener(tx, moved);
  }

  /** Adds a follower of `moveHead` (search indexing, integration events). */
  onHeadMoved(listener: HeadMovedListener): void {
    this.headListeners.push(listener);
  }

  /** Moves the space's change-request counters (kept on the space row for its views). */
  async countChangeRequests(
    tx: Tx,
    spaceId: string,
    delta: { all: number; open: number; draft: number },
  ): Promise<void> {
    await tx
      .updateTable('spaces')
      .set((eb) => ({
        change_requests: eb('change_requests', '+', delta.all),
        change_requests_open: eb('change_requests_open', '+', delta.open),
        change_requests_draft: eb('change_requests_draft', '+', delta.draft),
      }))
      .where('id', '=', spaceId)
      .execute();
  }

  /** Moves the count of open comments shown on the space. */
  async countComments(tx: Tx, spaceId: string, delta: number): Promise<void> {
    await tx
      .updateTable('spaces')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', spaceId)
      .execute();
  }

  /** Adds a follower of `moveToOrg` (the search index, whose rows name their organization). */
  onOrgMove(listener: OrgMoveListener): void {
    this.orgMoveListeners.push(listener);
  }

  /** Re-homes spaces in another organization (their grants are the caller's to remove). */
  async moveToOrg(tx: Tx, spaceIds: string[], orgId: string, now: string): Promise<void> {
    if (spaceIds.length === 0) return;
    for (const listener of this.orgMoveListeners) await listener(tx, spaceIds, orgId);
    await tx
      .updateTable('spaces')
      .set({ org_id: orgId, updated_at: now })
      .where('id', 'in', spaceIds)
      .execute();
  }

  async create(actor: Actor, orgId: string, input: CreateSpaceBody): Promise<SpaceView> {
    const parentId = input.parent ?? null;
    await this.services.authz.org(actor, orgId, 'view');
    await this.services.collections.requireCreateIn(actor, orgId, parentId, 'body.parent');
    const visibility = input.visibility ?? 'private';
    if (visibility === 'in-collection' && parentId === null) {
      throw invalidField('body.visibility', '"in-collection" is only for spaces inside a collection');
    }
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      const now = this.deps.clock.now().toISOString();
      const row: SpacesTable = {
        id,
        org_id: orgId,
        parent_id: parentId,
        title: input.title?.trim() || DEFAULT_TITLE,
        emoji: input.emoji || null,
        icon_url: null,
        visibility,
        edit_mode: input.editMode ?? 'live',
        language: input.language ?? null,
        default_level: 'inherit',
        merge_rules: JSON.stringify({ type: 'inherit' }),
        revision_id: '',
        position: await placeAmongSiblings(tx, orgId, parentId, undefined),
        comments: 0,
        change_requests: 0,
        change_requests_open: 0,
        change_requests_draft: 0,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await this.insertWithRevision(tx, row, {
        treeHash: await this.services.store.emptyTree(tx),
        createdBy: actor.userId,
      });
      await this.services.grants.ensureCreatorAdmin(tx, actor, orgId, 'space', id);
    });
    return this.view(actor, id);
  }

  /** Inserts a space together with its first revision (a space always points at one). */
  private async insertWithRevision(
    tx: Tx,
    row: SpacesTable,
    content: { treeHash: string; createdBy: string },
  ): Promise<void> {
    const revisionId = newId();
    await tx
      .insertInto('spaces')
      .values({ ...row, revision_id: revisionId })
      .execute();
    const revision = await insertRevision(tx, {
      spaceId: row.id,
      treeHash: content.treeHash,
      parents: [],
      type: 'edits',
      createdBy: content.createdBy,
      createdAt: row.created_at,
    });
    await tx.updateTable('spaces').set({ revision_id: revision.id }).where('id', '=', row.id).execute();
  }

  async listInOrg(actor: Actor, orgId: string, page: PageRequest): Promise<Page<SpaceView>> {
    const scope = await this.services.authz.scope(actor, orgId);
    const query = this.deps.db
      .selectFrom('spaces as s')
      .selectAll('s')
      .where('s.org_id', '=', orgId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSpaces(scope.spaceVisibility()));
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 's.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 's.id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'spaces:org',
    );
    return { ...result, items: result.items.map((row) => ({ row, role: scope.spaceRole(row) })) };
  }

  /** The spaces of a collection, in their order among siblings. */
  async listInCollection(actor: Actor, collectionId: string, page: PageRequest): Promise<Page<SpaceView>> {
    const { collection } = await this.services.authz.collection(actor, collectionId, 'view');
    const scope = await this.services.authz.scope(actor, collection.org_id);
    const query = this.deps.db
      .selectFrom('spaces as s')
      .selectAll('s')
      .where('s.parent_id', '=', collectionId)
      .where('s.deleted_at', 'is', null)
      .where(visibleSpaces(scope.spaceVisibility()));
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 's.position', dir: 'asc', value: (r) => Number(r.position) },
        { ref: 's.id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'spaces:collection',
    );
    return { ...result, items: result.items.map((row) => ({ row, role: scope.spaceRole(row) })) };
  }

  async view(actor: Actor, spaceId: string, lookup: { deleted?: boolean } = {}): Promise<SpaceView> {
    const { space, role } = await this.services.authz.space(actor, spaceId, 'view', lookup);
    return { row: space, role };
  }

  async update(actor: Actor, spaceId: string, input: UpdateSpaceBody): Promise<SpaceView> {
    const { space } = await this.services.authz.space(actor, spaceId, 'admin');
    const patch: Partial<SpacesTable> = { updated_at: this.deps.clock.now().toISOString() };
    if (input.title !== undefined) patch.title = input.title.trim() || DEFAULT_TITLE;
    if (input.emoji !== undefined) patch.emoji = input.emoji || null;
    if (input.icon !== undefined) {
      if (input.icon !== null && !/^https?:\/\//i.test(input.icon))
        throw invalidField('body.icon', 'must be an http(s) URL');
      patch.icon_url = input.icon;
    }
    if (input.editMode !== undefined) patch.edit_mode = input.editMode;
    if (input.defaultLevel !== undefined) patch.default_level = input.defaultLevel;
    if (input.language !== undefined) patch.language = input.language;
    if (input.mergeRules !== undefined) {
      await this.services.orgs.checkMergeRuleUsers(this.deps.db, space.org_id, input.mergeRules);
      patch.merge_rules = JSON.stringify(input.mergeRules);
    }
    if (input.visibility !== undefined) {
      if (input.visibility === 'in-collection' && space.parent_id === null) {
        throw invalidField('body.visibility', '"in-collection" is only for spaces inside a collection');
      }
      patch.visibility = input.visibility;
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.updateTable('spaces').set(patch).where('id', '=', spaceId).execute();
      if (patch.visibility === undefined || patch.visibility === space.visibility) return;
      const changed = {
        spaceId,
        orgId: space.org_id,
        previous: space.visibility,
        visibility: patch.visibility,
      };
      for (const listener of this.visibilityListeners) await listener(tx, changed);
    });
    return this.view(actor, spaceId);
  }

  /** Adds a follower of visibility changes (integration events). */
  onVisibilityChanged(listener: VisibilityListener): void {
    this.visibilityListeners.push(listener);
  }

  /**
   * Moves the space to the trash; answers false when it was there already.
   *
   * The DELETE scope rule, the same for every DELETE route: what the caller may not see answers
   * 404, exactly as a GET would (an organization they are not in, an object of another
   * organization, a private space), so that a DELETE reveals nothing about what exists where
   * they cannot look (README: another organization's objects answer 404). Inside what they see,
   * deleting what is not there answers 204 (DESIGN §1: gone either way). A space is its own
   * scope, its path naming no organization: an id the caller cannot see (absent, another
   * organization's, private) is 404; one of theirs already in the trash is 204 again.
   */
  async delete(actor: Actor, spaceId: string): Promise<boolean> {
    const { space } = await this.services.authz.space(actor, spaceId, 'admin', { deleted: true });
    if (space.deleted_at !== null) return false;
    await this.deps.db
      .transaction()
      .execute((tx) => this.services.trash.trash(tx, { collections: [], spaces: [spaceId] }));
    return true;
  }

  async restore(actor: Actor, spaceId: string): Promise<SpaceView> {
    await this.services.trash.restoreSpace(actor, spaceId);
    return this.view(actor, spaceId);
  }

  /** A new space beside the original with the same settings and a copy of its current content. */
  async duplicate(actor: Actor, spaceId: string): Promise<SpaceView> {
    const { space } = await this.services.authz.space(actor, spaceId, 'view');
    await this.services.collections.requireCreateIn(actor, space.org_id, space.parent_id, 'parent');
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      const now = this.deps.clock.now().toISOString();
      const base = space.title.slice(0, 50 - COPY_SUFFIX.length);
      await this.insertWithRevision(
        tx,
        {
          ...space,
          id,
          title: `${base}${COPY_SUFFIX}`,
          position: await placeAmongSiblings(tx, space.org_id, space.parent_id, {
            after: { type: 'space', space: space.id },
          }),
          comments: 0,
          change_requests: 0,
          change_requests_open: 0,
          change_requests_draft: 0,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        },
        { treeHash: await revisionTreeHash(tx, space.revision_id), createdBy: actor.userId },
      );
      await this.services.grants.ensureCreatorAdmin(tx, actor, space.org_id, 'space', id);
    });
    return this.view(actor, id);
  }

  async move(actor: Actor, spaceId: string, input: MoveBody): Promise<SpaceView> {
    const { space } = await this.services.authz.space(actor, spaceId, 'admin');
    const parentId = input.parent === undefined ? space.parent_id : input.parent;
    if (parentId !== space.parent_id) {
      await this.services.collections.requireCreateIn(actor, space.org_id, parentId, 'body.parent');
      if (parentId === null && space.visibility === 'in-collection') {
        throw invalidField(
          'body.parent',
          'a space with visibility "in-collection" must stay in a collection',
        );
      }
    } else if (!input.position) {
      throw conflict('The space is already there; give a new parent or a position');
    }
    await this.deps.db.transaction().execute(async (tx) => {
      const position = await placeAmongSiblings(tx, space.org_id, parentId, input.position, spaceId);
      await tx
        .updateTable('spaces')
        .set({ parent_id: parentId, position, updated_at: this.deps.clock.now().toISOString() })
        .where('id', '=', spaceId)
        .execute();
    });
    return this.view(actor, spaceId);
  }

  /** Moves the space to the top level of another organization the caller administers. */
  async transfer(actor: Actor, spaceId: string, input: TransferBody): Promise<SpaceView> {
    const { space } = await this.services.authz.space(actor, spaceId, 'view');
    await this.services.authz.org(actor, space.org_id, 'admin');
    if (input.organization === space.org_id) throw conflict('The space already belongs to this organization');
    await this.services.collections.requireTargetAdmin(actor, input.organization);
    await this.deps.db.transaction().execute(async (tx) => {
      // Grants go: they name users and teams of the old organization.
      await this.moveToOrg(tx, [spaceId], input.organization, this.deps.clock.now().toISOString());
      await this.services.grants.removeOn(tx, [spaceId]);
      const position = await placeAmongSiblings(tx, input.organization, null, undefined, spaceId);
      await tx
        .updateTable('spaces')
        .set({
          parent_id: null,
          position,
          visibility: space.visibility === 'in-collection' ? 'private' : space.visibility,
        })
        .where('id', '=', spaceId)
        .execute();
    });
    return this.view(actor, spaceId);
  }
}
