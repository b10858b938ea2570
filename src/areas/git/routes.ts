import { Type } from 'typebox';
import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { SpaceParams } from '../spaces/schemas.js';
import { presentGitSync } from './present.js';
import { ExportGitBody, GitSyncState, ImportGitBody } from './schemas.js';

export function gitRoutes(app: App): void {
  const { services } = app.quire;
  const tags = ['space-git'];

  app.post(
    '/v1/spaces/:spaceId/git/import',
    {
      schema: {
        operationId: 'importGitRepository',
        tags,
        params: SpaceParams,
        body: ImportGitBody,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.git.requestImport(request.actor, request.params.spaceId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/spaces/:spaceId/git/export',
    {
      schema: {
        operationId: 'exportToGitRepository',
        tags,
        params: SpaceParams,
        body: ExportGitBody,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.git.requestExport(request.actor, request.params.spaceId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/spaces/:spaceId/git/info',
    {
      schema: {
        operationId: 'getSpaceGitInfo',
        tags,
        params: SpaceParams,
        response: { 200: GitSyncState, ...STANDARD_ERRORS },
      },
    },
    async (request) => presentGitSync(await services.git.info(request.actor, request.params.spaceId)),
  );

  app.delete(
    '/v1/spaces/:spaceId/git/legacy-installation',
    {
      schema: {
        operationId: 'deleteLegacyGitInstallation',
        tags,
        params: SpaceParams,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      await services.git.removeInstallation(request.actor, request.params.spaceId);
      return reply.code(204).send(null);
    },
  );
}
