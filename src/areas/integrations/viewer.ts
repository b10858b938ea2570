import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';

/**
 * Who reads a route that answers without a token (`security: []` in the contract, such as
 * `listIntegrations`): the caller the request hook authenticated when they sent a token or a
 * session cookie, else no one (see http/request-hook.ts).
 */
export function viewerOf(request: FastifyRequest): Actor | undefined {
  return (request.actor as Actor | null) ?? undefined;
}
