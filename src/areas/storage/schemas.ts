import { type Static, Type } from 'typebox';

/** The largest file one upload may declare (and send). */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/** generateStorageUploadURL's body (StorageFileMetadata + StorageUploadKind). */
export const GenerateUploadBody = Type.Object({
  file: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 256 }),
    type: Type.String({ maxLength: 255 }),
    size: Type.Integer({ minimum: 0, maximum: MAX_UPLOAD_BYTES }),
  }),
  kind: Type.Union([
    Type.Literal('import_file'),
    Type.Literal('organization_file'),
    Type.Literal('customization_font'),
  ]),
});
export type GenerateUploadBody = Static<typeof GenerateUploadBody>;

/** StorageUploadURL (both API versions). */
export const StorageUploadURL = Type.Object({
  object: Type.Literal('storage-signed-url'),
  url: Type.String({ format: 'uri' }),
  key: Type.String(),
});
