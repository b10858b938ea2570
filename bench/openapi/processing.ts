/**
 * The processing half of bench/openapi: the split specification served by a loopback node:http
 * server, and the two ways of processing it measured side by side in one process.
 *
 * - Quire: `processSpec({kind: 'url'})` through the guarded outbound client (fetch, parse,
 *   bundle with our loaders, upgrade 3.0 to 3.1, validate, look for broken local refs, hash,
 *   serialize).
 * - Baseline: @scalar/json-magic's `bundle` given the entry URL with the library's own loaders
 *   (`fetchUrls` on global fetch, `parseJson`, `parseYaml`; never `readFiles`), then
 *   @scalar/openapi-parser's `validate`: what the engine is made of, alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundle } from '@scalar/json-magic/bundle';
import { fetchUrls, parseJson, parseYaml } from '@scalar/json-magic/bundle/plugins/browser';
import { validate } from '@scalar/openapi-parser';
import { OutboundClient } from '../../src/http/outbound.js';
import { processSpec } from '../../src/openapi/process.js';
import { median } from '../lib.js';
import type { SplitSpec } from './spec.js';

export interface SpecServer {
  port: number;
  entryUrl: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/** Serves the spec's files from memory at `/<name>`. */
export async function serveSpec(spec: SplitSpec): Promise<SpecServer> {
  let requests = 0;
  const bodies = new Map([...spec.files].map(([name, text]) => [name, Buffer.from(text)]));
  const server = http.createServer((request, response) => {
    requests++;
    const name = (request.url ?? '/').slice(1);
    const body = bodies.get(name);
    if (!body) {
      response.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    response
      .writeHead(200, {
        'content-type': name.endsWith('.json') ? 'application/json' : 'application/yaml',
        'content-length': body.length,
      })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    entryUrl: `http://127.0.0.1:${port}/${spec.entry}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One run of Quire's engine; throws unless every file was bundled and the spec is valid. */
export function quireProcessor(spec: SplitSpec, server: SpecServer) {
  const client = new OutboundClient({ allow: [`127.0.0.1:${server.port}`] });
  return async () => {
    const outcome = await processSpec({ kind: 'url', url: server.entryUrl }, { fetcher: client });
    if (!outcome.ok) throw new Error(`processSpec failed: ${outcome.code}: ${outcome.message}`);
    if (outcome.externalDocuments !== spec.files.size - 1)
      throw new Error(`processSpec bundled ${outcome.externalDocuments} of ${spec.files.size - 1} files`);
    if (outcome.issueCount > 0)
      throw new Error(`processSpec found ${outcome.issueCount} issues: ${outcome.issues[0]?.message}`);
  };
}

/** One run of the libraries alone on the same URL. */
export function baselineProcessor(spec: SplitSpec, server: SpecServer) {
  return async () => {
    const document = (await bundle(server.entryUrl, {
      plugins: [fetchUrls(), parseJson(), parseYaml()],
      treeShake: false,
    })) as Record<string, unknown>;
    const ext = document['x-ext'];
    const files = ext && typeof ext === 'object' ? Object.keys(ext).length : 0;
    if (files !== spec.files.size - 1)
      throw new Error(`the baseline bundled ${files} of ${spec.files.size - 1} files`);
    const result = await validate(document);
    if (!result.valid) throw new Error(`the baseline found the spec invalid: ${result.errors?.[0]?.message}`);
  };
}

export interface ProcessingFigures {
  quire: number[];
  baseline: number[];
  quireMedian: number;
  baselineMedian: number;
  ratio: number;
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/**
 * `warmup` runs of each, then `rounds` rounds of one run each, the order alternating from round
 * to round so that neither always runs right after the other's garbage.
 */
export async function measureProcessing(
  quire: () => Promise<void>,
  baseline: () => Promise<void>,
  rounds: number,
  warmup: number,
  onRound?: (round: number, quireMs: number, baselineMs: number) => void,
): Promise<ProcessingFigures> {
  for (let i = 0; i < warmup; i++) {
    await quire();
    await baseline();
  }
  const times = { quire: [] as number[], baseline: [] as number[] };
  for (let round = 1; round <= rounds; round++) {
    if (round % 2) {
      times.quire.push(await timed(quire));
      times.baseline.push(await timed(baseline));
    } else {
      times.baseline.push(await timed(baseline));
      times.quire.push(await timed(quire));
    }
    onRound?.(round, times.quire.at(-1)!, times.baseline.at(-1)!);
  }
  const quireMedian = median(times.quire);
  const baselineMedian = median(times.baseline);
  return { ...times, quireMedian, baselineMedian, ratio: quireMedian / baselineMedian };
}
