import { CORS_ALLOW_HEADERS, CORS_ALLOW_METHODS } from './cors-headers.js';
import type { App } from './types.js';

/** Preflight requests, for any path. */
export function registerPreflight(app: App): void {
  app.options('/*', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('Access-Control-Allow-Origin', '*')
      .header('Access-Control-Allow-Methods', CORS_ALLOW_METHODS)
      .header('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS)
      .header('Access-Control-Max-Age', '600')
      .code(204)
      .send();
  });
}
