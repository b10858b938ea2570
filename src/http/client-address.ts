import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';
import { trustProxyOption } from './rate-limit.js';

/** Who sent a raw request, and over what, as Fastify's `request.ip` and `request.protocol` say. */
export interface ClientAddressing {
  ip(request: IncomingMessage): string;
  protocol(request: IncomingMessage): string;
}

/**
 * Fastify's own reading of QUIRE_TRUST_PROXY (`trustProxyOption`), for requests answered before
 * Fastify sees them (front-door.ts): the same package and the same rules (the client is the
 * last address proxy-addr trusts; X-Forwarded-Proto only from a trusted socket, its last entry),
 * so a visitor is one address, and one rate-limit key, whichever way a request is answered.
 * test/unit/client-address.test.ts holds them side by side.
 */
export function clientAddressing(setting: Config['trustProxy']): ClientAddressing {
  const option = trustProxyOption(setting);
  if (option === false)
    return {
      ip: (request) => request.socket.remoteAddress ?? '',
      protocol: (request) => plainProtocol(request),
    };
  const trust = typeof option === 'function' ? option : proxyAddr.compile(option);
  return {
    ip(request) {
      const addresses = proxyAddr.all(request, trust);
      return addresses[addresses.length - 1] ?? '';
    },
    protocol(request) {
      const forwarded = request.headers['x-forwarded-proto'];
      const address = request.socket.remoteAddress;
      if (typeof forwarded === 'string' && forwarded !== '' && address !== undefined && trust(address, 0)) {
        const last = forwarded.lastIndexOf(',');
        return (last === -1 ? forwarded : forwarded.slice(last + 1)).trim();
      }
      return plainProtocol(request);
    },
  };
}

function plainProtocol(request: IncomingMessage): string {
  return (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}
