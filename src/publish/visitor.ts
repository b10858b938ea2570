import type { IncomingHttpHeaders } from 'node:http';

/** Who asks for a page of a published site, as its view events name them. */
export interface Visitor {
  ip: string;
  userAgent: string;
  referrer: string;
  language?: string;
}

/** The visitor of a request, from its headers and client address (routed or not). */
export function visitorOf(headers: IncomingHttpHeaders, ip: string): Visitor {
  const userAgent = headers['user-agent'] ?? '';
  const referrer = headers.referer ?? '';
  const accepted = headers['accept-language'];
  return accepted
    ? { ip, userAgent, referrer, language: accepted.split(',')[0]!.trim().slice(0, 35) }
    : { ip, userAgent, referrer };
}
