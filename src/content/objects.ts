import { createHash } from 'node:crypto';
import type { Tx } from '../db/database.js';

/** Stores `data` under its SHA-256 (once, however many revisions use it) and answers the hash. */
export async function putObject(tx: Tx, data: string): Promise<string> {
  const hash = createHash('sha256').update(data, 'utf8').digest('hex');
  await tx
    .insertInto('objects')
    .values({ hash, data })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  return hash;
}
