import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentImportRun } from './present.js';
import { ContentImportRun, ImportRunParams, ListImportRunsQuery, StartImportBody } from './schemas.js';

export function importRoutes(app: App): void {
  const { services, urls, deps } = app.quire;
  const tags = ['imports'];
  const now = () => deps.clock.now();

  app.post(
    '/v1/org/:organizationId/imports',
    {
      schema: {
        operationId: 'startImportRun',
        summary: 'Import Markdown files into a space (or a change request of it), as a background run',
        tags,
        params: OrgParams,
        body: StartImportBody,
        response: { 201: ContentImportRun, ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const row = await services.imports.start(request.actor, request.params.organizationId, request.body);
      const run = presentImportRun(row, urls, now());
      return reply.code(201).header('Location', run.urls.location).send(run);
    },
  );

  app.get(
    '/v1/org/:organizationId/imports',
    {
      schema: {
        operationId: 'listImportRuns',
        tags,
        params: OrgParams,
        querystring: ListImportRunsQuery,
        response: { 200: listOf(ContentImportRun), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.imports.list(request.actor, request.params.organizationId, request.query);
      return { ...page, items: page.items.map((row) => presentImportRun(row, urls, now())) };
    },
  );

  app.get(
    '/v1/org/:organizationId/imports/:importRunId',
    {
      schema: {
        operationId: 'getImportRun',
        tags,
        params: ImportRunParams,
        response: { 200: ContentImportRun, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentImportRun(
        await services.imports.get(request.actor, request.params.organizationId, request.params.importRunId),
        urls,
        now(),
      ),
  );

  app.post(
    '/v1/org/:organizationId/imports/:importRunId/cancel',
    {
      schema: {
        operationId: 'cancelImportRun',
        tags,
        params: ImportRunParams,
        response: { 200: ContentImportRun, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentImportRun(
        await services.imports.cancel(
          request.actor,
          request.params.organizationId,
          request.params.importRunId,
        ),
        urls,
        now(),
      ),
  );
}
