import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/git/cache.js';
import { markdownOf, newChangeRequest, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The git cache (src/git/cache.ts): a bare repository per remote under the data directory,
 * fetched into by every sync, against a real smart-HTTP git server on loopback. What a sync
 * downloads is measured by the bytes the git server sent (its upload-pack answers).
 */

let server: TestServer;
let git: GitServer;
let admin: TestUser;
let orgId: string;
const logs: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' }, logs });
  git = await startGitServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Cache org');
});
afterAll(async () => {
  await server.close();
  await git.close();
});

const page = (title: string, text: string) =>
  `---\ndescription: About ${title}.\n---\n\n# ${title}\n\n${text}\n`;

/** A repository of 20 pages and 30 assets of 16 KiB (random bytes: they do not compress). */
function repoFiles(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  files['README.md'] = page('Home', 'Welcome.');
  for (let i = 1; i <= 20; i++) {
    summary.push(`* [Page ${i}](page-${i}.md)`);
    files[`page-${i}.md`] = page(`Page ${i}`, `Text of page ${i}.\n\n![](.gitbook/assets/image-${i}.png)`);
  }
  files['SUMMARY.md'] = `${summary.join('\n')}\n`;
  for (let i = 1; i <= 30; i++) files[`.gitbook/assets/image-${i}.png`] = randomBytes(16 * 1024);
  return files;
}

