import { type Static, Type } from 'typebox';

export const PdfQuery = Type.Object({
  /** A page id of the content printed: that page and its descendants. */
  page: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  /** With `page`: that page without its descendants. */
  only: Type.Optional(Type.Boolean()),
});
export type PdfQuery = Static<typeof PdfQuery>;

export const PdfUrl = Type.Object({ url: Type.String({ format: 'uri' }) });

export const PrintParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 4096 }) });
