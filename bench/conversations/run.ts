/**
 * bench/conversations: what the conversation analysis costs.
 *
 * A server in this process (SQLite), two organizations fed by the tests' seeded generator
 * (test/fixtures/conversations): one of BENCH_CONVERSATIONS conversations (default 10,000) and
 * one of a tenth of that, in the same run. For each:
 * - ingest, 100 conversations a request, and the first analysis (a batch run);
 * - an incremental batch of 100 more conversations: its analysis time;
 * - list latency of the clusters sorted by each `orderBy` (median and p99 of 50 requests).
 * Target: the incremental batch costs in proportion to the batch, not to the organization.
 */
import type { GitBookAPI as GitBookAPI146 } from 'gitbook-api-0146';
import { generate } from '../../test/fixtures/conversations/generate.js';
import { apiClient146 } from '../../test/helpers/client.js';
import { createOrg, createUser, type TestUser } from '../../test/helpers/factories.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { median } from '../lib.js';

const TOTAL = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const log = (line: string) => process.stdout.write(`${line}\n`);
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;
const ORDERS = [
  'updatedAt',
  'issues',
  'conversations',
  'tasksTotal',
  'tasksBacklog',
  'tasksStarted',
] as const;

/** About `total` labelled conversations (8 topics, 6 languages, noise) with ids under `prefix`. */
function conversations(total: number, seed: number, prefix: string) {
  const unit = Math.max(1, Math.round(total / 8 / 1.28));
  return generate({
    seed,
    idPrefix: prefix,
    perTopic: {
      en: unit,
      fr: Math.ceil(unit * 0.1),
      de: Math.ceil(unit * 0.08),
      es: Math.ceil(unit * 0.08),
      cjk: Math.ceil(unit * 0.02),
    },
    noise: Math.ceil(total * 0.05),
  }).map((c) => c.input);
}

async function analysisMs(server: TestServer): Promise<number> {
  const started = performance.now();
  await server.app.quire.services.jobs.runDue();
  return performance.now() - started;
}

async function measure(server: TestServer, admin: TestUser, total: number, seed: number) {
  const orgId = await createOrg(admin, `Support ${total}`);
  const api: GitBookAPI146 = apiClient146(server.url, admin.token);
  const all = conversations(total, seed, `s${seed}`);
  const started = performance.now();
  for (let i = 0; i < all.length; i += 100) await api.orgs.ingestConversation(orgId, all.slice(i, i + 100));
  const ingestMs = performance.now() - started;
  const firstMs = await analysisMs(server);
  const more = conversations(100 * 1.1, seed + 100, `m${seed}`).slice(0, 100);
  await api.orgs.ingestConversation(orgId, more);
  const incrementalMs = await analysisMs(server);
  const clusters = (await api.orgs.listConversationsIssuesClusters(orgId, { limit: 1000 })).data.items.length;
  const lists: Record<string, { median: number; p99: number }> = {};
  for (const orderBy of ORDERS) {
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await api.orgs.listConversationsIssuesClusters(orgId, { orderBy, limit: 100 });
      times.push(performance.now() - t);
    }
    lists[orderBy] = { median: median(times), p99: p99(times) };
  }
  return { conversations: all.length, ingestMs, firstMs, incrementalMs, clusters, lists };
}

async function main() {
  const server = await startTestServer({ env: { QUIRE_RATE_LIMIT: '0', QUIRE_BODY_LIMIT: '52428800' } });
  try {
    const admin = await createUser(server);
    log(`Organization of about ${TOTAL / 10} conversations…`);
    const small = await measure(server, admin, TOTAL / 10, 11);
    log(`Organization of about ${TOTAL} conversations…`);
    const large = await measure(server, admin, TOTAL, 12);
    log('');
    for (const r of [large, small]) {
      log(
        `${r.conversations} conversations: ingest ${(r.ingestMs / 1000).toFixed(1)} s (${((r.conversations / r.ingestMs) * 1000).toFixed(0)}/s), first analysis ${(r.firstMs / 1000).toFixed(2)} s -> ${r.clusters} clusters, incremental batch of 100 ${r.incrementalMs.toFixed(0)} ms`,
      );
      log(
        `  cluster lists (median / p99 ms): ${ORDERS.map((o) => `${o} ${r.lists[o]!.median.toFixed(1)}/${r.lists[o]!.p99.toFixed(1)}`).join(', ')}`,
      );
    }
    log('');
    log(
      `incremental batch of 100, ${large.conversations} / ${small.conversations} conversations: ${(large.incrementalMs / small.incrementalMs).toFixed(2)} (the organization is ${(large.conversations / small.conversations).toFixed(1)}x larger)`,
    );
  } finally {
    await server.close();
  }
}

await main();
