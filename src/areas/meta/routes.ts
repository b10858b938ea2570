import { sql } from 'kysely';
import { Type } from 'typebox';
import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { BUILD, VERSION } from '../../version.js';

export function metaRoutes(app: App): void {
  const { deps } = app.quire;

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
