import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { Organization } from '../orgs/schemas.js';

/**
 * The official `^[a-zA-Z0-9-_.]+$` (up to 100 characters), minus `.` and `..`: a name becomes a
 * path segment of several URLs, where those two mean "here" and "up".
 */
export const NAME_PATTERN = '^(?!\\.\\.?$)[a-zA-Z0-9_.-]+$';
export const NAME_MAX = 100;
const DOMAIN_PATTERN = '^[a-zA-Z0-9_.-]+$';
const Uri = Type.String({ format: 'uri', maxLength: 2048 });

export const IntegrationName = Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: NAME_PATTERN });

/** 0.202's values: `site:visitor:claims` is not in 0.146, so objects carrying it validate against 0.202 only. */
export const SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;
export const IntegrationScope = Type.Enum([...SCOPES]);

/** 0.202's values (0.146 also had `gitsync`, which 0.202 dropped). */
export const IntegrationCategory = Type.Enum([
  'analytics',
  'collaboration',
  'content',
  'marketing',
  'visitor-auth',
  'other',
]);
export const IntegrationVisibility = Type.Enum(['public', 'private', 'unlisted']);
export const IntegrationTarget = Type.Enum(['all', 'site', 'space', 'organization']);
export const IntegrationRuntime = Type.Enum(['v1', 'v2']);

export const IntegrationBlock = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  title: Type.String({ minLength: 2, maxLength: 40 }),
  description: Type.Optional(Type.String({ maxLength: 150 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  urlUnfurl: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048 }))),
  markdown: Type.Optional(Type.Object({ codeblock: Type.String(), body: Type.String() })),
});
export type IntegrationBlock = Static<typeof IntegrationBlock>;

export const IntegrationContentSource = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  title: Type.String({ minLength: 2, maxLength: 40 }),
  description: Type.Optional(Type.String({ maxLength: 150 })),
  icon: Type.Optional(Type.String({ maxLength: 2048 })),
  configuration: Type.Object({ componentId: Type.String({ minLength: 1 }) }),
});
export type IntegrationContentSource = Static<typeof IntegrationContentSource>;

/**
 * One property of a configuration form. Officially a oneOf per `type`; written as one object and
 * checked by the service (manifest.ts), so that a wrong `default` or a button without its URL is
 * named as such rather than as "matches none of the forms". Titles are 2..30: 0.146 allows at most
 * 30 and 0.202 at least 2.
 */
export const IntegrationConfigProperty = Type.Object({
  type: Type.Enum(['string', 'number', 'boolean', 'button']),
  title: Type.Optional(Type.String({ minLength: 2, maxLength: 30 })),
  description: Type.Optional(Type.String({ maxLength: 100 })),
  default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  completion_url: Type.Optional(Type.String({ maxLength: 2048 })),
  enum: Type.Optional(Type.Array(Type.String())),
  callback_url: Type.Optional(Type.String({ maxLength: 2048 })),
  button_text: Type.Optional(Type.String({ maxLength: 100 })),
});

/** A form of `properties` (and `required` names), or a `componentId` drawing its own: exactly one. */
export const IntegrationConfiguration = Type.Object({
  properties: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), IntegrationConfigProperty)),
  required: Type.Optional(Type.Array(Type.String(), { uniqueItems: true })),
  componentId: Type.Optional(Type.String({ minLength: 1 })),
});
export type IntegrationConfiguration = Static<typeof IntegrationConfiguration>;

export const IntegrationConfigurations = Type.Object({
  account: Type.Optional(IntegrationConfiguration),
  space: Type.Optional(IntegrationConfiguration),
  site: Type.Optional(IntegrationConfiguration),
});
export type IntegrationConfigurations = Static<typeof IntegrationConfigurations>;

export const ExternalLink = Type.Object({ url: Uri, label: Type.String({ maxLength: 100 }) });

/** A policy string, or directives by name; the service checks names and line breaks (manifest.ts). */
export const ContentSecurityPolicy = Type.Union([
  Type.String({ maxLength: 8192 }),
  Type.Record(Type.String(), Type.String({ maxLength: 4096 })),
]);

const Base64Image = Type.String({ minLength: 1, description: 'A PNG, JPEG or WebP image in base64' });

export const PublishIntegrationBody = Type.Object({
  runtime: Type.Optional(IntegrationRuntime),
  icon: Type.Optional(Base64Image),
  title: Type.String({ minLength: 2, maxLength: 30 }),
  description: Type.String({ maxLength: 100 }),
  summary: Type.Optional(Type.String({ maxLength: 2048 })),
  previewImages: Type.Optional(Type.Array(Base64Image, { maxItems: 3 })),
  visibility: Type.Optional(IntegrationVisibility),
  target: Type.Optional(IntegrationTarget),
  scopes: Type.Array(IntegrationScope),
  categories: Type.Optional(Type.Array(IntegrationCategory)),
  blocks: Type.Optional(Type.Array(IntegrationBlock)),
  contentSources: Type.Optional(Type.Array(IntegrationContentSource)),
  externalLinks: Type.Optional(Type.Array(ExternalLink, { maxItems: 5 })),
  configurations: Type.Optional(IntegrationConfigurations),
  script: Type.String({ minLength: 1, description: 'The bundled ES module (what `gitbook publish` builds)' }),
  organization: Type.String({ minLength: 1, maxLength: 128, description: 'Id or hostname' }),
  secrets: Type.Optional(
    Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: 10_000 }), {
      maxProperties: 20,
    }),
  ),
  contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
});
export type PublishIntegrationBody = Static<typeof PublishIntegrationBody>;

