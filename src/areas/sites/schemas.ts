import { type Static, Type } from 'typebox';
import { DefaultLevel } from '../../auth/roles.js';
import { PageQuery, Timestamp } from '../../http/schemas.js';

/** Site types (plans); Quire does not bill, so the type is only a label. */
export const SITE_TYPES = [
  'basic',
  'premium',
  'ultimate',
  'sponsored',
  'legacy-basic',
  'legacy-premium',
] as const;
export const SiteType = Type.Enum([...SITE_TYPES]);
export type SiteType = Static<typeof SiteType>;

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const SiteVisibility = Type.Enum([...SITE_VISIBILITIES]);

export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const AgentsContext = Type.Enum(['excluded', 'included']);

/** API.md 2.8: a custom hostname of at least three labels, lower case. */
export const HOSTNAME_PATTERN =
  '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';
/** API.md 4.6: a host name followed by one or more path segments of word characters and hyphens. */
export const PROXY_PATTERN = '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$';

export const Url = Type.String({ format: 'uri', maxLength: 2048 });
export const ThemedUrl = Type.Object({ light: Url, dark: Url });
export const Favicon = Type.Union([
  Type.Object({ icon: ThemedUrl }),
  Type.Object({ emoji: Type.String({ maxLength: 50 }) }),
]);

/** Features a site has: every feature Quire implements, on every site. */
export const SITE_FEATURES = [
  'sites-sections',
  'sites-multivariant-site',
  'sites-share-links',
  'sites-visitor-authentication',
  'sites-adaptive-content',
  'sites-custom-domain',
  'sites-custom-subdirectory',
  'sites-basic-customization',
  'sites-advanced-customization',
  'sites-full-text-search',
  'sites-public-visibility',
  'sites-unlisted-visibility',
] as const;

export const SitePermissions = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  edit: Type.Boolean(),
  create: Type.Boolean(),
  admin: Type.Boolean(),
  installIntegration: Type.Boolean(),
  viewAdaptiveSchema: Type.Boolean(),
  editAdaptiveSchema: Type.Boolean(),
});
export type SitePermissions = Static<typeof SitePermissions>;

export const Site = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: SiteType,
  appliedType: SiteType,
  title: Type.String(),
  icon: Type.Optional(Favicon),
  hostname: Type.Optional(Type.String()),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: SiteVisibility,
  defaultLevel: DefaultLevel,
  permissions: SitePermissions,
  published: Type.Boolean(),
  siteSpaces: Type.Number(),
  createdAt: Timestamp,
  adaptiveContent: Type.Object({ enabled: Type.Boolean() }),
  agentsContext: AgentsContext,
  features: Type.Array(Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean() })),
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    app: Type.String({ format: 'uri' }),
    preview: Type.String({ format: 'uri' }),
    published: Type.Optional(Type.String({ format: 'uri' })),
  }),
});
export type Site = Static<typeof Site>;

const Id = Type.String({ minLength: 1, maxLength: 128 });

export const SiteParams = Type.Object({ organizationId: Id, siteId: Id });
export const SectionParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionId: Id });
export const GroupParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionGroupId: Id });
export const GroupSectionParams = Type.Object({
  organizationId: Id,
  siteId: Id,
  siteSectionGroupId: Id,
  siteSectionId: Id,
});
export const SiteSpaceParams = Type.Object({ organizationId: Id, siteId: Id, siteSpaceId: Id });
export const ShareLinkParams = Type.Object({ organizationId: Id, siteId: Id, shareLinkId: Id });

export const ShareKeyQuery = Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 256 })) });

export const ListSitesQuery = Type.Object({
  ...PageQuery,
  space: Type.Optional(Type.String({ maxLength: 128, description: 'Only sites publishing this space' })),
  title: Type.Optional(Type.String({ maxLength: 128, description: 'Title contains (case-insensitive)' })),
  published: Type.Optional(Type.Boolean()),
  type: Type.Optional(Type.Array(SiteType, { maxItems: SITE_TYPES.length })),
});
export type ListSitesQuery = Static<typeof ListSitesQuery>;

export const CreateSiteBody = Type.Object({
  type: Type.Optional(SiteType),
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  spaces: Type.Optional(Type.Array(Id, { maxItems: 100 })),
});
export type CreateSiteBody = Static<typeof CreateSiteBody>;

export const UpdateSiteBody = Type.Object({
  title: Type.Optional(SiteTitle),
  visibility: Type.Optional(SiteVisibility),
  basename: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
  adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  agentsContext: Type.Optional(AgentsContext),
  defaultSiteSpace: Type.Optional(Id),
  defaultSiteSection: Type.Optional(Id),
  proxy: Type.Optional(Type.Union([Type.String({ maxLength: 512 }), Type.Null()])),
  hostname: Type.Optional(Type.Union([Type.String({ maxLength: 512 }), Type.Null()])),
});
export type UpdateSiteBody = Static<typeof UpdateSiteBody>;
