import { type Static, Type } from 'typebox';
import { MemberRoleOrGuest } from '../../auth/roles.js';
import { Timestamp } from '../../http/schemas.js';

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, pattern: '\\S.*\\S' });

const EmailDomain = Type.String({
  maxLength: 253,
  pattern: '^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.)+[a-zA-Z]{2,63}$',
});
export const EmailDomains = Type.Array(EmailDomain, { maxItems: 50 });

export const OrganizationHostname = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$',
});

const UserIds = Type.Array(Type.String({ maxLength: 128 }), { maxItems: 100 });

/** The merge rules both published API versions accept. */
export const MergeRule = Type.Union([
  Type.Object({
    rule: Type.Enum(['require_specific_reviewers', 'require_one_of_specific_reviewers', 'allow_bypass']),
    users: UserIds,
  }),
  Type.Object({
    rule: Type.Enum([
      'require_at_least_one_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
    ]),
  }),
  Type.Object({ rule: Type.Literal('custom'), expression: Type.String({ minLength: 1, maxLength: 1024 }) }),
]);

export const MergeRules = Type.Union([
  Type.Object({ type: Type.Literal('rules'), rules: Type.Array(MergeRule, { maxItems: 50 }) }),
  Type.Object({ type: Type.Literal('none') }),
]);
export type MergeRules = Static<typeof MergeRules>;

export const SitePointer = Type.Object({ type: Type.Literal('site'), site: Type.String({ maxLength: 128 }) });

export const Organization = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String(),
  title: Type.String(),
  createdAt: Timestamp,
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String()),
  type: Type.Enum(['business', 'community']),
  useCase: Type.Optional(Type.String()),
  communityType: Type.Optional(Type.String()),
  defaultRole: Type.Optional(MemberRoleOrGuest),
  defaultContent: Type.Optional(SitePointer),
  sso: Type.Boolean(),
  ai: Type.Boolean(),
  inviteLinks: Type.Boolean(),
  plan: Type.String(),
  mergeRules: MergeRules,
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    app: Type.String({ format: 'uri' }),
    logo: Type.Optional(Type.String({ format: 'uri' })),
  }),
  trial: Type.Object({ status: Type.String(), count: Type.Integer() }),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    admin: Type.Boolean(),
    ownTeam: Type.Boolean(),
    createContent: Type.Boolean(),
    createOpenAPISpec: Type.Boolean(),
    ingestConversations: Type.Boolean(),
    viewBilling: Type.Boolean(),
    listMembers: Type.Boolean(),
    listTeams: Type.Boolean(),
    listIntegrations: Type.Boolean(),
    listInstallations: Type.Boolean(),
    installIntegration: Type.Boolean(),
  }),
});
export type Organization = Static<typeof Organization>;

export const OrgParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 128 }) });

export const CreateOrganizationBody = Type.Object({
  title: OrganizationTitle,
  emailDomains: Type.Optional(EmailDomains),
});
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

export const UpdateOrganizationBody = Type.Object({
  title: Type.Optional(OrganizationTitle),
  emailDomains: Type.Optional(EmailDomains),
  hostname: Type.Optional(OrganizationHostname),
  defaultRole: Type.Optional(MemberRoleOrGuest),
  defaultContent: Type.Optional(Type.Union([SitePointer, Type.Null()])),
  logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
  mergeRules: Type.Optional(MergeRules),
});
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

export const EmailDomainParams = Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) });

export const OrganizationsForDomain = Type.Object({ organizations: Type.Array(Organization) });
