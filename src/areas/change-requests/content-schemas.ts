import { type Static, Type } from 'typebox';
import { DocumentWire } from '../agent-instructions/schemas.js';
import { ChangeRequest } from './schemas.js';

/** A page body in a change: markdown, or a rich-text document converted to markdown. */
export const PageDocumentInput = Type.Union([
  Type.Object({ markdown: Type.String() }),
  Type.Object({ document: DocumentWire }),
]);
export type PageDocumentInput = Static<typeof PageDocumentInput>;

const PageFields = {
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  slug: Type.Optional(Type.String({ maxLength: 100 })),
  emoji: Type.Optional(Type.String({ maxLength: 50 })),
  icon: Type.Optional(Type.String({ maxLength: 50 })),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  hidden: Type.Optional(Type.Boolean()),
  noIndex: Type.Optional(Type.Boolean()),
  noRobotsIndex: Type.Optional(Type.Boolean()),
};
const PageId = Type.String({ minLength: 1, maxLength: 128 });

export const ContentChange = Type.Union([
  Type.Object({
    operation: Type.Literal('insert_page'),
    document: PageDocumentInput,
    into: Type.Optional(PageId),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    ref: Type.Optional(Type.String({ maxLength: 256 })),
    ...PageFields,
  }),
  Type.Object({
    operation: Type.Literal('update_page'),
    page: PageId,
    document: Type.Optional(PageDocumentInput),
    into: Type.Optional(Type.Union([PageId, Type.Null()])),
    at: Type.Optional(Type.Integer({ minimum: 0 })),
    ...PageFields,
  }),
  Type.Object({ operation: Type.Literal('delete_page'), page: PageId }),
  Type.Object({
    operation: Type.Literal('revert_page'),
    page: PageId,
    revision: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  }),
  Type.Object({
    operation: Type.Literal('insert_files'),
    files: Type.Array(
      Type.Union([
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 256 }),
          contentType: Type.Optional(Type.String({ maxLength: 256 })),
          ref: Type.Optional(Type.String({ maxLength: 256 })),
          url: Type.String({ format: 'uri', maxLength: 2048 }),
        }),
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 256 }),
          contentType: Type.Optional(Type.String({ maxLength: 256 })),
          ref: Type.Optional(Type.String({ maxLength: 256 })),
          base64: Type.String(),
        }),
      ]),
      { minItems: 1, maxItems: 20 },
    ),
  }),
]);
export type ContentChange = Static<typeof ContentChange>;

export const UpdateContentBody = Type.Object({
  changes: Type.Array(ContentChange, { minItems: 1, maxItems: 50 }),
});

export const UpdateContentQuery = Type.Object({ compat: Type.Optional(Type.Boolean()) });

const PageRef = Type.Object({
  object: Type.Literal('page'),
  id: Type.String(),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});

/** The answer without `compat`: what each change did, and the files inserted. */
export const ContentUpdateResult = Type.Object({
  changeRequest: ChangeRequest,
  changes: Type.Array(
    Type.Union([
      Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: PageRef }),
      Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
    ]),
  ),
  insertedFiles: Type.Array(Type.Object({}, { additionalProperties: true })),
});
