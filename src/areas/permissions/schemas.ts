import { type Static, Type } from 'typebox';
import { MemberRole, MemberRoleOrGuest } from '../../auth/roles.js';
import { Team } from '../teams/schemas.js';
import { User } from '../users/schemas.js';

const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: 500 });

/** Give users and/or teams a role on a space or collection; a null role takes it away. */
export const InviteBody = Type.Object({
  role: MemberRoleOrGuest,
  users: Type.Optional(Ids),
  teams: Type.Optional(Ids),
});
export type InviteBody = Static<typeof InviteBody>;

export const UpdateGrantBody = Type.Object({ role: MemberRoleOrGuest });

export const UserPermission = Type.Object({ permission: MemberRole, user: User });
export const TeamPermission = Type.Object({ permission: MemberRole, team: Team });

export const SpaceGrantParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 128 }) });
export const SpaceUserParams = Type.Object({
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const SpaceTeamParams = Type.Object({
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
  teamId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const CollectionGrantParams = Type.Object({
  collectionId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const CollectionUserParams = Type.Object({
  collectionId: Type.String({ minLength: 1, maxLength: 128 }),
  userId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const CollectionTeamParams = Type.Object({
  collectionId: Type.String({ minLength: 1, maxLength: 128 }),
  teamId: Type.String({ minLength: 1, maxLength: 128 }),
});
