/**
 * bench/content: spaces of 50 and of 5,000 pages; a change request touching 10 pages; the time
 * to write it (one POST of 10 changes) and to merge it, in each. The ratio large/small shows
 * whether the cost follows what changed (target: at most 2). Also the storage each revision
 * adds. Runs a real server in-process and calls it over HTTP.
 *
 *   npm run bench:content                             # SQLite
 *   DATABASE_URL=postgres://... npm run bench:content  # PostgreSQL
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { Actor } from '../../src/auth/actor.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { freePort, median } from '../lib.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const log = (line: string) => process.stdout.write(`${line}\n`);

const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-content-'));
const schema = `bench_${newId(8).toLowerCase()}`;
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  sqliteFile: path.join(dir, 'quire.db'),
  pgSchema: schema,
});
await migrateToLatest(database);
const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  LOG_LEVEL: 'warn',
  QUIRE_RATE_LIMIT: '0',
  QUIRE_DATA_DIR: dir,
});
const app = await buildApp({ config, database, logger: false, jobs: false });
const { services } = app.quire;
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}/v1`;

const owner = await services.users.create({ email: 'owner@bench.test', displayName: 'Owner' });
const token = (await services.tokens.create(owner.id, 'bench')).token;
const actor: Actor = { userId: owner.id, tokenId: 'bench', email: owner.email };
const org = await services.orgs.create(owner.id, { title: 'Bench org' });

const paragraph = (i: number) =>
  `Section ${i} explains how the feature behaves when it is configured for production use, and what to check first when it does not.`;
const body = (title: string, version = 1) =>
  [`# ${title}`, '', ...Array.from({ length: 12 }, (_, i) => paragraph(i)), '', `Version ${version}.`].join(
    '\n\n',
  );

async function call(method: string, route: string, payload?: unknown) {
  const started = performance.now();
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${route} -> ${res.status}: ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, json };
}

async function objectBytes(): Promise<number> {
  const row = await sql<{ n: number | string | null }>`select sum(length(data)) as n from objects`.execute(
    database.db,
  );
  return Number(row.rows[0]?.n ?? 0);
}

/** A space with `pages` pages (nested three levels, like real docs), merged into main. */
async function buildSpace(pages: number): Promise<{ spaceId: string; pageIds: string[] }> {
  const space = await services.spaces.create(actor, org.row.id, { title: `${pages} pages` });
  const spaceId = space.row.id;
  const pageIds: string[] = [];
  for (let start = 0; start < pages; start += 50) {
    const cr = await services.changeRequests.create(actor, spaceId, { subject: 'seed' });
    const changes = Array.from({ length: Math.min(50, pages - start) }, (_, i) => {
      const n = start + i;
      return {
        operation: 'insert_page' as const,
        title: `Page ${n}`,
        ref: `p${n}`,
        ...(n % 10 !== 0 && pageIds.length > 0
          ? { into: pageIds[Math.floor(n / 10) * 10] ?? undefined }
          : {}),
        document: { markdown: body(`Page ${n}`) },
      };
    });
    const outcome = await services.contentWrites.apply(actor, spaceId, cr.row.id, changes);
    for (const change of outcome.changes) if (change.object === 'created_page') pageIds.push(change.page);
    await services.merges.merge(actor, spaceId, cr.row.id);
  }
  return { spaceId, pageIds };
}

interface Figures {
  write: number;
  mergeFastForward: number;
  mergeThreeWay: number;
  growth: number;
}

async function measure(pages: number): Promise<Figures> {
  const seedStart = performance.now();
  const { spaceId, pageIds } = await buildSpace(pages);
  log(`  ${pages} pages seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  const writes: number[] = [];
  const fastForwards: number[] = [];
  const threeWays: number[] = [];
  const growth: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Ten pages spread over the space, different each round.
    const touched = Array.from(
      { length: 10 },
      (_, i) => pageIds[(round * 37 + i * Math.floor(pageIds.length / 10)) % pageIds.length]!,
    );
    const changes = touched.map((page) => ({
      operation: 'update_page',
      page,
      document: { markdown: body(`Edited ${page}`, round + 2) },
    }));

    const cr = (await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `round ${round}` })).json
      .id as string;
    const before = await objectBytes();
    writes.push((await call('POST', `/spaces/${spaceId}/change-requests/${cr}/content`, { changes })).ms);
    growth.push((await objectBytes()) - before);
    fastForwards.push((await call('POST', `/spaces/${spaceId}/change-requests/${cr}/merge`)).ms);

    // The same, but main moves in between, so the merge is a real three-way merge.
    const other = touched.map((p) => pageIds[(pageIds.indexOf(p) + 1) % pageIds.length]!);
    const behind = (await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `behind ${round}` }))
      .json.id as string;
    await call('POST', `/spaces/${spaceId}/change-requests/${behind}/content`, {
      changes: touched.map((page) => ({
        operation: 'update_page',
        page,
        document: { markdown: body(`Again ${page}`, round + 100) },
      })),
    });
    const ahead = (await call('POST', `/spaces/${spaceId}/change-requests`, { subject: `ahead ${round}` }))
      .json.id as string;
    await call('POST', `/spaces/${spaceId}/change-requests/${ahead}/content`, {
      changes: other.map((page) => ({ operation: 'update_page', page, title: `Renamed ${round}` })),
    });
    await call('POST', `/spaces/${spaceId}/change-requests/${ahead}/merge`);
    const merged = await call('POST', `/spaces/${spaceId}/change-requests/${behind}/merge`);
    if (merged.json.result !== 'merge')
      throw new Error(`three-way merge gave ${JSON.stringify(merged.json)}`);
    threeWays.push(merged.ms);
  }
  return {
    write: median(writes),
    mergeFastForward: median(fastForwards),
    mergeThreeWay: median(threeWays),
    growth: median(growth),
  };
}

log(`content bench on ${database.dialect}: a change request touching 10 pages, ${ROUNDS} rounds each`);
// A first space warms the JIT and the caches, so the small space is not measured cold.
await measure(50);
const small = await measure(50);
const large = await measure(5000);
const row = (label: string, a: number, b: number, unit = 'ms') =>
  log(
    `${label.padEnd(28)} 50 pages ${a.toFixed(1).padStart(8)} ${unit}   5,000 pages ${b.toFixed(1).padStart(8)} ${unit}   ratio ${(b / a).toFixed(2)}`,
  );
row('write 10 pages (1 request)', small.write, large.write);
row('merge (main unchanged)', small.mergeFastForward, large.mergeFastForward);
row('merge (main moved)', small.mergeThreeWay, large.mergeThreeWay);
row('storage per revision', small.growth / 1024, large.growth / 1024, 'KiB');

await app.close();
if (process.env.DATABASE_URL)
  await sql
    .raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    .execute(database.db)
    .catch(() => {});
await database.close();
rmSync(dir, { recursive: true, force: true });
