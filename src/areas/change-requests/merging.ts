import type { Actor } from '../../auth/actor.js';
import { CowMap } from '../../content/cow-map.js';
import { type MergeConflict, mergeContents } from '../../content/merge.js';
import { insertRevision, revisionTreeHash } from '../../content/revisions.js';
import type { ContentStore, Snapshot } from '../../content/store.js';
import type { PageNode } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { ChangeRequestsTable, SpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, conflict, preconditionFailed } from '../../errors.js';
import type { LinkIndex } from '../content/link-index.js';
import type { MergeRules } from '../orgs/schemas.js';
import type { OrgsService } from '../orgs/service.js';
import type { SpacesService } from '../spaces/service.js';
import { unmetMergeRules } from './merge-rules.js';
import type { ReviewsService } from './reviews.js';
import type { ChangeRequestsService } from './service.js';

export interface MergeOutcome<Done extends 'merge' | 'update'> {
  revision: string;
  result: Done | 'conflicts';
  conflicts?: MergeConflict[];
}

export interface ThreeWay {
  conflicts: MergeConflict[];
  /** The merged tree, when there are no conflicts. */
  treeHash?: string;
  /** The pages that differ from the target side. */
  changedPages: Set<string>;
}

/**
 * Merging a change request into the main content, and bringing a change request up to date
 * with it. Both are three-way merges by page id (see content/merge.ts) from the last main
 * revision the change request saw; with conflicts nothing is written.
 */
/** What a three-way merge reads and writes in the object store. */
export type MergeStore = Pick<ContentStore, 'readBody' | 'diff' | 'putBodies' | 'writeTree'>;

/** The services merging calls. */
export interface MergeNeeds {
  changeRequests: Pick<ChangeRequestsService, 'access' | 'countStatusChange'>;
  reviews: Pick<ReviewsService, 'latestByReviewer'>;
  spaces: Pick<SpacesService, 'lockRow' | 'moveHead'>;
  orgs: Pick<OrgsService, 'requireRow'>;
  store: MergeStore & Pick<ContentStore, 'snapshot'>;
  links: Pick<LinkIndex, 'reindex'>;
}

export class MergeService {
  constructor(
    private readonly deps: Deps,
    private readonly services: MergeNeeds,
  ) {}

  async merge(actor: Actor, spaceId: string, idOrNumber: string): Promise<MergeOutcome<'merge'>> {
    const { cr, space } = await this.services.changeRequests.access(actor, spaceId, idOrNumber, 'merge');
    this.requireMergeable(cr);
    const rules = await this.effectiveRules(space);
    const unmet = unmetMergeRules(rules, {
      cr,
      reviews: await this.services.reviews.latestByReviewer(cr.id),
      outdated: space.revision_id !== cr.revision_merged_ancestor,
      actorId: actor.userId,
    });
    if (unmet.length > 0) {
      throw preconditionFailed(`The merge rules of this space require ${unmet.join('; ')}`);
    }

    return this.deps.db.transaction().execute(async (tx): Promise<MergeOutcome<'merge'>> => {
      const fresh = await this.lock(tx, spaceId, cr.id);
      this.requireMergeable(fresh.cr);
      const main = fresh.space.revision_id;
      const now = this.deps.clock.now().toISOString();
      let mergedRevision = main;
      const noChanges = fresh.cr.revision === fresh.cr.revision_merged_ancestor;
      if (!noChanges) {
        const merged = await this.threeWay(tx, fresh.cr.revision_merged_ancestor, main, fresh.cr.revision);
        if (merged.conflicts.length > 0)
          return { revision: main, result: 'conflicts', conflicts: merged.conflicts };
        const revision = await insertRevision(tx, {
          spaceId,
          treeHash: merged.treeHash!,
          parents: [main, fresh.cr.revision],
          type: 'merge',
          createdBy: actor.userId,
          createdAt: now,
          mergedFrom: fresh.cr.id,
        });
        mergedRevision = revision.id;
        await this.services.spaces.moveHead(tx, { spaceId, revisionId: revision.id, by: actor.userId }, now);
        const snapshot = await this.services.store.snapshot(tx, merged.treeHash!);
        await this.services.links.reindex(tx, spaceId, snapshot.content, merged.changedPages);
      }
      await tx
        .updateTable('change_requests')
        .set({
          status: 'merged',
          revision_merged: mergedRevision,
          merged_by: actor.userId,
          merged_at: now,
          updated_at: now,
        })
        .where('id', '=', fresh.cr.id)
        .execute();
      await this.services.changeRequests.countStatusChange(tx, spaceId, fresh.cr.status, 'merged');
      return { revision: mergedRevision, result: 'merge' };
    });
  }

