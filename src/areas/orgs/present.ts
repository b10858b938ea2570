import { orgPermissions } from '../../auth/org-policy.js';
import type { MemberRole } from '../../auth/roles.js';
import type { OrganizationsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { MergeRules, Organization } from './schemas.js';

export type OrganizationRow = OrganizationsTable;

/** An organization as one caller sees it: `role` undefined when they are not a member. */
export interface OrgView {
  row: OrganizationRow;
  role: MemberRole | null | undefined;
  ownsTeam?: boolean;
}

/** Quire is self-hosted: every organization has every feature, with no plan or trial to manage. */
const PLAN = 'enterprise_2024';

export function presentOrganization({ row, role, ownsTeam = false }: OrgView, urls: Urls): Organization {
  const org: Organization = {
    object: 'organization',
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    emailDomains: JSON.parse(row.email_domains) as string[],
    type: row.type,
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    plan: PLAN,
    mergeRules: JSON.parse(row.merge_rules) as MergeRules,
    urls: urls.organization(row.id),
    trial: { status: 'notapplicable', count: 0 },
    permissions: orgPermissions(role, ownsTeam),
  };
  if (row.hostname) org.hostname = row.hostname;
  if (row.use_case) org.useCase = row.use_case;
  if (row.community_type) org.communityType = row.community_type;
  if (row.default_role !== undefined) org.defaultRole = row.default_role;
  if (row.default_content)
    org.defaultContent = JSON.parse(row.default_content) as Organization['defaultContent'];
  if (row.logo_url) org.urls.logo = row.logo_url;
  return org;
}
