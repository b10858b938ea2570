import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { DefaultLevelColumn } from '../db/tables.js';
import type { ContentNode } from './content-policy.js';
import { type MemberRole, maxRole } from './roles.js';

export interface ChainWithGrants {
  /** The item, then each collection above it, nearest first. */
  chain: ContentNode[];
  /** The highest role granted on each of them to the user or a team of theirs. */
  grants: Map<string, MemberRole>;
}

/**
 * A space's or collection's chain up to the top, with the grants the user has on it, in one
 * round trip: a recursive walk up the collections joined with the user's and their teams' grants.
 */
export async function chainWithGrants(
  db: Db,
  start: { table: 'spaces' | 'collections'; id: string },
  userId: string,
  orgId: string,
): Promise<ChainWithGrants> {
  const { rows } = await sql<{
    id: string;
    default_level: DefaultLevelColumn;
    depth: number;
    role: MemberRole | null;
  }>`
    with recursive chain(id, parent_id, default_level, depth) as (
      select id, parent_id, default_level, 0 from ${sql.table(start.table)} where id = ${start.id}
      union all
      select c.id, c.parent_id, c.default_level, chain.depth + 1
      from collections c join chain on c.id = chain.parent_id
      where chain.depth < 64
    )
    select chain.id, chain.default_level, chain.depth, g.role
    from chain
    left join grants g on g.target_id = chain.id and g.org_id = ${orgId} and (
      (g.principal_type = 'user' and g.principal_id = ${userId})
      or (g.principal_type = 'team' and g.principal_id in (
        select team_id from team_members where user_id = ${userId} and org_id = ${orgId}))
    )
    order by chain.depth`.execute(db);
  const chain: ContentNode[] = [];
  const grants = new Map<string, MemberRole>();
  for (const row of rows) {
    if (chain.at(-1)?.id !== row.id) chain.push({ id: row.id, defaultLevel: row.default_level });
    if (row.role) grants.set(row.id, maxRole(grants.get(row.id), row.role) as MemberRole);
  }
  return { chain, grants };
}

/** The highest role granted on each item of the organization to the user or a team of theirs. */
export async function grantsOf(db: Db, userId: string, orgId: string): Promise<Map<string, MemberRole>> {
  const rows = await db
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
    )
    .execute();
  const grants = new Map<string, MemberRole>();
  for (const row of rows)
    grants.set(row.target_id, maxRole(grants.get(row.target_id), row.role) as MemberRole);
  return grants;
}
