import { sql } from 'kysely';
import { Type } from 'typebox';
import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { BUILD, VERSION } from '../../version.js';
import { APP_HOME } from '../sessions/return-path.js';

export function metaRoutes(app: App): void {
  const { deps, urls } = app.quire;

  // `/` is where a newcomer lands from the printed URL: a browser goes to the signed-in
  // landing (the sign-in page first), an API client gets the addresses it needs.
  app.get(
    '/',
    {
      config: { public: true },
      schema: {
        hide: true,
        response: {
          200: Type.Object({
            name: Type.Literal('Quire'),
            version: Type.String(),
            message: Type.String(),
            api: Type.String(),
            docs: Type.String(),
            openapi: Type.String(),
          }),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request, reply) => {
      reply.header('vary', 'Accept');
      // A browser is a person: the signed-in landing (which asks them to sign in first).
      if (request.headers.accept?.includes('text/html')) return reply.redirect(APP_HOME, 302);
      return {
        name: 'Quire' as const,
        version: VERSION,
        message: 'This is the Quire API. Send requests under /v1 with Authorization: Bearer <token>.',
        api: urls.api('/'),
        docs: `${urls.base}/docs`,
        openapi: `${urls.base}/openapi.json`,
      };
    },
  );

  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['meta'],
        summary: 'Liveness and database reachability',
        response: {
          200: Type.Object({ status: Type.Literal('ok'), database: Type.Enum(['sqlite', 'postgres']) }),
          ...STANDARD_ERRORS,
        },
      },
    },
    async () => {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok' as const, database: deps.dialect };
    },
  );

  app.get(
    '/v1/',
    {
      config: { public: true },
      schema: {
        operationId: 'getApiInformation',
        tags: ['meta'],
        response: { 200: Type.Object({ version: Type.String(), build: Type.String() }), ...STANDARD_ERRORS },
      },
    },
    async () => ({ version: VERSION, build: BUILD }),
  );
}
