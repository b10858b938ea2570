import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { Authorizer } from '../auth/authorize.js';
import type { Deps } from '../deps.js';
import type { Services } from '../services.js';
import type { FrontDoor } from './front-door.js';
import type { GzipParts } from './gzip-parts.js';
import type { Urls } from './urls.js';

export interface QuireContext {
  deps: Deps;
  services: Services;
  authz: Authorizer;
  urls: Urls;
  /** What is answered before routing (kept page revalidations and API reads). */
  frontDoor: FrontDoor;
  /** Compressed blocks of the large answers kept as buffers (page trees, site fragments). */
  gzip: GzipParts;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    quire: QuireContext;
  }
  interface FastifyRequest {
    /** Set by the auth hook on every route that is not `public`; never read it on public routes. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** The route answers without a token. */
    public?: boolean;
  }
}
