import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { DefaultLevelColumn } from '../db/tables.js';
import type { ContentNode } from './content-policy.js';
import { type MemberRole, maxRole } from './roles.js';

/** The collection and its ancestors, nearest first, in one recursive query. */
export async function collectionChain(db: Db, collectionId: string | null): Promise<ContentNode[]> {
  if (collectionId === null) return [];
  const { rows } = await sql<{ id: string; default_level: DefaultLevelColumn }>`
    with recursive chain(id, parent_id, default_level, depth) as (
      select id, parent_id, default_level, 0 from collections where id = ${collectionId}
      union all
      select c.id, c.parent_id, c.default_level, chain.depth + 1
      from collections c join chain on c.id = chain.parent_id
      where chain.depth < 64
    )
    select id, default_level from chain order by depth`.execute(db);
  return rows.map((r) => ({ id: r.id, defaultLevel: r.default_level }));
}

/**
 * The highest role granted on each item (of `targetIds`, or of the whole organization) to the
 * user or to any team they belong to.
 */
export async function grantsOf(
  db: Db,
  userId: string,
  orgId: string,
  targetIds?: string[],
): Promise<Map<string, MemberRole>> {
  let query = db
    .selectFrom('grants as g')
    .select(['g.target_id', 'g.role'])
    .where('g.org_id', '=', orgId)
    .where((eb) =>
      eb.or([
        eb.and([eb('g.principal_type', '=', 'user'), eb('g.principal_id', '=', userId)]),
        eb.and([
          eb('g.principal_type', '=', 'team'),
          eb(
            'g.principal_id',
            'in',
            eb
              .selectFrom('team_members')
              .select('team_id')
              .where('user_id', '=', userId)
              .where('org_id', '=', orgId),
          ),
        ]),
      ]),
    );
  if (targetIds) {
    if (targetIds.length === 0) return new Map();
    query = query.where('g.target_id', 'in', targetIds);
  }
  const grants = new Map<string, MemberRole>();
  for (const row of await query.execute()) {
    grants.set(row.target_id, maxRole(grants.get(row.target_id), row.role) as MemberRole);
  }
  return grants;
}
