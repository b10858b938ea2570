import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { agentInstructionRoutes } from './areas/agent-instructions/routes.js';
import { reviewRoutes } from './areas/change-requests/review-routes.js';
import { changeRequestRoutes } from './areas/change-requests/routes.js';
import { collectionRoutes } from './areas/collections/routes.js';
import { commentRoutes } from './areas/comments/routes.js';
import { fileRoutes } from './areas/content/file-routes.js';
import { linkRoutes } from './areas/content/links-routes.js';
import { contentRoutes, templateRoutes } from './areas/content/routes.js';
import { conversationRoutes } from './areas/conversations/routes.js';
import { gitRoutes } from './areas/git/routes.js';
import { importRoutes } from './areas/imports/routes.js';
import { integrationEndpointRoutes } from './areas/integrations/endpoint-routes.js';
import { integrationEventRoutes } from './areas/integrations/event-routes.js';
import { answerInProcess } from './areas/integrations/in-process-api.js';
import { installationRoutes } from './areas/integrations/installation-routes.js';
import { integrationAssetRoutes, integrationRoutes } from './areas/integrations/routes.js';
import { inviteRoutes } from './areas/invites/routes.js';
import { memberRoutes } from './areas/members/routes.js';
import { metaRoutes } from './areas/meta/routes.js';
import { openApiRoutes, publicOpenApiRoutes } from './areas/openapi/routes.js';
import { orgRoutes } from './areas/orgs/routes.js';
import { pdfRoutes } from './areas/pdf/routes.js';
import { permissionRoutes } from './areas/permissions/routes.js';
import { searchRoutes } from './areas/search/routes.js';
import { sessionRoutes } from './areas/sessions/routes.js';
import { siteRoutes } from './areas/sites/routes.js';
import { spaceRoutes } from './areas/spaces/routes.js';
import { ssoRoutes } from './areas/sso/routes.js';
import { ssoServiceProviderRoutes } from './areas/sso/sp-routes.js';
import { storageRoutes } from './areas/storage/routes.js';
import { teamRoutes } from './areas/teams/routes.js';
import { translationRoutes } from './areas/translations/routes.js';
import { userRoutes } from './areas/users/routes.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import type { Deps } from './deps.js';
import { compressAnswers } from './http/compress-answers.js';
import { registerPreflight } from './http/cors.js';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_PARAM_LENGTH,
  registerErrorHandling,
} from './http/error-handler.js';
import { FrontDoor } from './http/front-door.js';
import { GzipParts } from './http/gzip-parts.js';
import { RateLimits, trustProxyOption } from './http/rate-limit.js';
import { registerRequestHook } from './http/request-hook.js';
import { RequestLog } from './http/request-log.js';
import { requestLoggers } from './http/request-logger.js';
import type { App } from './http/types.js';
import { Urls } from './http/urls.js';
import { requestValidatorCompiler, responseSerializerCompiler } from './http/validators.js';
import { newId } from './ids.js';
import type { QueueOptions } from './jobs/queue.js';
import { customHostSites, publishedSiteRoutes } from './publish/routes.js';
import { SiteServer } from './publish/site-server.js';
import { createServices } from './services.js';
import { VERSION } from './version.js';

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Pino options or `false`; defaults to JSON logs at `config.logLevel`. */
  logger?: FastifyServerOptions['logger'];
  /** Background worker settings, or false to run no worker in this process. */
  jobs?: QueueOptions | false;
}

function emptyBody(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.body == null) request.body = {};
  done();
}

