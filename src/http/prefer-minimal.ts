import type { FastifyReply, FastifyRequest } from 'fastify';

/** `Prefer: return=minimal` (0.202): answer 204 and say so, instead of the object. */
export function wantsMinimal(request: FastifyRequest): boolean {
  return /return=minimal/.test(String(request.headers.prefer ?? ''));
}

/** The 204 of a request that asked for `return=minimal`. */
export function minimal(reply: FastifyReply) {
  return reply.code(204).header('Preference-Applied', 'return=minimal').send(null);
}
