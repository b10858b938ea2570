import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { Tx } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../errors.js';
import type { CollectionsService } from '../collections/service.js';
import type { Subtree } from '../collections/tree.js';
import type { GrantsService } from '../permissions/service.js';

/** Deleted spaces and collections stay restorable this long, then a scheduled job removes them. */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** Follows a purge inside its transaction, given the spaces about to be deleted for good. */
export type PurgeListener = (tx: Tx, spaceIds: string[]) => Promise<void>;

export interface PurgeReport {
  spaces: number;
  collections: number;
}

/**
 * The trash: deleting marks items with `deletedAt` (hidden everywhere, 404 except to restore);
 * restoring a space brings back the collections above it that went with it; after the
 * retention period the purge job deletes them for good.
 */
/** The services the trash calls. */
export interface TrashNeeds {
  authz: Pick<Authorizer, 'space'>;
  collections: Pick<CollectionsService, 'markTrashed' | 'restoreChain' | 'deletedBefore' | 'purgeDeleted'>;
  grants: Pick<GrantsService, 'removeOn'>;
}

export class TrashService {
  private readonly purgeListeners: PurgeListener[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly services: TrashNeeds,
  ) {}

  /** Adds a follower of `purge` (the search index, which drops what it holds of the spaces). */
  onPurge(listener: PurgeListener): void {
    this.purgeListeners.push(listener);
  }

  async trash(tx: Tx, items: Subtree): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    await this.services.collections.markTrashed(tx, items.collections, now);
    if (items.spaces.length > 0) {
      await tx
        .updateTable('spaces')
        .set({ deleted_at: now })
        .where('id', 'in', items.spaces)
        .where('deleted_at', 'is', null)
        .execute();
    }
  }

  async restoreSpace(actor: Actor, spaceId: string): Promise<void> {
    const { space } = await this.services.authz.space(actor, spaceId, 'admin', { deleted: true });
    if (space.deleted_at === null) throw conflict('This space is not deleted; there is nothing to restore');
    const age = this.deps.clock.now().getTime() - Date.parse(space.deleted_at);
    if (age > RETENTION_MS) {
      throw notFound(`Space "${spaceId}" was deleted more than 7 days ago and is gone for good`);
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.updateTable('spaces').set({ deleted_at: null }).where('id', '=', spaceId).execute();
      await this.services.collections.restoreChain(tx, space.parent_id);
    });
  }

  /** Removes what has been in the trash longer than the retention period. */
  async purge(): Promise<PurgeReport> {
    const cutoff = new Date(this.deps.clock.now().getTime() - RETENTION_MS).toISOString();
    return this.deps.db.transaction().execute(async (tx) => {
      const { collections } = this.services;
      await this.services.grants.removeOn(
        tx,
        tx.selectFrom('spaces').select('id').where('deleted_at', '<', cutoff),
      );
      await this.services.grants.removeOn(tx, collections.deletedBefore(tx, cutoff));
      if (this.purgeListeners.length > 0) {
        const gone = await tx.selectFrom('spaces').select('id').where('deleted_at', '<', cutoff).execute();
        const ids = gone.map((row) => row.id);
        if (ids.length > 0) for (const listener of this.purgeListeners) await listener(tx, ids);
      }
      const spaces = await tx.deleteFrom('spaces').where('deleted_at', '<', cutoff).executeTakeFirst();
      return {
        spaces: Number(spaces.numDeletedRows),
        collections: await collections.purgeDeleted(tx, cutoff),
      };
    });
  }
}
