import { type MemberRole, roleRank } from '../../auth/roles.js';
import type { LinkInvitesTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { type CollectionView, presentCollection } from '../collections/present.js';
import { presentSpace, type SpaceView } from '../spaces/present.js';
import type { InviteLink } from './schemas.js';

/** What the caller already has where an invite leads, to tell whether it is redundant. */
export interface InviteContext {
  callerOrgRole: MemberRole | null;
  spaces: Map<string, SpaceView>;
  collections: Map<string, CollectionView>;
}

export function presentInviteLink(row: LinkInvitesTable, context: InviteContext, urls: Urls): InviteLink {
  if (row.target_type === 'space') {
    const space = context.spaces.get(row.target_id!)!;
    return {
      object: 'invite',
      id: row.id,
      level: row.level,
      redundant: roleRank(space.role) >= roleRank(row.level),
      space: presentSpace(space, urls),
    };
  }
  if (row.target_type === 'collection') {
    const collection = context.collections.get(row.target_id!)!;
    return {
      object: 'invite',
      id: row.id,
      level: row.level,
      redundant: roleRank(collection.role) >= roleRank(row.level),
      collection: presentCollection(collection, urls),
    };
  }
  return {
    object: 'invite',
    id: row.id,
    role: row.role,
    redundant: roleRank(context.callerOrgRole) >= roleRank(row.role),
  };
}
