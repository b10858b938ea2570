import { type Static, Type } from 'typebox';
import { DefaultLevel } from '../../auth/roles.js';
import { PageQuery } from '../../http/schemas.js';

export const CollectionTitle = Type.String({ minLength: 1, maxLength: 50 });

export const Collection = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: DefaultLevel,
  urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
  permissions: Type.Object({
    view: Type.Boolean(),
    admin: Type.Boolean(),
    viewInviteLinks: Type.Boolean(),
    create: Type.Boolean(),
  }),
});
export type Collection = Static<typeof Collection>;

export const CollectionParams = Type.Object({ collectionId: Type.String({ minLength: 1, maxLength: 128 }) });

export const ListCollectionsQuery = Type.Object({ ...PageQuery, nested: Type.Optional(Type.Boolean()) });
export type ListCollectionsQuery = Static<typeof ListCollectionsQuery>;

export const CreateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  parent: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type CreateCollectionBody = Static<typeof CreateCollectionBody>;

export const UpdateCollectionBody = Type.Object({
  title: Type.Optional(CollectionTitle),
  description: Type.Optional(Type.String({ maxLength: 100 })),
  defaultLevel: Type.Optional(DefaultLevel),
});
export type UpdateCollectionBody = Static<typeof UpdateCollectionBody>;

const SpacePointer = Type.Object({
  type: Type.Literal('space'),
  space: Type.String({ minLength: 1, maxLength: 128 }),
});
const CollectionPointer = Type.Object({
  type: Type.Literal('collection'),
  collection: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ContentPosition = Type.Object({
  before: Type.Optional(Type.Union([SpacePointer, CollectionPointer])),
  after: Type.Optional(Type.Union([SpacePointer, CollectionPointer])),
});

/** Move a collection or a space: a new parent (null for the top level) and/or a position. */
export const MoveBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 128 }), Type.Null()])),
    position: Type.Optional(ContentPosition),
  },
  { minProperties: 1 },
);
export type MoveBody = Static<typeof MoveBody>;

export const TransferBody = Type.Object({ organization: Type.String({ minLength: 1, maxLength: 128 }) });
export type TransferBody = Static<typeof TransferBody>;
