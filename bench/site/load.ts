import autocannon from 'autocannon';

export interface PageRequest {
  path: string;
  headers?: Record<string, string>;
}

export interface PagesLoadResult {
  requestsPerSec: number;
  bytesPerSec: number;
  p50: number;
  p99: number;
  /** Answers with another status than the one expected. */
  unexpected: number;
  errors: number;
}

let offset = 0;

/**
 * Like bench/lib `load()`, but every connection cycles over all `requests` (prebuilt by
 * autocannon, so the client spends nothing per request choosing one), each connection starting
 * at another point of the list so they do not walk it in step.
 */
export async function loadPages(
  origin: string,
  requests: PageRequest[],
  expectedStatus: number,
  connections: number,
  seconds: number,
): Promise<PagesLoadResult> {
  const all = requests.map((r) => ({ method: 'GET' as const, path: r.path, headers: r.headers ?? {} }));
  const step = Math.max(1, Math.floor(all.length / connections));
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: all.slice(0, 1),
    setupClient: (client) => {
      const start = (offset++ * step) % all.length;
      client.setRequests([...all.slice(start), ...all.slice(0, start)]);
    },
  });
  const stats = result.statusCodeStats ?? {};
  let unexpected = 0;
  for (const [code, { count }] of Object.entries(stats))
    if (Number(code) !== expectedStatus) unexpected += count ?? 0;
  return {
    requestsPerSec: result.requests.average,
    bytesPerSec: result.throughput.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected,
    errors: result.errors,
  };
}
