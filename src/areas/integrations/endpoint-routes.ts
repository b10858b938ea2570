import { Type } from 'typebox';
import { ApiError, notFound } from '../../errors.js';
import type { App } from '../../http/types.js';
import { ScriptFailure } from '../../integrations/runtime/worker-process.js';

/** The largest request a webhook may send to an integration. */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Headers of the script's answer that are the server's to set. */
const KEPT_OUT = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'set-cookie']);

/**
 * An integration's public endpoint (`urls.publicEndpoint`): webhooks from other services reach
 * the `fetch` handler of its script, and get its answer. No token: the integration checks what
 * it receives (signatures of the service that calls it). Bodies of any type pass through raw.
 */
export async function integrationEndpointRoutes(app: App): Promise<void> {
  const { services, urls } = app.quire;
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_REQUEST_BYTES },
      (_request, body, done) => done(null, body),
    );
    for (const url of [
      '/v1/integrations/:integrationName/integration',
      '/v1/integrations/:integrationName/integration/*',
      '/v1/integrations/:integrationName/installations/:installationId/integration',
      '/v1/integrations/:integrationName/installations/:installationId/integration/*',
    ]) {
      scope.route({
        method: ['GET', 'POST', 'PUT', 'DELETE'],
        url,
        bodyLimit: MAX_REQUEST_BYTES,
        config: { public: true },
        schema: {
          hide: true,
          params: Type.Object({
            integrationName: Type.String({ minLength: 1, maxLength: 100 }),
            installationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            '*': Type.Optional(Type.String({ maxLength: 2048 })),
          }),
        },
        handler: async (request, reply) => {
          const { integrationName, installationId } = request.params as {
            integrationName: string;
            installationId?: string;
          };
          const unavailable = services.integrationRuntime.unavailable;
          if (unavailable)
            throw new ApiError(501, `Integration scripts do not run on this server: ${unavailable}`);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(request.headers)) {
            if (typeof value === 'string') headers[name] = value;
          }
          let answer: Awaited<ReturnType<typeof services.integrationDelivery.fetch>>;
          try {
            answer = await services.integrationDelivery.fetch(integrationName, installationId, {
              url: `${urls.base}${request.url}`,
              method: request.method,
              headers,
              body: Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined,
            });
          } catch (error) {
            if (!(error instanceof ScriptFailure)) throw error;
            throw new ApiError(502, `The integration ${integrationName} did not answer: ${error.message}`);
          }
          if (!answer) throw notFound(`Integration "${integrationName}" not found`);
          for (const [name, value] of Object.entries(answer.headers)) {
            if (!KEPT_OUT.has(name.toLowerCase())) reply.header(name, value);
          }
          return reply.code(answer.status).send(answer.body);
        },
      });
    }
  });
}
