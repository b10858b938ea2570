import { type MemberRole, roleRank } from '../../auth/roles.js';
import type { LinkInvitesTable } from '../../db/tables.js';
import type { InviteLink } from './schemas.js';

/** `callerRole`: an invite is redundant when the caller already has at least its role. */
export function presentInviteLink(row: LinkInvitesTable, callerRole: MemberRole | null): InviteLink {
  return {
    object: 'invite',
    id: row.id,
    role: row.role,
    redundant: roleRank(callerRole) >= roleRank(row.role),
  };
}
