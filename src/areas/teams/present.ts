import type { TeamsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import { type MemberCounts, type MemberRow, presentMember } from '../members/present.js';
import type { Team, TeamMember } from './schemas.js';

export interface TeamView {
  row: TeamsTable;
  members: number;
  spaces: number;
  /** The caller may manage the team (organization admin or team owner). */
  manage: boolean;
  /** The caller may see the team (any organization member with a role, or a team member). */
  view: boolean;
}

export function presentTeam(team: TeamView): Team {
  return {
    object: 'team',
    id: team.row.id,
    title: team.row.title,
    members: team.members,
    spaces: team.spaces,
    createdAt: team.row.created_at,
    permissions: { admin: team.manage, view: team.view },
  };
}

export function presentTeamMember(
  row: MemberRow & { teamRole: 'owner' | 'member' },
  counts: MemberCounts,
  urls: Urls,
): TeamMember {
  return {
    organization: presentMember(row, counts, urls),
    team: { role: row.teamRole },
    permissions: { view: true },
  };
}