export const InstallIntegrationBody = Type.Object({
  organization: Type.String({ minLength: 1, maxLength: 128, description: 'Id or hostname' }),
});

export const IntegrationParams = Type.Object({ integrationName: IntegrationName });
export const InstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const AssetParams = Type.Object({
  integrationName: IntegrationName,
  asset: Type.String({ minLength: 1, maxLength: 128 }),
});

export const ListIntegrationsQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 200 })),
  category: Type.Optional(IntegrationCategory),
  blockDomain: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: DOMAIN_PATTERN })),
  blocks: Type.Optional(Type.Boolean()),
  contentSources: Type.Optional(Type.Boolean()),
  owner: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  scope: Type.Optional(IntegrationScope),
  target: Type.Optional(IntegrationTarget),
});
export type ListIntegrationsQuery = Static<typeof ListIntegrationsQuery>;

export const ListInstallationsQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
export type ListInstallationsQuery = Static<typeof ListInstallationsQuery>;

export const Integration = Type.Object({
  object: Type.Literal('integration'),
  name: Type.String(),
  version: Type.Number(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  previewImages: Type.Array(Uri),
  target: IntegrationTarget,
  verified: Type.Boolean(),
  visibility: IntegrationVisibility,
  scopes: Type.Array(IntegrationScope),
  categories: Type.Array(IntegrationCategory),
  blocks: Type.Optional(Type.Array(IntegrationBlock)),
  contentSources: Type.Optional(Type.Array(IntegrationContentSource)),
  configurations: Type.Optional(IntegrationConfigurations),
  externalLinks: Type.Array(ExternalLink),
  owner: Organization,
  urls: Type.Object({
    location: Uri,
    icon: Type.Optional(Uri),
    app: Uri,
    assets: Uri,
    publicEndpoint: Uri,
    publicContentEndpoint: Uri,
  }),
  permissions: Type.Object({ admin: Type.Boolean() }),
  contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
});
export type Integration = Static<typeof Integration>;

export const IntegrationInstallation = Type.Object({
  id: Type.String(),
  status: Type.Enum(['active', 'pending', 'paused']),
  space_selection: Type.Enum(['all', 'selected']),
  site_selection: Type.Enum(['all', 'selected']),
  spaces: Type.Number(),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  urls: Type.Object({ location: Uri, app: Uri, publicEndpoint: Uri, publicContentEndpoint: Uri }),
  externalIds: Type.Array(Type.String()),
  target: Type.Object({ organization: Type.String() }),
});
export type IntegrationInstallation = Static<typeof IntegrationInstallation>;

export const OrganizationInstallation = Type.Object({
  installation: IntegrationInstallation,
  integration: Integration,
});

const ExternalIds = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 5 });
/** Checked against the integration's configuration form by the service (configuration.ts). */
const Configuration = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 });

export const UpdateInstallationBody = Type.Object({
  configuration: Type.Optional(Configuration),
  externalIds: Type.Optional(ExternalIds),
  space_selection: Type.Optional(Type.Enum(['all', 'selected'])),
  // Quire has no site installations: every installation covers every site.
  site_selection: Type.Optional(Type.Literal('all')),
});
export type UpdateInstallationBody = Static<typeof UpdateInstallationBody>;

export const InstallOnSpaceBody = Type.Object({
  space: Type.String({ minLength: 1, maxLength: 128, description: 'ID of the space' }),
});

export const UpdateSpaceInstallationBody = Type.Object({
  configuration: Type.Optional(Configuration),
  externalIds: Type.Optional(ExternalIds),
});
export type UpdateSpaceInstallationBody = Static<typeof UpdateSpaceInstallationBody>;

export const SpaceInstallationParams = Type.Object({
  integrationName: IntegrationName,
  installationId: Type.String({ minLength: 1, maxLength: 128 }),
  spaceId: Type.String({ minLength: 1, maxLength: 128 }),
});

/** `extended` asks GitBook for the whole space; Quire names the space by id either way. */
export const SpaceInstallationQuery = Type.Object({ extended: Type.Optional(Type.Boolean()) });
export const ListSpaceInstallationsQuery = Type.Object({
  ...PageQuery,
  extended: Type.Optional(Type.Boolean()),
});
export type ListSpaceInstallationsQuery = Static<typeof ListSpaceInstallationsQuery>;

export const IntegrationSpaceInstallation = Type.Object({
  integration: Type.String(),
  installation: Type.String(),
  status: Type.Enum(['active', 'pending', 'paused']),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  externalIds: Type.Array(Type.String()),
  urls: Type.Object({ location: Uri, publicEndpoint: Uri, publicContentEndpoint: Uri }),
  space: Type.String(),
});
export type IntegrationSpaceInstallation = Static<typeof IntegrationSpaceInstallation>;

export const EventParams = Type.Object({
  integrationName: IntegrationName,
  eventId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ListEventsQuery = Type.Object({ ...PageQuery });
export type ListEventsQuery = Static<typeof ListEventsQuery>;

const EventLog = Type.Object({
  message: Type.String(),
  timestamp: Timestamp,
  level: Type.Enum(['debug', 'info', 'warn', 'error']),
});

export const IntegrationEvent = Type.Object({
  id: Type.String(),
  integrationId: Type.String(),
  installationId: Type.Optional(Type.String()),
  createdAt: Timestamp,
  /** The event as it was delivered (an official `Event`). */
  payload: Type.Record(Type.String(), Type.Unknown()),
  status: Type.Enum(['success', 'failed']),
});
export type IntegrationEvent = Static<typeof IntegrationEvent>;

export const IntegrationEventWithTrace = Type.Object({
  event: IntegrationEvent,
  trace: Type.Object({ logs: Type.Array(EventLog) }),
});