async function space(title: string): Promise<string> {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

async function info(spaceId: string) {
  return (await admin.api.spaces.getSpaceGitInfo(spaceId)).data as {
    operation?: { state: string; error?: string; warnings?: string[] };
  };
}

/** POST git/import and run the job; answers the bytes the git server sent for pack data. */
async function importRepo(
  spaceId: string,
  repo: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const from = git.requests.length;
  await admin.api.spaces.importGitRepository(spaceId, {
    url: git.repoUrl(repo),
    ref: 'refs/heads/main',
    ...extra,
  });
  await server.app.quire.services.jobs.runDue();
  expect((await info(spaceId)).operation).toMatchObject({ state: 'success' });
  return packBytes(from);
}

function packBytes(from: number): number {
  return git.requests
    .slice(from)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/git-upload-pack'))
    .reduce((n, r) => n + r.bytes, 0);
}

const cacheRoot = () => path.join(server.config.dataDir, 'git-cache');
const cacheOf = (repo: string, projectDir = '') =>
  path.join(cacheRoot(), cacheKey(new URL(git.repoUrl(repo, false)), projectDir));

type PageView = { id: string; title: string; pages?: PageView[] };
async function titles(spaceId: string): Promise<string[]> {
  const flat = (list: PageView[]): string[] => list.flatMap((p) => [p.title, ...flat(p.pages ?? [])]);
  return flat((await admin.api.spaces.listPages(spaceId)).data.pages as unknown as PageView[]);
}

async function pageId(spaceId: string, title: string): Promise<string> {
  const list = (await admin.api.spaces.listPages(spaceId)).data.pages as unknown as PageView[];
  return list.find((p) => p.title === title)!.id;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

describe('git cache', () => {
  let s: string;
  let firstBytes: number;

  it('keeps a bare repository per remote; an unchanged commit and a one-page change fetch almost nothing', async () => {
    git.createRepo('cached');
    git.commit('cached', 'main', repoFiles(), 'Initial');
    s = await space('Cached');
    firstBytes = await importRepo(s, 'cached');
    expect(firstBytes).toBeGreaterThan(30 * 16 * 1024);
    const cache = cacheOf('cached');
    expect(existsSync(path.join(cache, 'HEAD'))).toBe(true);
    expect(readFileSync(path.join(cache, 'config'), 'utf8')).toMatch(/bare = true/);
    expect(await titles(s)).toHaveLength(21);
    const revision = (await admin.api.spaces.getSpaceById(s)).data.revision;

    // The same commit again (forced, so it is read and converted): nothing new to download,
    // and the same content gives no new revision.
    const again = await importRepo(s, 'cached', { force: true });
    expect(again).toBeLessThan(1024);
    expect((await admin.api.spaces.getSpaceById(s)).data.revision).toBe(revision);

    // One page and one asset change: only they travel.
    const newImage = randomBytes(20 * 1024);
    git.commit(
      'cached',
      'main',
      {
        'page-7.md': page('Page 7', 'Changed on the remote.'),
        '.gitbook/assets/image-3.png': newImage,
      },
      'Edit page 7 and image 3',
    );
    const change = await importRepo(s, 'cached');
    expect(change).toBeLessThan(firstBytes / 10);
    expect(change).toBeLessThan(newImage.length + 8 * 1024);
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 7'))).toContain('Changed on the remote.');
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 8'))).toContain('Text of page 8.');
    const files = (await admin.api.spaces.listFiles(s)).data.items;
    expect(files).toHaveLength(30);
    expect(files.find((f) => f.name === 'image-3.png')?.size).toBe(newImage.length);
    expect(files.find((f) => f.name === 'image-4.png')?.size).toBe(16 * 1024);
    expect(readdirSync(cacheRoot()).filter((n) => /^[0-9a-f]{64}$/.test(n))).toHaveLength(1);
  });

  it('exports through the cache: the push lands on the branch, the next import fetches little', async () => {
    const crId = await newChangeRequest(admin.api, s, 'Edit home');
    await write(admin.api, s, crId, [
      {
        operation: 'update_page',
        page: await pageId(s, 'Home'),
        document: { markdown: 'Welcome from Quire.\n' },
      },
    ]);
    expect((await admin.api.spaces.mergeChangeRequest(s, crId)).data.result).toBe('merge');
    await admin.api.spaces.exportToGitRepository(s, {
      url: git.repoUrl('cached'),
      ref: 'refs/heads/main',
      commitMessage: 'From Quire',
    });
    await server.app.quire.services.jobs.runDue();
    expect((await info(s)).operation).toMatchObject({ state: 'success' });
    expect(git.git('cached', ['log', '-1', '--format=%s', 'main']).trim()).toBe('From Quire');
    expect(git.git('cached', ['show', 'main:README.md'])).toContain('Welcome from Quire.');
    // The export worked in a temporary checkout; only the cache stays.
    expect(readdirSync(path.join(server.config.dataDir, 'git-work'))).toEqual([]);
    // What the export pushed is fetched into the cache by the next sync: a commit's worth.
    expect(await importRepo(s, 'cached')).toBeLessThan(4 * 1024);
    expect((await info(s)).operation?.warnings?.[0]).toMatch(/nothing to import/);
  });

  it('imports the same repository into two spaces at once', async () => {
    git.createRepo('twice');
    git.commit('twice', 'main', repoFiles(), 'Initial');
    const a = await space('Twice A');
    const b = await space('Twice B');
    for (const target of [a, b])
      await admin.api.spaces.importGitRepository(target, {
        url: git.repoUrl('twice'),
        ref: 'refs/heads/main',
      });
    const { jobs } = server.app.quire.services;
    await Promise.all([jobs.runDue(), jobs.runDue()]);
    for (const target of [a, b]) {
      expect((await info(target)).operation).toMatchObject({ state: 'success' });
      expect(await titles(target)).toHaveLength(21);
    }
    expect(existsSync(`${cacheOf('twice')}.lock`)).toBe(false);
  });

  it('makes a damaged cache again (logged) and imports all the same', async () => {
    const cache = cacheOf('cached');
    // Every object file damaged (the refs left as they are): nothing can be read.
    for (const file of filesUnder(path.join(cache, 'objects')))
      if (!file.includes(`${path.sep}info${path.sep}`)) writeFileSync(file, randomBytes(statSync(file).size));
    logs.length = 0;
    await importRepo(s, 'cached', { force: true });
    expect(logs.join('\n')).toMatch(/git cache unusable; deleted and made again/);
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 7'))).toContain('Changed on the remote.');
    expect(existsSync(path.join(cache, 'HEAD'))).toBe(true);

    // Every object gone, the refs left pointing at them: git fetches what it lacks.
    for (const file of filesUnder(path.join(cache, 'objects')))
      if (!file.includes(`${path.sep}info${path.sep}`)) rmSync(file);
    git.commit('cached', 'main', { 'page-9.md': page('Page 9', 'Changed again.') }, 'Edit page 9');
    await importRepo(s, 'cached');
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 9'))).toContain('Changed again.');
  });

  it('removes what an interrupted git left (its lock files) without making the cache again', async () => {
    const cache = cacheOf('cached');
    writeFileSync(path.join(cache, 'refs', 'quire', 'heads', 'main.lock'), '');
    writeFileSync(path.join(cache, 'packed-refs.lock'), '');
    git.commit('cached', 'main', { 'page-10.md': page('Page 10', 'After a crash.') }, 'Edit page 10');
    logs.length = 0;
    expect(await importRepo(s, 'cached')).toBeLessThan(firstBytes / 10);
    expect(logs.join('\n')).not.toMatch(/git cache unusable/);
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 10'))).toContain('After a crash.');
  });

  it('breaks the lock of a sync whose process is gone', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      `${cacheOf('cached')}.lock`,
      JSON.stringify({ host: hostname(), pid: dead, token: 'another-process:1' }),
    );
    git.commit('cached', 'main', { 'page-11.md': page('Page 11', 'Unlocked.') }, 'Edit page 11');
    await importRepo(s, 'cached');
    expect(await markdownOf(admin.api, s, await pageId(s, 'Page 11'))).toContain('Unlocked.');
    expect(existsSync(`${cacheOf('cached')}.lock`)).toBe(false);
  });

  it('never writes the credentials into the cache', () => {
    const secrets = [
      git.password,
      encodeURIComponent(git.password),
      Buffer.from(`${git.user}:${git.password}`).toString('base64'),
    ];
    const files = filesUnder(cacheRoot());
    expect(files.some((f) => f.endsWith(`${path.sep}config`))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file).toString('latin1');
      for (const secret of secrets) expect(text, file).not.toContain(secret);
    }
    const config = readFileSync(path.join(cacheOf('cached'), 'config'), 'utf8');
    expect(config).not.toMatch(/url|extraheader|remote/i);
  });

  it('sweeps caches unused for two weeks, and no other', () => {
    const { cache } = server.app.quire.services.git;
    const old = cacheOf('twice');
    const past = new Date(Date.now() - 20 * 24 * 60 * 60_000);
    for (const target of [old, path.join(old, 'quire-used')]) utimesSync(target, past, past);
    expect(cache.sweep()).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(path.join(cacheOf('cached'), 'HEAD'))).toBe(true);
  });
});
