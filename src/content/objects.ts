import { createHash } from 'node:crypto';
import type { Db, Tx } from '../db/database.js';

export function objectHash(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('hex');
}

/** Stores `data` under its SHA-256 (once, however many revisions use it) and answers the hash. */
export async function putObject(tx: Tx | Db, data: string): Promise<string> {
  const [hash] = await putObjects(tx, [data]);
  return hash!;
}

const BATCH = 200;

/**
 * Stores several objects in a few statements; answers their hashes in order. `hashes`, when the
 * caller has them already, spares hashing each object twice.
 */
export async function putObjects(
  tx: Tx | Db,
  datas: string[],
  hashes: string[] = datas.map(objectHash),
): Promise<string[]> {
  const unique = new Map<string, string>();
  for (const [i, data] of datas.entries()) unique.set(hashes[i]!, data);
  const rows = [...unique].map(([hash, data]) => ({ hash, data }));
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx
      .insertInto('objects')
      .values(rows.slice(i, i + BATCH))
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
  }
  return hashes;
}

/** Reads objects by hash (in chunks, so any number of them fits the query limits). */
export async function getObjects(db: Tx | Db, hashes: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const wanted = [...new Set(hashes)];
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('objects')
      .select(['hash', 'data'])
      .where('hash', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.hash, row.data);
  }
  return found;
}
