import { type Static, Type } from 'typebox';
import { DefaultLevel } from '../../auth/roles.js';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { MergeRules } from '../orgs/schemas.js';

/** Languages both published API versions accept (0.146 lacks zh-tw). */
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;
export const Language = Type.Enum([...LANGUAGES]);

export const SPACE_VISIBILITIES = [
  'public',
  'unlisted',
  'share-link',
  'visitor-auth',
  'in-collection',
  'private',
] as const;
export const SpaceVisibility = Type.Enum([...SPACE_VISIBILITIES]);
export const EditMode = Type.Enum(['live', 'locked']);
export const SpaceTitle = Type.String({ minLength: 1, maxLength: 50 });
export const Emoji = Type.String({ maxLength: 50 });

export const SpaceMergeRules = Type.Union([Type.Object({ type: Type.Literal('inherit') }), MergeRules]);
export type SpaceMergeRules = Static<typeof SpaceMergeRules>;

export const Space = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: SpaceVisibility,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Type.Optional(Timestamp),
  editMode: EditMode,
  mergeRules: SpaceMergeRules,
  urls: Type.Object({
    location: Type.String({ format: 'uri' }),
    app: Type.String({ format: 'uri' }),
    published: Type.Optional(Type.String({ format: 'uri' })),
    public: Type.Optional(Type.String({ format: 'uri' })),
    icon: Type.Optional(Type.String({ format: 'uri' })),
  }),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  language: Type.Optional(Language),
  revision: Type.String(),
  defaultLevel: DefaultLevel,
  comments: Type.Number(),
  changeRequests: Type.Number(),
  changeRequestsOpen: Type.Number(),
  changeRequestsDraft: Type.Number(),
  permissions: Type.Object({
    view: Type.Boolean(),
    access: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    edit: Type.Boolean(),
    triggerGitSync: Type.Boolean(),
    comment: Type.Boolean(),
    merge: Type.Boolean(),
    review: Type.Boolean(),
    installIntegration: Type.Boolean(),
  }),
});
export type Space = Static<typeof Space>;

export const SpaceParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 128 }) });
export const GetSpaceQuery = Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 256 })) });
export const ListSpacesQuery = Type.Object(PageQuery);

export const CreateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Emoji),
  parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  language: Type.Optional(Language),
  editMode: Type.Optional(EditMode),
  visibility: Type.Optional(SpaceVisibility),
  empty: Type.Optional(Type.Literal(true)),
});
export type CreateSpaceBody = Static<typeof CreateSpaceBody>;

export const UpdateSpaceBody = Type.Object({
  title: Type.Optional(SpaceTitle),
  emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
  icon: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
  editMode: Type.Optional(EditMode),
  defaultLevel: Type.Optional(DefaultLevel),
  language: Type.Optional(Language),
  mergeRules: Type.Optional(SpaceMergeRules),
  visibility: Type.Optional(SpaceVisibility),
});
export type UpdateSpaceBody = Static<typeof UpdateSpaceBody>;
