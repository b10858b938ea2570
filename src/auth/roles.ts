import { type Static, Type } from 'typebox';

/** Roles from the highest to the lowest; each includes every right of those after it. */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;

export const MemberRole = Type.Enum([...ROLES]);
export type MemberRole = Static<typeof MemberRole>;

/** A role, or null for a guest (no organization role). */
export const MemberRoleOrGuest = Type.Union([MemberRole, Type.Null()]);
export type MemberRoleOrGuest = Static<typeof MemberRoleOrGuest>;

const RANK: Record<MemberRole, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

/** Rank of a role; 0 for guests and strangers. */
export function roleRank(role: MemberRole | null | undefined): number {
  return role ? RANK[role] : 0;
}

export function roleAtLeast(role: MemberRole | null | undefined, minimum: MemberRole): boolean {
  return roleRank(role) >= RANK[minimum];
}

/** The higher of two roles (null when both are null). */
export function maxRole(
  a: MemberRole | null | undefined,
  b: MemberRole | null | undefined,
): MemberRole | null {
  return roleRank(a) >= roleRank(b) ? (a ?? null) : (b ?? null);
}

/** A collection's or space's default level for organization members: a role, null, or inherit. */
export const DefaultLevel = Type.Union([MemberRole, Type.Null(), Type.Literal('inherit')]);
export type DefaultLevel = Static<typeof DefaultLevel>;
