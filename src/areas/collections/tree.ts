import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.js';

export interface Subtree {
  /** The collection itself and every collection below it. */
  collections: string[];
  /** Every space in any of them. */
  spaces: string[];
}

/**
 * The collection and every collection below it (deleted ones included, so a purge or transfer
 * misses nothing).
 */
export async function collectionTree(db: Tx | Db, collectionId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive tree(id, depth) as (
      select id, 0 from collections where id = ${collectionId}
      union all
      select c.id, tree.depth + 1 from collections c join tree on c.parent_id = tree.id where tree.depth < 64
    )
    select id from tree`.execute(db);
  return rows.map((r) => r.id);
}

/** True when `candidate` is `collectionId` or lies below it. */
export async function isWithin(db: Tx | Db, candidate: string, collectionId: string): Promise<boolean> {
  const { rows } = await sql<{ id: string }>`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 0 from collections where id = ${candidate}
      union all
      select c.id, c.parent_id, chain.depth + 1 from collections c join chain on c.id = chain.parent_id where chain.depth < 64
    )
    select id from chain where id = ${collectionId}`.execute(db);
  return rows.length > 0;
}
