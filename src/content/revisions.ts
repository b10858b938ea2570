import type { Tx } from '../db/database.js';
import { newId } from '../ids.js';
import { putObject } from './objects.js';

/** What a revision holds, stored as one content-addressed object. */
export interface RevisionTree {
  pages: unknown[];
  files: unknown[];
  reusableContents: unknown[];
  variables: Record<string, string>;
}

export const EMPTY_TREE: RevisionTree = { pages: [], files: [], reusableContents: [], variables: {} };

export interface NewRevision {
  spaceId: string;
  tree: RevisionTree | { hash: string };
  parents: string[];
  type: string;
  createdBy: string | null;
  createdAt: string;
}

/** Writes a revision; a tree given by hash is shared, not copied, so a copy of a space is free. */
export async function createRevision(tx: Tx, input: NewRevision): Promise<string> {
  const treeHash = 'hash' in input.tree ? input.tree.hash : await putObject(tx, JSON.stringify(input.tree));
  const id = newId();
  await tx
    .insertInto('revisions')
    .values({
      id,
      space_id: input.spaceId,
      parents: JSON.stringify(input.parents),
      type: input.type,
      tree_hash: treeHash,
      created_by: input.createdBy,
      created_at: input.createdAt,
    })
    .execute();
  return id;
}

export async function revisionTreeHash(tx: Tx, revisionId: string): Promise<string> {
  const row = await tx
    .selectFrom('revisions')
    .select('tree_hash')
    .where('id', '=', revisionId)
    .executeTakeFirstOrThrow();
  return row.tree_hash;
}
