import { type Static, Type } from 'typebox';
import { MemberRole, MemberRoleOrGuest } from '../../auth/roles.js';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { User } from '../users/schemas.js';

export const Member = Type.Object({
  object: Type.Literal('member'),
  id: Type.String(),
  role: MemberRoleOrGuest,
  user: User,
  disabled: Type.Boolean(),
  joinedAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  sso: Type.Boolean(),
  spaces: Type.Number(),
  teams: Type.Number(),
  sites: Type.Number(),
});
export type Member = Static<typeof Member>;

export const MemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});

export const ListMembersQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(Type.Enum(['asc', 'desc'])),
  role: Type.Optional(Type.Union([MemberRole, Type.Literal('guest')])),
  search: Type.Optional(Type.String({ maxLength: 256 })),
  sort: Type.Optional(Type.Enum(['joinedAt', 'lastSeenAt', 'name'])),
});
export type ListMembersQuery = Static<typeof ListMembersQuery>;

export const UpdateMemberBody = Type.Object({ role: MemberRoleOrGuest });
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;
