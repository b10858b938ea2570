import type { Actor } from '../../auth/actor.js';
import type { Authorizer, CollectionAccess } from '../../auth/authorize.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import { placeAmongSiblings } from '../../db/ordering.js';
import type { CollectionsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { GrantsService, TargetIdQuery } from '../permissions/service.js';
import type { CollectionView } from './present.js';
import type {
  CreateCollectionBody,
  ListCollectionsQuery,
  MoveBody,
  TransferBody,
  UpdateCollectionBody,
} from './schemas.js';
import { collectionTree, isWithin, type Subtree } from './tree.js';

const DEFAULT_TITLE = 'Untitled collection';

/**
 * What collections reach in the spaces area, which builds on them: the spaces they hold and the
 * trash. Spaces name collections; collections name spaces only by this shape.
 */
export interface CollectionTies {
  /** The spaces in any of the collections, deleted ones included. */
  spacesIn(db: Db | Tx, collectionIds: string[]): Promise<string[]>;
  /** Re-homes spaces in another organization. */
  moveSpacesToOrg(tx: Tx, spaceIds: string[], orgId: string, now: string): Promise<void>;
  /** Moves collections and spaces to the trash. */
  trash(tx: Tx, items: Subtree): Promise<void>;
}

/** The services collections call. */
export interface CollectionsNeeds {
  authz: Pick<Authorizer, 'org' | 'collection' | 'scope' | 'membership' | 'requireOrg'>;
  grants: Pick<GrantsService, 'ensureCreatorAdmin' | 'removeOn'>;
  ties: CollectionTies;
}

export class CollectionsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: CollectionsNeeds,
  ) {}

  /** The live (not deleted) collections among `ids`, without a permission check. */
  async liveByIds(ids: string[]): Promise<CollectionsTable[]> {
    if (ids.length === 0) return [];
    return this.deps.db
      .selectFrom('collections')
      .selectAll()
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Whether the collection exists and is not in the trash. */
  async isLive(collectionId: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('collections')
      .select('id')
      .where('id', '=', collectionId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Everything under a collection (deleted items included, so a purge or transfer misses nothing). */
  private async subtree(db: Tx | Db, collectionId: string): Promise<Subtree> {
    const collections = await collectionTree(db, collectionId);
    return { collections, spaces: await this.services.ties.spacesIn(db, collections) };
  }

  /** Marks live collections as deleted (the trash). */
  async markTrashed(tx: Tx, collectionIds: string[], now: string): Promise<void> {
    if (collectionIds.length === 0) return;
    await tx
      .updateTable('collections')
      .set({ deleted_at: now })
      .where('id', 'in', collectionIds)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Brings back the deleted collections at and above `collectionId` (a restored space's parents). */
  async restoreChain(tx: Tx, collectionId: string | null): Promise<void> {
    let parent = collectionId;
    while (parent) {
      const collection = await tx
        .selectFrom('collections')
        .select(['id', 'parent_id', 'deleted_at'])
        .where('id', '=', parent)
        .executeTakeFirstOrThrow();
      if (collection.deleted_at !== null) {
        await tx
          .updateTable('collections')
          .set({ deleted_at: null })
          .where('id', '=', collection.id)
          .execute();
      }
      parent = collection.parent_id;
    }
  }

  /** The collections deleted before `cutoff`, as a query of their ids. */
  deletedBefore(db: Tx | Db, cutoff: string): TargetIdQuery {
    return db.selectFrom('collections').select('id').where('deleted_at', '<', cutoff);
  }

  /** Deletes for good the collections deleted before `cutoff`; answers how many. */
  async purgeDeleted(tx: Tx, cutoff: string): Promise<number> {
    const result = await tx.deleteFrom('collections').where('deleted_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * A collection named in a request body as the parent of new or moved content: it must be a
   * live collection of `orgId` on which the caller may create. Unknown ones are a 400 naming the
   * field (it is the request that is wrong, not the URL).
   */
  async requireParent(
    actor: Actor,
    orgId: string,
    parentId: string,
    field: string,
  ): Promise<CollectionAccess> {
    let access: CollectionAccess;
    try {
      access = await this.services.authz.collection(actor, parentId, 'view');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw invalidField(field, `"${parentId}" is not a collection of this organization`);
      }
      throw error;
    }
    if (access.collection.org_id !== orgId) {
      throw invalidField(field, `"${parentId}" is not a collection of this organization`);
    }
    return this.services.authz.collection(actor, parentId, 'create');
  }

  /** Who may create at the top level of an organization, or inside `parent`. */
  async requireCreateIn(actor: Actor, orgId: string, parentId: string | null, field: string): Promise<void> {
    if (parentId === null) await this.services.authz.org(actor, orgId, 'createContent');
    else await this.requireParent(actor, orgId, parentId, field);
  }

  async create(actor: Actor, orgId: string, input: CreateCollectionBody): Promise<CollectionView> {
    const parentId = input.parent ?? null;
    await this.services.authz.org(actor, orgId, 'view');
    await this.requireCreateIn(actor, orgId, parentId, 'body.parent');
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      const now = this.deps.clock.now().toISOString();
      await tx
        .insertInto('collections')
        .values({
          id,
          org_id: orgId,
          parent_id: parentId,
          title: input.title?.trim() || DEFAULT_TITLE,
          description: null,
          default_level: 'inherit',
          position: await placeAmongSiblings(tx, orgId, parentId, undefined),
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })
        .execute();
      await this.services.grants.ensureCreatorAdmin(tx, actor, orgId, 'collection', id);
    });
    return this.view(actor, id);
  }

  async list(actor: Actor, orgId: string, query: ListCollectionsQuery): Promise<Page<CollectionView>> {
    const scope = await this.services.authz.scope(actor, orgId);
    const visible = scope.visibleCollectionIds();
    const nested = query.nested ?? true;
    let q = this.deps.db
      .selectFrom('collections')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .where('id', 'in', visible.length > 0 ? visible : ['']);
    if (!nested) q = q.where('parent_id', 'is', null);
    const page = await paginate(
      this.deps.db,
      q,
      nested
        ? [
            { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
            { ref: 'id', dir: 'asc', value: (r) => r.id },
          ]
        : [
            { ref: 'position', dir: 'asc', value: (r) => Number(r.position) },
            { ref: 'id', dir: 'asc', value: (r) => r.id },
          ],
      query,
      nested ? 'collections:nested' : 'collections:top',
    );
    return { ...page, items: page.items.map((row) => ({ row, role: scope.collectionRole(row.id) })) };
  }

  async view(actor: Actor, collectionId: string): Promise<CollectionView> {
    const { collection, role } = await this.services.authz.collection(actor, collectionId, 'view');
    return { row: collection, role };
  }

  async update(actor: Actor, collectionId: string, input: UpdateCollectionBody): Promise<CollectionView> {
    await this.services.authz.collection(actor, collectionId, 'admin');
    const patch: Partial<CollectionsTable> = { updated_at: this.deps.clock.now().toISOString() };
    if (input.title !== undefined) patch.title = input.title.trim() || DEFAULT_TITLE;
    if (input.description !== undefined) patch.description = input.description || null;
    if (input.defaultLevel !== undefined) patch.default_level = input.defaultLevel;
    await this.deps.db.updateTable('collections').set(patch).where('id', '=', collectionId).execute();
    return this.view(actor, collectionId);
  }

  /**
   * Moves the collection, its sub-collections and spaces to the trash; answers false when it was
   * there already. Like a space, the collection is its own scope: 404 for an id the caller
   * cannot see (see SpaceService.delete for the DELETE scope rule), 204 again once trashed.
   */
  async delete(actor: Actor, collectionId: string): Promise<boolean> {
    const { collection } = await this.services.authz.collection(actor, collectionId, 'admin', {
      deleted: true,
    });
    if (collection.deleted_at !== null) return false;
    await this.deps.db.transaction().execute(async (tx) => {
      const tree = await this.subtree(tx, collectionId);
      await this.services.ties.trash(tx, tree);
    });
    return true;
  }

  async move(actor: Actor, collectionId: string, input: MoveBody): Promise<CollectionView> {
    const { collection } = await this.services.authz.collection(actor, collectionId, 'admin');
    const parentId = input.parent === undefined ? collection.parent_id : input.parent;
    if (parentId !== collection.parent_id) {
      await this.requireCreateIn(actor, collection.org_id, parentId, 'body.parent');
      if (parentId !== null && (await isWithin(this.deps.db, parentId, collectionId))) {
        throw invalidField('body.parent', 'cannot be the collection itself or one of its descendants');
      }
    } else if (!input.position) {
      throw conflict('The collection is already there; give a new parent or a position');
    }
    await this.deps.db.transaction().execute(async (tx) => {
      const position = await placeAmongSiblings(
        tx,
        collection.org_id,
        parentId,
        input.position,
        collectionId,
      );
      await tx
        .updateTable('collections')
        .set({ parent_id: parentId, position, updated_at: this.deps.clock.now().toISOString() })
        .where('id', '=', collectionId)
        .execute();
    });
    return this.view(actor, collectionId);
  }

  /** Moves the collection with everything in it to the top level of another organization. */
  async transfer(actor: Actor, collectionId: string, input: TransferBody): Promise<CollectionView> {
    const { collection } = await this.services.authz.collection(actor, collectionId, 'view');
    await this.services.authz.org(actor, collection.org_id, 'admin');
    if (input.organization === collection.org_id) {
      throw conflict('The collection already belongs to this organization');
    }
    await this.requireTargetAdmin(actor, input.organization);
    await this.deps.db.transaction().execute(async (tx) => {
      const tree = await this.subtree(tx, collectionId);
      await this.moveItemsToOrg(tx, tree.collections, tree.spaces, input.organization);
      const position = await placeAmongSiblings(tx, input.organization, null, undefined, collectionId);
      await tx
        .updateTable('collections')
        .set({ parent_id: null, position, updated_at: this.deps.clock.now().toISOString() })
        .where('id', '=', collectionId)
        .execute();
    });
    return this.view(actor, collectionId);
  }

  /** The caller must administer the organization content is transferred to. */
  async requireTargetAdmin(actor: Actor, orgId: string): Promise<void> {
    const membership = await this.services.authz.membership(actor, orgId);
    if (!membership) throw notFound(`Organization "${orgId}" not found`);
    this.services.authz.requireOrg(membership, orgId, 'admin');
  }

  /**
   * Re-homes items in another organization. Grants go: they name users and teams of the old
   * organization.
   */
  private async moveItemsToOrg(
    tx: Tx,
    collectionIds: string[],
    spaceIds: string[],
    orgId: string,
  ): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    if (collectionIds.length > 0) {
      await tx
        .updateTable('collections')
        .set({ org_id: orgId, updated_at: now })
        .where('id', 'in', collectionIds)
        .execute();
    }
    await this.services.ties.moveSpacesToOrg(tx, spaceIds, orgId, now);
    const items = [...collectionIds, ...spaceIds];
    if (items.length > 0) await this.services.grants.removeOn(tx, items);
  }
}
