/**
 * bench/git: generated GitBook-format repositories (bench/git/repo.ts) served by a real
 * smart-HTTP git server on loopback (the test helper), Quire in the same process. Two parts,
 * each measured against git itself in the same run:
 *
 * 1. large: ~2,000 pages and 100 assets. `git clone` (baseline), a git import into a fresh
 *    space (POST git/import + the job to completion), an export after editing 10 pages, a
 *    standalone re-import; ratios import/clone and export/clone.
 * 2. re-sync: 301 pages and 1,000 assets of varied sizes (~20 MiB). `git clone` (baseline 1)
 *    against a full import; then, for each of ROUNDS commits changing one page, `git fetch` of
 *    that commit into the clone (baseline 2) against Quire's re-sync (POST git/import + the job,
 *    search indexing included); then a forced re-import of the unchanged commit against a
 *    `git fetch` that finds nothing new. Ratios re-sync/fetch (target: at most 2) and
 *    import/clone, medians over the rounds.
 *
 * Also the peak RSS of this process (server and git server in-process; the `git` child
 * processes are not counted), sampled every 10 ms.
 *
 *   npm run bench:git                             # SQLite, both parts
 *   BENCH_GIT=resync npm run bench:git            # one part (large | resync)
 *   DATABASE_URL=postgres://... npm run bench:git  # PostgreSQL
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import type { Actor } from '../../src/auth/actor.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newId } from '../../src/ids.js';
import { startGitServer } from '../../test/helpers/git-server.js';
import { freePort, median } from '../lib.js';
import { depthOf, generate, page } from './repo.js';

const PARTS = (process.env.BENCH_GIT ?? 'large,resync').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const log = (line: string) => process.stdout.write(`${line}\n`);

let peakRss = 0;
const sample = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
const sampler = setInterval(sample, 10);

const dir = mkdtempSync(path.join(tmpdir(), 'quire-bench-git-'));
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
  QUIRE_OUTBOUND_ALLOW: '127.0.0.1',
});
const app = await buildApp({ config, database, logger: false, jobs: false });
const { services } = app.quire;
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}/v1`;
const git = await startGitServer();

const owner = await services.users.create({ email: 'owner@bench.test', displayName: 'Owner' });
const token = (await services.tokens.create(owner.id, 'bench')).token;
const actor: Actor = { userId: owner.id, tokenId: 'bench', email: owner.email };
const org = await services.orgs.create(owner.id, { title: 'Bench org' });
log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite (file)'}`);

async function call(method: string, route: string, payload?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route} -> ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
};
/** git as a baseline; asynchronous, as the git server answering it runs in this process. */
async function timedGit(args: string[], cwd?: string): Promise<number> {
  const start = performance.now();
  await promisify(execFile)('git', args, { env: GIT_ENV, ...(cwd ? { cwd } : {}) });
  return performance.now() - start;
}

async function runJobs(): Promise<number> {
  const start = performance.now();
  await services.jobs.runDue();
  return performance.now() - start;
}

async function operation(spaceId: string): Promise<{ state: string; error?: string; warnings?: string[] }> {
  const info = (await call('GET', `/spaces/${spaceId}/git/info`)) as {
    operation: { state: string; error?: string; warnings?: string[] };
  };
  return info.operation;
}

