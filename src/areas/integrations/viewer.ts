import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { readSessionCookie } from '../../auth/session-cookie.js';
import { digestToken, parseBearer } from '../../auth/tokens.js';
import { unauthorized } from '../../errors.js';
import type { Services } from '../../services.js';

/**
 * Who reads a route that answers without a token (`security: []` in the contract, such as
 * `listIntegrations`): the caller when they send a token or a session cookie, else no one. The
 * request hook authenticates only routes that need a token, so public routes that show more to
 * members resolve the caller here. A token that is sent but not valid is refused (401) rather
 * than read as anonymous, so a mistyped token does not pass for a quietly shorter answer.
 */
export async function viewerOf(
  request: FastifyRequest,
  services: Pick<Services, 'tokens' | 'sessions'>,
): Promise<Actor | undefined> {
  const header = request.headers.authorization;
  if (header) {
    const token = parseBearer(header);
    if (!token)
      throw unauthorized('Malformed Authorization header: expected "Authorization: Bearer <token>"');
    return services.tokens.authenticate(digestToken(token));
  }
  // Reads only (GET): a session cookie needs no CSRF check, and an ended session reads as no one.
  const cookie = readSessionCookie(request.headers.cookie);
  return cookie ? services.sessions.resolve(cookie) : undefined;
}
