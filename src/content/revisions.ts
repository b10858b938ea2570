import type { Db, Tx } from '../db/database.js';
import type { RevisionsTable } from '../db/tables.js';
import { newId } from '../ids.js';

export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback';

export interface GitCommit {
  oid: string;
  message: string;
  createdByGitBook: boolean;
  url?: string;
  ref?: string;
}

export interface NewRevision {
  spaceId: string;
  treeHash: string;
  parents: string[];
  type: RevisionType;
  createdBy: string | null;
  createdAt: string;
  changeRequestId?: string | null;
  mergedFrom?: string | null;
  git?: GitCommit | null;
}

/** Writes a revision row; the tree it points at is already in the object store. */
export async function insertRevision(tx: Tx | Db, input: NewRevision): Promise<RevisionsTable> {
  const row: RevisionsTable = {
    id: newId(),
    space_id: input.spaceId,
    parents: JSON.stringify(input.parents),
    type: input.type,
    tree_hash: input.treeHash,
    created_by: input.createdBy,
    created_at: input.createdAt,
    change_request_id: input.changeRequestId ?? null,
    merged_from: input.mergedFrom ?? null,
    git: input.git ? JSON.stringify(input.git) : null,
  };
  await tx.insertInto('revisions').values(row).execute();
  return row;
}

export async function findRevision(
  db: Tx | Db,
  spaceId: string,
  revisionId: string,
): Promise<RevisionsTable | undefined> {
  return db
    .selectFrom('revisions')
    .selectAll()
    .where('id', '=', revisionId)
    .where('space_id', '=', spaceId)
    .executeTakeFirst();
}

export async function revisionTreeHash(db: Tx | Db, revisionId: string): Promise<string> {
  const row = await db
    .selectFrom('revisions')
    .select('tree_hash')
    .where('id', '=', revisionId)
    .executeTakeFirstOrThrow();
  return row.tree_hash;
}

/** The tree of a revision (of the space, when `spaceId` is given), or undefined when there is none. */
export async function findTreeHash(
  db: Tx | Db,
  revisionId: string,
  spaceId?: string,
): Promise<string | undefined> {
  let query = db.selectFrom('revisions').select('tree_hash').where('id', '=', revisionId);
  if (spaceId) query = query.where('space_id', '=', spaceId);
  return (await query.executeTakeFirst())?.tree_hash;
}

/** Records the git commit a revision was synced as. */
export async function setRevisionGit(tx: Tx | Db, revisionId: string, git: GitCommit): Promise<void> {
  await tx
    .updateTable('revisions')
    .set({ git: JSON.stringify(git) })
    .where('id', '=', revisionId)
    .execute();
}