/** Builds the whole server (used by `quire serve` and by the tests), without listening. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;

  const requestId = requestIds();
  const door = new FrontDoor(config, database.cache, requestId);
  const app = Fastify({
    // Asynchronous stdout: under load, log lines coalesce into few writes instead of one
    // blocking write per request; pino flushes what is pending when the process exits.
    logger: options.logger ?? { level: config.logLevel, stream: pino.destination({ dest: 1, sync: false }) },
    bodyLimit: config.bodyLimit,
    // The client address (request.ip) behind reverse proxies: QUIRE_TRUST_PROXY, off by default.
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: requestId,
    // Kept page revalidations and API reads are answered in front of Fastify (front-door.ts).
    serverFactory: door.serverFactory,
    logController: new RequestLog(),
    childLoggerFactory: requestLoggers,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // No `ajv` option: the validator compiler set below replaces Fastify's, so it would have no
    // effect; validation options are in src/validation.ts (makeAjv).
    // Errors answered before any route or hook runs, in the one error shape too.
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const urls = new Urls(config.publicUrl);
  const deps: Deps = {
    config,
    database,
    db: database.db,
    dialect: database.dialect,
    clock,
    urls,
    log: app.log,
  };
  const services = createServices(deps, options.jobs || {});
  if (options.jobs !== false) {
    app.addHook('onReady', async () => {
      await services.searchEngine.started();
      await services.documentFill.started();
      services.git.started();
      services.jobs.start();
    });
    app.addHook('onClose', async () => services.jobs.stop());
  }
  const gzip = new GzipParts();
  app.decorate('quire', { deps, services, authz: services.authz, urls, frontDoor: door, gzip });

  app.setValidatorCompiler(requestValidatorCompiler());
  app.setSerializerCompiler(responseSerializerCompiler());
  registerErrorHandling(app);
  registerJsonParser(app);
  compressAnswers(app);
  // A request without a body, on a route that takes one, is validated as `{}`: optional bodies
  // then pass, and required fields are named ("body.title is required") rather than the body.
  // On those routes only, ahead of their own: a hook is a cost on every request it could see.
  app.addHook('onRoute', (route) => {
    if (!route.schema?.body) return;
    const own = route.preValidation;
    route.preValidation = [emptyBody, ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
  });

  const siteServer = new SiteServer(deps, services);
  const limits = new RateLimits(config, clock);
  registerRequestHook(app, limits, customHostSites(config.publicUrl, siteServer, gzip));
  door.open({
    revalidate: (request, admit) => siteServer.revalidate(request, admit),
    authenticate: (digest) => services.tokens.authenticate(digest),
    limits,
    log: app.log,
  });
  app.addHook('preClose', (done) => {
    door.close();
    done();
  });
  registerPreflight(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: VERSION,
        description: 'The GitBook-compatible API of this Quire server.',
      },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
      security: [{ token: [] }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });

  metaRoutes(app);
  userRoutes(app);
  orgRoutes(app);
  memberRoutes(app);
  inviteRoutes(app);
  agentInstructionRoutes(app);
  collectionRoutes(app);
  spaceRoutes(app);
  teamRoutes(app);
  ssoRoutes(app);
  permissionRoutes(app);
  changeRequestRoutes(app);
  reviewRoutes(app);
  contentRoutes(app);
  fileRoutes(app);
  linkRoutes(app);
  templateRoutes(app);
  commentRoutes(app);
  siteRoutes(app);
  searchRoutes(app);
  gitRoutes(app);
  importRoutes(app);
  await storageRoutes(app);
  await ssoServiceProviderRoutes(app);
  openApiRoutes(app);
  publicOpenApiRoutes(app);
  integrationRoutes(app);
  translationRoutes(app);
  conversationRoutes(app);
  pdfRoutes(app);
  installationRoutes(app);
  integrationEventRoutes(app);
  integrationAssetRoutes(app);
  await integrationEndpointRoutes(app);
  services.apiForGateway = (request) => answerInProcess(app, request);
  app.addHook('onClose', async () => {
    await services.siteViews.close();
    await services.integrationRuntime.close();
    await services.printer?.close();
  });
  await sessionRoutes(app);
  publishedSiteRoutes(app, siteServer);

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  return app;
}

/** Request ids: a random prefix per process and a counter, unique without a random draw per request. */
function requestIds(): () => string {
  const prefix = newId(8);
  let counter = 0;
  return () => `${prefix}${(++counter).toString(36).padStart(8, '0')}`;
}

/**
 * JSON only (text/plain and others get 415), with an empty body accepted as "no body" so that
 * body-less POSTs work whatever Content-Type the client sends.
 */
function registerJsonParser(app: App): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([a-z0-9.+-]*\+)?json$/i,
    { parseAs: 'string' },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      parse(request, text, done);
    },
  );
}
