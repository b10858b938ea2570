import type { MembersTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { presentUser, type UserRow } from '../users/present.js';
import type { Member } from './schemas.js';

export type MemberRow = Pick<MembersTable, 'role' | 'joined_at' | 'last_seen_at' | 'disabled' | 'sso'> & {
  user: UserRow;
};

/** How many spaces, teams and sites the member reaches through their own grants. */
export interface MemberCounts {
  spaces: number;
  teams: number;
  sites: number;
}

export function presentMember(row: MemberRow, counts: MemberCounts, urls: Urls): Member {
  const member: Member = {
    object: 'member',
    id: row.user.id,
    role: row.role,
    user: presentUser(row.user, urls),
    disabled: row.disabled === 1,
    joinedAt: row.joined_at,
    sso: row.sso === 1,
    spaces: counts.spaces,
    teams: counts.teams,
    sites: counts.sites,
  };
  if (row.last_seen_at) member.lastSeenAt = row.last_seen_at;
  return member;
}
