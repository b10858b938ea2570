import type { DefaultLevelColumn } from '../db/tables.js';
import { type MemberRole, maxRole, roleAtLeast } from './roles.js';

/**
 * Roles on content (collections and spaces). The effective role of a caller on an item is the
 * highest of:
 * - their organization role reaching the item through default levels: an item's `defaultLevel`
 *   is the role every organization member has on it; `inherit` takes the parent's, up to the
 *   organization role at the top; null gives members no access of their own;
 * - the grants on the item and on every collection above it, to the caller or to a team of theirs.
 * Organization admins are admins of all content; guests (no organization role) only reach what
 * is granted to them.
 */

export const CONTENT_RULES = {
  view: 'read',
  comment: 'comment',
  /** Open and manage change requests: editing, but through a proposal, so a lock does not stop it. */
  propose: 'edit',
  edit: 'edit',
  merge: 'edit',
  review: 'review',
  create: 'create',
  admin: 'admin',
} as const satisfies Record<string, MemberRole>;

export type ContentAction = keyof typeof CONTENT_RULES;

/** Actions that change a space's content, refused while the space is locked whatever the role. */
const CONTENT_WRITES: ReadonlySet<ContentAction> = new Set(['edit', 'merge']);

/** One item of a chain: the item itself first, then its parent, up to the top collection. */
export interface ContentNode {
  id: string;
  defaultLevel: DefaultLevelColumn;
}

/**
 * The effective role on `chain[0]`. `orgRole` undefined means "not a member" (no access at all),
 * null a guest. `grants` maps item ids to the highest role granted there to the caller or a team
 * of theirs.
 */
export function resolveRole(
  orgRole: MemberRole | null | undefined,
  chain: readonly ContentNode[],
  grants: ReadonlyMap<string, MemberRole>,
): MemberRole | null {
  if (orgRole === undefined) return null;
  if (orgRole === 'admin') return 'admin';
  let granted: MemberRole | null = null;
  for (const node of chain) granted = maxRole(granted, grants.get(node.id));
  if (orgRole === null) return granted;
  let baseline: MemberRole | null = orgRole;
  for (const node of chain) {
    if (node.defaultLevel === 'inherit') continue;
    baseline = node.defaultLevel;
    break;
  }
  return maxRole(baseline, granted);
}

export function contentAllows(role: MemberRole | null, action: ContentAction, locked = false): boolean {
  if (!role || !roleAtLeast(role, CONTENT_RULES[action])) return false;
  return !(locked && CONTENT_WRITES.has(action));
}

export function collectionPermissions(role: MemberRole | null) {
  return {
    view: contentAllows(role, 'view'),
    admin: contentAllows(role, 'admin'),
    viewInviteLinks: contentAllows(role, 'admin'),
    create: contentAllows(role, 'create'),
  };
}

export function spacePermissions(role: MemberRole | null, locked: boolean) {
  return {
    view: contentAllows(role, 'view'),
    access: contentAllows(role, 'view'),
    admin: contentAllows(role, 'admin'),
    viewInviteLinks: contentAllows(role, 'admin'),
    edit: contentAllows(role, 'edit', locked),
    triggerGitSync: contentAllows(role, 'edit', locked),
    comment: contentAllows(role, 'comment'),
    merge: contentAllows(role, 'merge', locked),
    review: contentAllows(role, 'review'),
    installIntegration: contentAllows(role, 'admin'),
  };
}
