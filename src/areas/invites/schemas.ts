import { type Static, Type } from 'typebox';
import { MemberRoleOrGuest } from '../../auth/roles.js';
import { Collection } from '../collections/schemas.js';
import { Space } from '../spaces/schemas.js';

const Email = Type.String({ minLength: 3, maxLength: 320, format: 'email' });

export const InviteUsersBody = Type.Object({
  emails: Type.Array(Type.Union([Email, Type.Object({ email: Email, role: MemberRoleOrGuest })]), {
    minItems: 1,
    maxItems: 100,
  }),
  role: Type.Optional(MemberRoleOrGuest),
  sso: Type.Optional(Type.Boolean()),
});
export type InviteUsersBody = Static<typeof InviteUsersBody>;

export const InviteUsersResult = Type.Object({
  /** Existing accounts, now members. */
  users: Type.Array(Type.String()),
  /** Addresses without an account yet: they join when their account is created. */
  invited: Type.Number(),
});

export const InviteLink = Type.Union([
  Type.Object({
    object: Type.Literal('invite'),
    id: Type.String(),
    role: MemberRoleOrGuest,
    redundant: Type.Boolean(),
  }),
  Type.Object({
    object: Type.Literal('invite'),
    id: Type.String(),
    level: MemberRoleOrGuest,
    redundant: Type.Boolean(),
    space: Space,
  }),
  Type.Object({
    object: Type.Literal('invite'),
    id: Type.String(),
    level: MemberRoleOrGuest,
    redundant: Type.Boolean(),
    collection: Collection,
  }),
]);
export type InviteLink = Static<typeof InviteLink>;

export const CreateInviteLinkBody = Type.Union([
  Type.Object({ role: MemberRoleOrGuest }, { additionalProperties: false }),
  Type.Object(
    { level: MemberRoleOrGuest, space: Type.String({ maxLength: 128 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { level: MemberRoleOrGuest, collection: Type.String({ maxLength: 128 }) },
    { additionalProperties: false },
  ),
]);
export type CreateInviteLinkBody = Static<typeof CreateInviteLinkBody>;

export const UpdateInviteLinkBody = Type.Union([
  Type.Object({ role: MemberRoleOrGuest }, { additionalProperties: false }),
  Type.Object({ level: MemberRoleOrGuest }, { additionalProperties: false }),
]);
export type UpdateInviteLinkBody = Static<typeof UpdateInviteLinkBody>;

export const InviteParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 128 }),
  inviteId: Type.String({ minLength: 1, maxLength: 128 }),
});
