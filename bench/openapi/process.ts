/**
 * Processing cost of a real-world-sized specification (spec.ts: 500 operations, 1,000 schemas
 * over ten files, served by a loopback node:http server): Quire's engine (fetch through the
 * guarded client, parse, bundle, upgrade 3.0 to 3.1, validate, hash, serialize) against
 * @scalar/openapi-parser's `validate` and @scalar/json-magic's `bundle` alone (global fetch,
 * the library's own loaders), in the same run, alternating. Target: ratio <= 1.5.
 *
 *   npx tsx bench/openapi/process.ts [rounds]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundle } from '@scalar/json-magic/bundle';
import { fetchUrls } from '@scalar/json-magic/bundle/plugins/browser';
import { validate } from '@scalar/openapi-parser';
import { parse } from 'yaml';
import { OutboundClient } from '../../src/http/outbound.js';
import { processSpec } from '../../src/openapi/process.js';
import { splitSpec } from './spec.js';

const rounds = Number(process.argv[2] ?? 10);
const spec = splitSpec();
const server = http.createServer((request, response) => {
  const file = spec.files.get((request.url ?? '/').slice(1));
  response.writeHead(file === undefined ? 404 : 200).end(file ?? '');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const entryUrl = `http://127.0.0.1:${port}/${spec.entry}`;
const client = new OutboundClient({ allow: [`127.0.0.1:${port}`] });

async function quire(): Promise<void> {
  const outcome = await processSpec({ kind: 'url', url: entryUrl }, { fetcher: client });
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  if (outcome.externalDocuments !== spec.files.size - 1) throw new Error('not every file was bundled');
}

async function baseline(): Promise<void> {
  const text = await (await fetch(entryUrl)).text();
  const document = parse(text) as Record<string, unknown>;
  await bundle(document, { plugins: [fetchUrls()], treeShake: false, origin: entryUrl });
  await validate(document);
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (let i = 0; i < 2; i++) {
  await quire();
  await baseline();
}
const times = { quire: [] as number[], baseline: [] as number[] };
for (let i = 0; i < rounds; i++) {
  times.quire.push(await timed(quire));
  times.baseline.push(await timed(baseline));
}
server.close();

const bytes = [...spec.files.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
const q = median(times.quire);
const b = median(times.baseline);
console.log(
  `spec: ${spec.operations} operations, ${spec.schemas} schemas, ${spec.files.size} files, ${(bytes / 1024).toFixed(0)} KiB`,
);
console.log(`Quire processSpec        median ${q.toFixed(0)} ms over ${rounds} rounds`);
console.log(`scalar bundle + validate median ${b.toFixed(0)} ms`);
console.log(`ratio ${(q / b).toFixed(2)} (target <= 1.5)`);
