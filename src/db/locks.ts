import type { Dialect, Tx } from './database.js';

/**
 * Serializes commands on one organization for the rest of the transaction. SQLite already runs
 * one write transaction at a time; PostgreSQL needs the row lock so that, say, two concurrent
 * demotions cannot both see "another admin remains".
 */
export async function lockOrganization(tx: Tx, dialect: Dialect, orgId: string): Promise<boolean> {
  let query = tx.selectFrom('organizations').select('id').where('id', '=', orgId);
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Serializes commands on one space for the rest of the transaction, for rules that read then
 * write (the next change request number is the space's highest plus one): on PostgreSQL two
 * transactions, of one process or of several, would otherwise read the same highest number.
 */
export async function lockSpace(tx: Tx, dialect: Dialect, spaceId: string): Promise<boolean> {
  let query = tx.selectFrom('spaces').select('id').where('id', '=', spaceId);
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst()) !== undefined;
}
