import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';

const Id = Type.String({ minLength: 1, maxLength: 128 });

/**
 * startImportRun's body. `source` is read loosely here (type as a string, either field optional)
 * so that the service can answer a message naming the field rather than a schema union error.
 */
export const StartImportBody = Type.Object({
  source: Type.Object({
    type: Type.String({ maxLength: 32 }),
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    files: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 1000 })),
  }),
  target: Type.Object({
    space: Id,
    changeRequest: Type.Optional(Id),
    page: Type.Optional(Id),
  }),
  site: Type.Optional(Type.String({ maxLength: 128 })),
  enhance: Type.Optional(Type.Boolean()),
});
export type StartImportBody = Static<typeof StartImportBody>;

export const ImportRunStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('in-progress'),
  Type.Literal('completed'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);

/** ContentImportRun (both API versions). */
export const ContentImportRun = Type.Object({
  object: Type.Literal('import-run'),
  id: Type.String(),
  status: ImportRunStatus,
  reason: Type.Optional(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  startedAt: Type.Optional(Timestamp),
  completedAt: Type.Optional(Timestamp),
  source: Type.Object({
    type: Type.String(),
    url: Type.Optional(Type.String()),
    files: Type.Optional(Type.Array(Type.String())),
  }),
  target: Type.Object({
    space: Type.String(),
    changeRequest: Type.Optional(Type.String()),
    page: Type.Optional(Type.String()),
  }),
  createdBy: Type.String(),
  /** Quire: the change request the run wrote into (the target one, or the one it opened and merged). */
  changeRequest: Type.Optional(Type.String()),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  pages: Type.Array(
    Type.Object({
      id: Type.String(),
      sourceURL: Type.Optional(Type.String()),
      type: Type.Literal('page'),
      status: Type.Literal('complete'),
    }),
  ),
});
export type ContentImportRun = Static<typeof ContentImportRun>;

export const ImportRunParams = Type.Object({ organizationId: Id, importRunId: Id });

export const ListImportRunsQuery = Type.Object({
  space: Type.Optional(Id),
  changeRequest: Type.Optional(Id),
  site: Type.Optional(Id),
  status: Type.Optional(
    Type.Union([
      Type.Literal('active'),
      Type.Literal('pending'),
      Type.Literal('in-progress'),
      Type.Literal('completed'),
      Type.Literal('failed'),
      Type.Literal('cancelled'),
    ]),
  ),
  ...PageQuery,
});
export type ListImportRunsQuery = Static<typeof ListImportRunsQuery>;
