import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { Member } from '../members/schemas.js';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64 });
export const TeamMemberRole = Type.Enum(['owner', 'member']);

export const Team = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  members: Type.Integer(),
  spaces: Type.Number(),
  createdAt: Timestamp,
  permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
});
export type Team = Static<typeof Team>;

export const TeamMember = Type.Object({
  organization: Member,
  team: Type.Object({ role: TeamMemberRole }),
  permissions: Type.Object({ view: Type.Boolean() }),
});
export type TeamMember = Static<typeof TeamMember>;

export const TeamParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  teamId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  teamId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});

const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 1000 });

export const CreateTeamBody = Type.Object({ title: TeamTitle, members: Type.Optional(UserIds) });
export type CreateTeamBody = Static<typeof CreateTeamBody>;
export const UpdateTeamBody = Type.Object({ title: TeamTitle });

export const ListTeamsQuery = Type.Object({
  ...PageQuery,
  owner: Type.Optional(Type.String({ maxLength: 128 })),
  title: Type.Optional(Type.String({ maxLength: 64 })),
});
export type ListTeamsQuery = Static<typeof ListTeamsQuery>;

export const UpdateTeamMembersBody = Type.Object({
  add: Type.Optional(UserIds),
  remove: Type.Optional(UserIds),
  memberships: Type.Optional(Type.Record(Type.String(), Type.Object({ role: TeamMemberRole }))),
});
export type UpdateTeamMembersBody = Static<typeof UpdateTeamMembersBody>;

export const AddTeamMemberBody = Type.Object({ role: Type.Optional(TeamMemberRole) });
