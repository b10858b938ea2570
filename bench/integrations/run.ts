/**
 * bench/integrations: how fast events reach an integration's script.
 *
 * Quire: a server in this process (SQLite, job worker on) with an integration built and
 * published by the official CLI and installed. Its script posts each `space_content_updated` to
 * a recorder on loopback, through Quire's gateway and guarded outbound client.
 * - Latency: merge answered → the recorder hears the script (median, p99 over merges).
 * - Throughput: 1,000 events enqueued at once as delivery jobs → all heard.
 *
 * Baseline, in the same run: the same bundle in a bare workerd process (the runtime's own
 * process wrapper, a gateway that passes requests straight on with fetch), posted the same
 * event 1,000 times, one after the other as the queue delivers them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IntegrationRuntime } from '../../src/integrations/runtime/runtime.js';
import { findWorkerd } from '../../src/integrations/runtime/workerd-binary.js';
import { insert, newChangeRequest, seed, write } from '../../test/helpers/content.js';
import { createOrg, createUser } from '../../test/helpers/factories.js';
import { gitbookPublish } from '../../test/helpers/gitbook-cli.js';
import { startTestServer } from '../../test/helpers/server.js';
import { median } from '../lib.js';

const MERGES = Number(process.env.BENCH_MERGES ?? 60);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const FIXTURE = path.resolve(import.meta.dirname, 'fixture');
const log = (line: string) => process.stdout.write(`${line}\n`);
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A loopback server that records when each revision was reported. */
async function recorder() {
  const heard = new Map<string, number>();
  let count = 0;
  const waiters: Array<{ until: number; resolve: () => void }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const at = performance.now();
      heard.set((JSON.parse(body) as { revisionId: string }).revisionId, at);
      count++;
      for (const w of waiters.filter((w) => count >= w.until)) w.resolve();
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/report`,
    heard,
    count: () => count,
    reached: (until: number) =>
      count >= until ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ until, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main() {
  const binary = findWorkerd();
  if ('missing' in binary) throw new Error(`workerd cannot run here: ${binary.missing}`);
  const sink = await recorder();
  const server = await startTestServer({
    worker: true,
    env: { QUIRE_OUTBOUND_ALLOW: `127.0.0.1:${sink.port}` },
  });
  try {
    const admin = await createUser(server);
    const orgId = await createOrg(admin, 'Bench');
    const spaceId = (await admin.api.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
    await seed(admin.api, spaceId, [insert('Welcome', 'Hello.')]);

    log('Building and publishing the integration with @gitbook/cli…');
    const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-integration-'));
    writeFileSync(
      path.join(dir, 'gitbook-manifest.yaml'),
      readFileSync(path.join(FIXTURE, 'gitbook-manifest.yaml'), 'utf8')
        .replace('script: src/index.ts', `script: ${path.join(FIXTURE, 'src/index.ts')}`)
        .replace('REPORT_URL: replaced-by-the-benchmark', `REPORT_URL: ${sink.url}`),
    );
    const run = await gitbookPublish({
      manifest: path.join(dir, 'gitbook-manifest.yaml'),
      organization: orgId,
      token: admin.token,
      endpoint: server.url,
    });
    const bundle = readFileSync(path.join(run.home, '.gitbook', 'quire-bench-notify', 'script.js'), 'utf8');
    run.cleanup();
    rmSync(dir, { recursive: true, force: true });
    if (run.code !== 0) throw new Error(`gitbook publish failed:\n${run.stdout}\n${run.stderr}`);
    const { data: installation } = await admin.api.integrations.installIntegration('quire-bench-notify', {
      organization: orgId,
    });

    // Latency: one merge at a time, each waited for.
    log(`Latency: ${MERGES} merges, each until the script reports it…`);
    const latencies: number[] = [];
    for (let i = 0; i < MERGES; i++) {
      const crId = await newChangeRequest(admin.api, spaceId, `Edit ${i}`);
      await write(admin.api, spaceId, crId, [insert(`Page ${i}`, `Text ${i}.`)]);
      const before = sink.count();
      const merged = await admin.api.spaces.mergeChangeRequest(spaceId, crId);
      const answered = performance.now();
      await sink.reached(before + 1);
      const heard = sink.heard.get(merged.data.revision);
      if (heard === undefined) throw new Error(`revision ${merged.data.revision} was not reported`);
      // The first event starts the script's process: counted apart.
      if (i > 0) latencies.push(heard - answered);
    }

    // Throughput: EVENTS deliveries enqueued in one transaction, then the worker runs them.
    log(`Throughput: ${EVENTS} events through the queue…`);
    const { services } = server.app.quire;
    const { data: head } = await admin.api.spaces.getCurrentRevision(spaceId);
    const start = sink.count();
    const t0 = performance.now();
    await server.database.db.transaction().execute(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        await services.integrationDelivery.headMoved(tx, {
          spaceId,
          revisionId: `${head.id}-${i}`,
          by: null,
        });
      }
    });
    await sink.reached(start + EVENTS);
    const quireSeconds = (performance.now() - t0) / 1000;

    // Baseline: the same bundle in bare workerd, the same event posted EVENTS times.
    log(`Baseline: the same handler in bare workerd, ${EVENTS} events…`);
    const bare = new IntegrationRuntime({
      binary,
      limits: { timeoutMs: 15_000, memoryMb: 128, maxBodyBytes: 5 * 1024 * 1024 },
      idleMs: 600_000,
      log: server.app.log,
      gateway: () => async (request) => {
        const body = request.body ? new Uint8Array(request.body) : undefined;
        const answer = await fetch(request.url, { method: request.method, body });
        return { status: answer.status, headers: {}, body: Buffer.from(await answer.arrayBuffer()) };
      },
    });
    const environment = {
      apiEndpoint: server.url,
      apiTokens: { integration: admin.token, installation: admin.token },
      integration: { name: 'quire-bench-notify', version: 1 },
      installation: { id: installation.id },
      secrets: { REPORT_URL: sink.url },
      signingSecrets: { integration: 'bench' },
    };
    const script = { name: 'bare', version: 1, script: bundle };
    const event = (i: number) => ({
      eventId: `e${i}`,
      type: 'space_content_updated',
      installationId: installation.id,
      spaceId,
      revisionId: `bare-${i}`,
      updatedBy: [],
    });
    await bare.dispatch(script, event(-1), environment);
    const bareLatencies: number[] = [];
    const b0 = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const s = performance.now();
      await bare.dispatch(script, event(i), environment);
      bareLatencies.push(performance.now() - s);
    }
    const bareSeconds = (performance.now() - b0) / 1000;
    await bare.close();

    const quireRate = EVENTS / quireSeconds;
    const bareRate = EVENTS / bareSeconds;
    log('');
    log(`Delivery latency, merge answered → handler heard (${latencies.length} merges):`);
    log(`  median ${ms(median(latencies))}, p99 ${ms(p99(latencies))}`);
    log(
      `  bare workerd, one event posted → handler heard: median ${ms(median(bareLatencies))}, p99 ${ms(p99(bareLatencies))}`,
    );
    log(`Throughput of ${EVENTS} events:`);
    log(
      `  Quire ${quireRate.toFixed(0)} events/s (${quireSeconds.toFixed(2)} s), bare workerd ${bareRate.toFixed(0)} events/s (${bareSeconds.toFixed(2)} s)`,
    );
    log(`  ratio Quire / bare workerd: ${(quireRate / bareRate).toFixed(2)}`);
    log(`  latency ratio (median, Quire / bare): ${(median(latencies) / median(bareLatencies)).toFixed(2)}`);
  } finally {
    await server.close();
    await sink.close();
  }
}

await main();