  async update(actor: Actor, spaceId: string, idOrNumber: string): Promise<MergeOutcome<'update'>> {
    const { cr } = await this.services.changeRequests.access(actor, spaceId, idOrNumber, 'edit');
    this.requireMergeable(cr);
    return this.deps.db.transaction().execute(async (tx): Promise<MergeOutcome<'update'>> => {
      const fresh = await this.lock(tx, spaceId, cr.id);
      this.requireMergeable(fresh.cr);
      const main = fresh.space.revision_id;
      const head = fresh.cr.revision;
      if (main === fresh.cr.revision_merged_ancestor) return { revision: head, result: 'update' };
      const now = this.deps.clock.now().toISOString();
      // A change request without changes of its own simply moves to the main content.
      if (head === fresh.cr.revision_merged_ancestor) {
        await this.moveHead(tx, fresh.cr.id, main, main, now);
        return { revision: main, result: 'update' };
      }
      const merged = await this.threeWay(tx, fresh.cr.revision_merged_ancestor, head, main);
      if (merged.conflicts.length > 0)
        return { revision: head, result: 'conflicts', conflicts: merged.conflicts };
      const revision = await insertRevision(tx, {
        spaceId,
        treeHash: merged.treeHash!,
        parents: [head, main],
        type: 'update',
        createdBy: actor.userId,
        createdAt: now,
        changeRequestId: fresh.cr.id,
      });
      await this.moveHead(tx, fresh.cr.id, revision.id, main, now);
      return { revision: revision.id, result: 'update' };
    });
  }

  private requireMergeable(cr: ChangeRequestsTable): void {
    if (cr.status === 'merged') throw conflict('This change request is already merged');
    if (cr.status === 'archived')
      throw conflict('This change request is archived; reopen it (status open) first');
  }

  private async moveHead(
    tx: Tx,
    crId: string,
    revision: string,
    ancestor: string,
    now: string,
  ): Promise<void> {
    await tx
      .updateTable('change_requests')
      .set({ revision, revision_merged_ancestor: ancestor, updated_at: now })
      .where('id', '=', crId)
      .execute();
  }

  /** Re-reads the space and change request inside the transaction, the space row locked. */
  private async lock(
    tx: Tx,
    spaceId: string,
    crId: string,
  ): Promise<{ space: SpacesTable; cr: ChangeRequestsTable }> {
    const space = await this.services.spaces.lockRow(tx, spaceId);
    if (!space) throw new ApiError(500, `space ${spaceId} is missing`);
    const cr = await tx
      .selectFrom('change_requests')
      .selectAll()
      .where('id', '=', crId)
      .executeTakeFirstOrThrow();
    return { space, cr };
  }

  private async effectiveRules(space: SpacesTable): Promise<MergeRules> {
    const own = JSON.parse(space.merge_rules) as MergeRules | { type: 'inherit' };
    if (own.type !== 'inherit') return own;
    const org = await this.services.orgs.requireRow(space.org_id);
    return JSON.parse(org.merge_rules) as MergeRules;
  }

  /** Merges `theirs` into `ours` from `base` and writes the result's tree (not a revision). */
  private async threeWay(tx: Tx, baseId: string, oursId: string, theirsId: string): Promise<ThreeWay> {
    const [base, ours, theirs] = await Promise.all(
      [baseId, oursId, theirsId].map((id) => this.snapshotOf(tx, id)),
    );
    return threeWayMerge(this.services.store, tx, base!, ours!, theirs!);
  }

  private async snapshotOf(tx: Tx, revisionId: string): Promise<Snapshot> {
    return this.services.store.snapshot(tx, await revisionTreeHash(tx, revisionId));
  }
}

/**
 * Merges the `theirs` snapshot into `ours` from `base` and writes the result's tree (not a
 * revision); with conflicts nothing is written. Shared with git sync (export over a moved branch).
 */
export async function threeWayMerge(
  store: MergeStore,
  tx: Tx,
  base: Snapshot,
  ours: Snapshot,
  theirs: Snapshot,
): Promise<ThreeWay> {
  const result = await mergeContents({
    base: base.content,
    ours: ours.content,
    theirs: theirs.content,
    loadBody: (hash) => store.readBody(tx, hash),
    edited: { ours: await store.diff(tx, base, ours), theirs: await store.diff(tx, base, theirs) },
    oursIndexes: ours.indexes(),
  });
  if (result.conflicts.length > 0) return { conflicts: result.conflicts, changedPages: result.changedPages };
  let content = result.content;
  if (result.mergedBodies.size > 0) {
    const ids = [...result.mergedBodies.keys()];
    const hashes = await store.putBodies(
      tx,
      ids.map((id) => result.mergedBodies.get(id)!),
    );
    const pages = CowMap.of(content.pages);
    ids.forEach((id, i) => {
      const page = pages.get(id) as PageNode;
      pages.set(id, { ...page, body: hashes[i]! });
    });
    content = { ...content, pages };
  }
  const treeHash =
    content === theirs.content && ours.content === base.content
      ? theirs.treeHash
      : await store.writeTree(tx, ours, content, {
          pages: result.changedPages,
          files: result.changedFiles,
          reusable: result.changedReusableContents.size > 0,
          variables: true,
        });
  return { conflicts: [], treeHash, changedPages: result.changedPages };
}