/** POST git/import and the jobs it queues, to completion; answers the milliseconds. */
async function importInto(
  spaceId: string,
  repo: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const start = performance.now();
  await call('POST', `/spaces/${spaceId}/git/import`, {
    url: git.repoUrl(repo),
    ref: 'refs/heads/main',
    ...extra,
  });
  await runJobs();
  const ms = performance.now() - start;
  const state = await operation(spaceId);
  if (state.state !== 'success') throw new Error(`import failed: ${state.error}`);
  return ms;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const msText = (ms: number) => `${ms.toFixed(0)} ms`;
const results: string[] = [];

// --- Part 1: a large repository --------------------------------------------------------------

async function large(): Promise<void> {
  const started = performance.now();
  const shape = { sections: 20, topics: 4, leaves: 24, assets: 100, assetSizes: [8 * 1024] };
  const { files, pagePaths } = generate(shape);
  git.createRepo('bench');
  git.commit('bench', 'main', files, 'Generated documentation');
  const repoBytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f), 0);
  log(
    `[large] repository: ${pagePaths.length} pages, ${shape.assets} assets, ${(repoBytes / 1024 / 1024).toFixed(1)} MiB of files (generated in ${s(performance.now() - started)})`,
  );

  const cloneDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-clone-'));
  const cloneMs = await timedGit(['clone', '-q', git.repoUrl('bench'), path.join(cloneDir, 'bench')]);
  rmSync(cloneDir, { recursive: true, force: true });
  log(`[large] git clone: ${s(cloneMs)}`);

  const space = await services.spaces.create(actor, org.row.id, { title: 'Bench git' });
  const spaceId = space.row.id;
  const importMs = await importInto(spaceId, 'bench');
  const list = (await call('GET', `/spaces/${spaceId}/content/pages`)) as {
    pages: Array<{ id: string; pages?: unknown[] }>;
  };
  const ids: string[] = [];
  const walk = (items: Array<{ id: string; type?: string; pages?: unknown[] }>) => {
    for (const item of items) {
      if (item.type === 'document') ids.push(item.id);
      walk((item.pages ?? []) as typeof items);
    }
  };
  walk(list.pages);
  log(`[large] imported: ${ids.length} document pages in ${s(importMs)}`);

  const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Ten edits' });
  const touched = Array.from({ length: 10 }, (_, i) => ids[(i * 197 + 5) % ids.length]!);
  await services.contentWrites.apply(
    actor,
    spaceId,
    cr.row.id,
    touched.map((pageId, i) => ({
      operation: 'update_page' as const,
      page: pageId,
      document: { markdown: `Edited for the benchmark (${i}).\n\nA new paragraph.\n` },
    })),
  );
  await services.merges.merge(actor, spaceId, cr.row.id);
  const exportStart = performance.now();
  await call('POST', `/spaces/${spaceId}/git/export`, {
    url: git.repoUrl('bench'),
    ref: 'refs/heads/main',
    commitMessage: 'Ten edits from Quire',
  });
  await runJobs();
  const exportMs = performance.now() - exportStart;
  const exported = await operation(spaceId);
  if (exported.state !== 'success') throw new Error(`export failed: ${exported.error}`);
  const changed = git.git('bench', ['diff', '--name-only', 'main~1', 'main']).trim().split('\n');
  log(
    `[large] exported: commit changes ${changed.length} files (${changed.filter((f) => f.endsWith('.md')).length} markdown) in ${s(exportMs)}`,
  );

  const reimportMs = await importInto(spaceId, 'bench', { standalone: true });
  log(`[large] standalone re-import: ${s(reimportMs)}`);

  results.push(
    `large (${pagePaths.length} pages, ${shape.assets} assets)`,
    `  git clone (baseline):             ${s(cloneMs)}`,
    `  import (POST + job):              ${s(importMs)}  ratio import/clone ${(importMs / cloneMs).toFixed(1)}`,
    `  export after 10 edits:            ${s(exportMs)}  ratio export/clone ${(exportMs / cloneMs).toFixed(1)}`,
    `  re-import, standalone (same ids): ${s(reimportMs)}  ratio ${(reimportMs / cloneMs).toFixed(1)}`,
  );
}

// --- Part 2: re-sync of a one-page change ----------------------------------------------------

