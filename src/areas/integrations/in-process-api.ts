import type { FastifyInstance } from 'fastify';
import type { GatewayRequest, GatewayResponse } from '../../integrations/runtime/gateway.js';

/**
 * A script's call to Quire's API, answered by this server without a network hop (so it works
 * whatever the public URL points at: a proxy, another host name). It goes through every hook
 * an API request goes through: authentication with the script's token, rate limits, scopes.
 */
export async function answerInProcess(
  app: FastifyInstance,
  request: GatewayRequest,
): Promise<GatewayResponse> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() !== 'host' && name.toLowerCase() !== 'content-length') headers[name] = value;
  }
  const answer = await app.inject({
    method: request.method as 'GET',
    url: `${url.pathname}${url.search}`,
    headers,
    ...(request.body ? { payload: request.body } : {}),
  });
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { status: answer.statusCode, headers: flat, body: answer.rawPayload };
}
