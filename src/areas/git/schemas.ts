import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.js';

const GitInfo = Type.Object({
  provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
  url: Type.Optional(Type.String({ maxLength: 2048 })),
});

const common = {
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  ref: Type.String({ minLength: 1, maxLength: 255 }),
  repoCacheID: Type.Optional(Type.String({ maxLength: 255 })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  force: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfo),
};

export const ImportGitBody = Type.Object({
  ...common,
  standalone: Type.Optional(Type.Boolean()),
});
export type ImportGitBody = Static<typeof ImportGitBody>;

export const ExportGitBody = Type.Object({
  ...common,
  commitMessage: Type.String({ minLength: 1, maxLength: 10_000 }),
  standalone: Type.Optional(Type.Boolean()),
});
export type ExportGitBody = Static<typeof ExportGitBody>;

/** GitSyncState (both API versions; 0.202 requires the installation fields). */
export const GitSyncState = Type.Object({
  repoName: Type.Optional(Type.String()),
  installationStatus: Type.Union([
    Type.Literal('unauthenticated'),
    Type.Literal('active'),
    Type.Literal('pending'),
  ]),
  installationProvider: Type.Union([
    Type.Literal('github'),
    Type.Literal('gitlab'),
    Type.Literal('github-legacy'),
  ]),
  integration: Type.Optional(Type.String()),
  installationId: Type.String(),
  url: Type.Optional(Type.String()),
  operation: Type.Optional(
    Type.Object({
      state: Type.Union([Type.Literal('running'), Type.Literal('failure'), Type.Literal('success')]),
      direction: Type.Union([Type.Literal('import'), Type.Literal('export')]),
      startedAt: Timestamp,
      endedAt: Type.Optional(Timestamp),
      error: Type.Optional(Type.String()),
      /** Quire: what a successful operation left out (missing files named in SUMMARY.md...). */
      warnings: Type.Optional(Type.Array(Type.String())),
    }),
  ),
  updatedAt: Type.Optional(Timestamp),
});
export type GitSyncState = Static<typeof GitSyncState>;