async function resync(): Promise<void> {
  const started = performance.now();
  const shape = {
    sections: 12,
    topics: 3,
    leaves: 7,
    assets: 1000,
    assetSizes: [600, 2_000, 4_500, 9_000, 15_000, 24_000, 40_000, 70_000],
  };
  const { files, pagePaths } = generate(shape);
  git.createRepo('resync');
  git.commit('resync', 'main', files, 'Generated documentation');
  const repoBytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f), 0);
  log(
    `[resync] repository: ${pagePaths.length} pages, ${shape.assets} assets, ${(repoBytes / 1024 / 1024).toFixed(1)} MiB of files (generated in ${s(performance.now() - started)})`,
  );

  const cloneDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-clone-'));
  const clone = path.join(cloneDir, 'resync');
  const cloneMs = await timedGit(['clone', '-q', git.repoUrl('resync'), clone]);
  log(`[resync] git clone (baseline 1): ${s(cloneMs)}`);

  const space = await services.spaces.create(actor, org.row.id, { title: 'Bench re-sync' });
  const spaceId = space.row.id;
  const importMs = await importInto(spaceId, 'resync');
  log(`[resync] import: ${s(importMs)}`);

  const fetches: number[] = [];
  const resyncs: number[] = [];
  const requests: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const pagePath = pagePaths[(round * 37 + 11) % pagePaths.length]!;
    const title = `Changed page ${round}`;
    const commit = git.commit(
      'resync',
      'main',
      { [pagePath]: page(title, round, depthOf(pagePath), shape.assets, round + 2) },
      `Edit ${pagePath}`,
    );
    // Alternate which goes first, so neither always meets a warmer server.
    const measureFetch = async () => {
      fetches.push(await timedGit(['fetch', '-q', 'origin'], clone));
    };
    const measureResync = async () => {
      const before = git.requests.length;
      resyncs.push(await importInto(spaceId, 'resync'));
      requests.push(git.requests.length - before);
    };
    if (round % 2 === 0) {
      await measureFetch();
      await measureResync();
    } else {
      await measureResync();
      await measureFetch();
    }
    const revision = (await call('GET', `/spaces/${spaceId}/content`)) as { git?: { oid?: string } };
    if (revision.git?.oid !== commit) throw new Error(`the re-sync did not reach ${commit}`);
    log(
      `[resync] round ${round + 1}/${ROUNDS}: git fetch ${msText(fetches.at(-1)!)}, re-sync ${msText(resyncs.at(-1)!)} (${requests.at(-1)} requests to the git server)`,
    );
  }

  const noopFetches: number[] = [];
  const unchanged: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    noopFetches.push(await timedGit(['fetch', '-q', 'origin'], clone));
    unchanged.push(await importInto(spaceId, 'resync', { force: true }));
  }
  log(
    `[resync] unchanged commit: git fetch ${msText(median(noopFetches))}, forced re-import ${msText(median(unchanged))} (medians)`,
  );
  rmSync(cloneDir, { recursive: true, force: true });

  const fetchMs = median(fetches);
  const resyncMs = median(resyncs);
  results.push(
    `re-sync (${pagePaths.length} pages, ${shape.assets} assets, ${(repoBytes / 1024 / 1024).toFixed(1)} MiB; medians of ${ROUNDS})`,
    `  git clone (baseline 1):           ${s(cloneMs)}`,
    `  import (POST + jobs):             ${s(importMs)}  ratio import/clone ${(importMs / cloneMs).toFixed(2)}`,
    `  git fetch of a one-page commit (baseline 2): ${msText(fetchMs)}`,
    `  re-sync of it (POST + jobs):      ${msText(resyncMs)}  ratio re-sync/fetch ${(resyncMs / fetchMs).toFixed(2)} (target <= 2)`,
    `  unchanged commit: git fetch ${msText(median(noopFetches))}, forced re-import ${msText(median(unchanged))}  ratio ${(median(unchanged) / median(noopFetches)).toFixed(2)}`,
  );
}

if (PARTS.includes('large')) await large();
if (PARTS.includes('resync')) await resync();

sample();
clearInterval(sampler);
log('');
for (const line of results) log(line);
log(`peak RSS of the process:            ${(peakRss / 1024 / 1024).toFixed(0)} MiB (sampled every 10 ms)`);

await app.close();
await git.close();
if (process.env.DATABASE_URL) await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(database.db);
await database.close();
rmSync(dir, { recursive: true, force: true });
