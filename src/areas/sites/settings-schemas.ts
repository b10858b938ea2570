import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { CustomizationSettings } from './customization-schemas.js';
import { Site } from './schemas.js';
import { SiteStructure } from './structure-schemas.js';

/** Share links, adaptive schema, visitor authentication and the published view of a site. */

export const ShareLinkName = Type.String({ maxLength: 50 });

export const ShareLink = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  createdAt: Timestamp,
  name: Type.Optional(Type.String()),
  active: Type.Boolean(),
  urls: Type.Object({ published: Type.Optional(Type.String({ format: 'uri' })) }),
});
export type ShareLink = Static<typeof ShareLink>;

export const ListShareLinksQuery = Type.Object({
  ...PageQuery,
  search: Type.Optional(Type.String({ maxLength: 100, description: 'Name contains (case-insensitive)' })),
});
export type ListShareLinksQuery = Static<typeof ListShareLinksQuery>;
export const CreateShareLinkBody = Type.Object({ name: ShareLinkName });
export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
  { minProperties: 1 },
);
export type UpdateShareLinkBody = Static<typeof UpdateShareLinkBody>;

/**
 * The adaptive schema is checked by the service (adaptive-schema.ts), which names the rule a
 * schema breaks; the route schema only asks for an object.
 */
export const AdaptiveJsonSchema = Type.Object({}, { additionalProperties: true });
export const SiteAdaptiveSchema = Type.Object({
  object: Type.Literal('site-adaptive-schema'),
  jsonSchema: AdaptiveJsonSchema,
  updatedAt: Timestamp,
});
export type SiteAdaptiveSchema = Static<typeof SiteAdaptiveSchema>;
export const UpdateAdaptiveSchemaBody = Type.Object({ jsonSchema: AdaptiveJsonSchema });

export const TemplateConditions = Type.Object({
  items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })),
});
export type TemplateCondition = { description: string; condition: string };

export const PublishingAuth = Type.Object({
  object: Type.Literal('publishing-auth'),
  backend: Type.Literal('custom'),
  privateKey: Type.String(),
  fallbackURL: Type.Optional(Type.String({ format: 'uri' })),
});
export type PublishingAuth = Static<typeof PublishingAuth>;

export const UpdatePublishingAuthBody = Type.Object({
  backend: Type.Optional(Type.Enum(['custom', 'integration'])),
  fallbackURL: Type.Optional(
    Type.Union([Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' }), Type.Null()]),
  ),
});
export type UpdatePublishingAuthBody = Static<typeof UpdatePublishingAuthBody>;

export const PublishedContentSite = Type.Object({
  object: Type.Literal('published-content-site'),
  site: Site,
  structure: SiteStructure,
  customizations: Type.Object({
    site: CustomizationSettings,
    siteSpaces: Type.Record(Type.String(), CustomizationSettings),
  }),
  scripts: Type.Array(
    Type.Object({
      script: Type.String({ format: 'uri' }),
      contentSecurityPolicy: Type.Optional(Type.String()),
      cookies: Type.Boolean(),
    }),
  ),
});
