import { type MemberRole, roleAtLeast } from './roles.js';

/**
 * What each organization role may do. `member` means any membership, guests included; a role
 * means that role or a higher one. The `permissions` object of an organization is read off this
 * same table, so what a caller is told they may do is exactly what they are allowed to do.
 */
export const ORG_RULES = {
  view: 'member',
  access: 'read',
  admin: 'admin',
  createContent: 'create',
  createOpenAPISpec: 'create',
  ingestConversations: 'admin',
  viewBilling: 'admin',
  listMembers: 'read',
  listTeams: 'read',
  listIntegrations: 'read',
  listInstallations: 'admin',
  installIntegration: 'admin',
  manageMembers: 'admin',
  manageInvites: 'admin',
  editAgentInstructions: 'admin',
  viewSamlProviders: 'read',
  manageSamlProviders: 'admin',
} as const satisfies Record<string, MemberRole | 'member'>;

export type OrgAction = keyof typeof ORG_RULES;

export interface OrgPermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
  listInstallations: boolean;
  installIntegration: boolean;
}

/** `role` undefined: not a member at all; null: a guest. */
export function orgAllows(role: MemberRole | null | undefined, action: OrgAction): boolean {
  if (role === undefined) return false;
  const rule = ORG_RULES[action];
  return rule === 'member' ? true : roleAtLeast(role, rule);
}

export function orgPermissions(role: MemberRole | null | undefined, ownsTeam: boolean): OrgPermissions {
  const can = (action: OrgAction) => orgAllows(role, action);
  return {
    view: can('view'),
    access: can('access'),
    admin: can('admin'),
    ownTeam: ownsTeam || can('admin'),
    createContent: can('createContent'),
    createOpenAPISpec: can('createOpenAPISpec'),
    ingestConversations: can('ingestConversations'),
    viewBilling: can('viewBilling'),
    listMembers: can('listMembers'),
    listTeams: can('listTeams'),
    listIntegrations: can('listIntegrations'),
    listInstallations: can('listInstallations'),
    installIntegration: can('installIntegration'),
  };
}
