import type { Deps } from '../../deps.js';
import { type OutboundClient, OutboundError } from '../../http/outbound.js';
import { type GatewayHandler, plain } from '../../integrations/runtime/gateway.js';

/** What a script may receive from one request (its own answers are capped by the runtime). */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Headers that describe the connection to Quire, not the request the script meant. */
const DROPPED = new Set(['host', 'content-length']);

/**
 * Where the fetch() calls of an integration's script go. Calls to Quire's own API (the
 * `apiEndpoint` scripts are given) are answered in process by `api`, as any API client is,
 * with the token the script sends; everything else goes out through the guarded outbound
 * client, which refuses private and loopback addresses (unless QUIRE_OUTBOUND_ALLOW says
 * otherwise) and caps time and size.
 */
export function integrationGateway(
  deps: Deps,
  outbound: Pick<OutboundClient, 'fetch'>,
  integration: { name: string; version: number },
  api: () => GatewayHandler | undefined,
): GatewayHandler {
  const apiOrigin = new URL(deps.config.publicUrl).origin;
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return plain(400, `Not an absolute URL: ${request.url.slice(0, 200)}`);
    }
    if (url.origin === apiOrigin) {
      const forward = api();
      if (!forward) return plain(503, 'Quire is starting; try again');
      return forward(request);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!DROPPED.has(name.toLowerCase())) headers[name] = value;
    }
    try {
      const answer = await outbound.fetch(url.toString(), {
        method: request.method,
        headers,
        body: request.body,
        maxBytes: MAX_RESPONSE_BYTES,
      });
      return { status: answer.status, headers: answer.headers, body: answer.body };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      deps.log.info({ integration: integration.name, code: error.code }, 'integration request refused');
      return plain(
        502,
        `Quire did not send this request of integration ${integration.name}: ${error.message}`,
      );
    }
  };
}
