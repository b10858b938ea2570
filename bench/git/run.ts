/**
 * bench/git: a generated GitBook-format repository of ~2,000 pages (SUMMARY.md with groups and
 * nested lists, a README.md per folder, 1–2 KB pages with blocks, 100 image assets in
 * .gitbook/assets), served by a real smart-HTTP git server on loopback (the test helper).
 * Measures, in the same run: `git clone` of it (baseline), a git import into a fresh space
 * (POST git/import + the job to completion) and an export after editing 10 pages (POST
 * git/export + the job), the ratios import/clone and export/clone, and the peak RSS of this
 * process (server and git server in-process; the `git` child processes are not counted),
 * sampled every 10 ms.
 *
 *   npm run bench:git                             # SQLite
 *   DATABASE_URL=postgres://... npm run bench:git  # PostgreSQL
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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
import { freePort } from '../lib.js';

const SECTIONS = 20;
const TOPICS = 4;
const LEAVES = 24;
const ASSETS = 100;
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

// --- The repository ---------------------------------------------------------------------------

const PNG_HEAD = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const asset = (i: number) => `image-${String(i).padStart(3, '0')}.png`;

function page(title: string, n: number, depth: number): string {
  const up = '../'.repeat(depth);
  const lines = [
    '---',
    `description: How ${title.toLowerCase()} works and what to check first.`,
    '---',
    '',
    `# ${title}`,
    '',
    `This page explains ${title.toLowerCase()} in detail: when it applies, how it is configured for production use, and what to look at first when it does not behave as expected.`,
    '',
    '{% hint style="info" %}',
    `Page ${n} is generated for the benchmark; its blocks follow GitBook's format.`,
    '{% endhint %}',
    '',
    '## Configuration',
    '',
    '* Set the **endpoint** and the _timeout_ before the first run.',
    '* Keep the token out of the repository; use an environment variable.',
    '* Restart the service after changing the configuration.',
    '',
    '```bash',
    `quire configure --section ${n} --timeout 30`,
    '```',
    '',
    '| Option | Default | Meaning |',
    '| --- | --- | --- |',
    '| `timeout` | 30 | Seconds before a request is abandoned. |',
    '| `retries` | 3 | Attempts before giving up. |',
    '',
  ];
  if (n % 20 === 0) lines.push(`![Diagram ${n}](${up}.gitbook/assets/${asset(n % ASSETS)})`, '');
  lines.push(
    '## Troubleshooting',
    '',
    `When ${title.toLowerCase()} fails, read the log first, then the configuration. See the [overview](${up}README.md) for the whole picture.`,
    '',
  );
  return lines.join('\n');
}

function generate(): { files: Record<string, string | Buffer>; pages: number } {
  const files: Record<string, string | Buffer> = {};
  const summary = ['# Table of contents', '', '* [Overview](README.md)'];
  files['README.md'] = page('Overview', 0, 0);
  let pages = 1;
  for (let s = 0; s < SECTIONS; s++) {
    if (s % 5 === 0) summary.push('', `## Part ${s / 5 + 1}`, '');
    const section = `section-${s + 1}`;
    summary.push(`* [Section ${s + 1}](${section}/README.md)`);
    files[`${section}/README.md`] = page(`Section ${s + 1}`, pages++, 1);
    for (let t = 0; t < TOPICS; t++) {
      const topic = `${section}/topic-${t + 1}`;
      summary.push(`  * [Topic ${s + 1}.${t + 1}](${topic}/README.md)`);
      files[`${topic}/README.md`] = page(`Topic ${s + 1}.${t + 1}`, pages++, 2);
      for (let l = 0; l < LEAVES; l++) {
        const leaf = `${topic}/page-${l + 1}.md`;
        summary.push(`    * [Page ${s + 1}.${t + 1}.${l + 1}](${leaf})`);
        files[leaf] = page(`Page ${s + 1}.${t + 1}.${l + 1}`, pages++, 2);
      }
    }
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  for (let i = 0; i < ASSETS; i++)
    files[`.gitbook/assets/${asset(i)}`] = Buffer.concat([PNG_HEAD, randomBytes(8 * 1024)]);
  return { files, pages };
}

const started = performance.now();
const { files, pages } = generate();
git.createRepo('bench');
git.commit('bench', 'main', files, 'Generated documentation');
const repoBytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f), 0);
log(
  `repository: ${pages} pages, ${ASSETS} assets, ${(repoBytes / 1024 / 1024).toFixed(1)} MiB of files (generated in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
log(`database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite (file)'}`);

// --- Baseline: git clone ---------------------------------------------------------------------

const cloneDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-clone-'));
const cloneStart = performance.now();
// Asynchronous: the git server answering it runs in this process.
await promisify(execFile)('git', ['clone', '-q', git.repoUrl('bench'), path.join(cloneDir, 'bench')], {
  env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
});
const cloneMs = performance.now() - cloneStart;
rmSync(cloneDir, { recursive: true, force: true });

// --- Import ----------------------------------------------------------------------------------

async function runJob(): Promise<number> {
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

const space = await services.spaces.create(actor, org.row.id, { title: 'Bench git' });
const spaceId = space.row.id;
const importStart = performance.now();
await call('POST', `/spaces/${spaceId}/git/import`, { url: git.repoUrl('bench'), ref: 'refs/heads/main' });
const importJobMs = await runJob();
const importMs = performance.now() - importStart;
const imported = await operation(spaceId);
if (imported.state !== 'success') throw new Error(`import failed: ${imported.error}`);
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
log(
  `imported: ${ids.length} document pages${imported.warnings ? `, ${imported.warnings.length} warnings` : ''}`,
);

// --- Export after editing 10 pages -----------------------------------------------------------

const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Ten edits' });
const touched = Array.from({ length: 10 }, (_, i) => ids[(i * 197 + 5) % ids.length]!);
await services.contentWrites.apply(
  actor,
  spaceId,
  cr.row.id,
  touched.map((page, i) => ({
    operation: 'update_page' as const,
    page,
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
const exportJobMs = await runJob();
const exportMs = performance.now() - exportStart;
const exported = await operation(spaceId);
if (exported.state !== 'success') throw new Error(`export failed: ${exported.error}`);
const changed = git.git('bench', ['diff', '--name-only', 'main~1', 'main']).trim().split('\n');
log(
  `exported: commit changes ${changed.length} files (${changed.filter((f) => f.endsWith('.md')).length} markdown)`,
);

// --- Re-import of an unchanged branch (the no-op path) and a standalone import ---------------

const noopStart = performance.now();
await call('POST', `/spaces/${spaceId}/git/import`, {
  url: git.repoUrl('bench'),
  ref: 'refs/heads/main',
  standalone: true,
});
await runJob();
const reimportMs = performance.now() - noopStart;

sample();
clearInterval(sampler);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
log('');
log(`git clone (baseline):            ${s(cloneMs)}`);
log(
  `import (POST + job):             ${s(importMs)}  (job ${s(importJobMs)})  ratio import/clone ${(importMs / cloneMs).toFixed(1)}`,
);
log(
  `export after 10 edits:           ${s(exportMs)}  (job ${s(exportJobMs)})  ratio export/clone ${(exportMs / cloneMs).toFixed(1)}`,
);
log(`re-import, standalone (same ids): ${s(reimportMs)}  ratio ${(reimportMs / cloneMs).toFixed(1)}`);
log(`peak RSS of the process:         ${(peakRss / 1024 / 1024).toFixed(0)} MiB (sampled every 10 ms)`);

await app.close();
await git.close();
if (process.env.DATABASE_URL) await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(database.db);
await database.close();
rmSync(dir, { recursive: true, force: true });
