import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_HOOK_MS,
  type CliServer,
  type IsolatedStore,
  isolatedStore,
  startCliServer,
} from '../helpers/cli.js';
import { apiClient } from '../helpers/client.js';
import { killedServerHolder } from '../helpers/dead-holder.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Background work whose server died: the next server takes it back at once, never runs it past
 * its attempts, tells the user what happened, and lets a retry go ahead instead of queueing it
 * behind the dead run. The last test kills a real server process (SIGKILL) in the middle of a git
 * import and starts it again on the same data directory.
 */

let git: GitServer;

const REPO = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'README.md': '# Welcome\n\nHello from git.\n',
  'guide.md': '# Guide\n\nHow to do it.\n',
};

beforeAll(async () => {
  git = await startGitServer();
  git.createRepo('docs');
  git.commit('docs', 'main', REPO, 'Initial docs');
});
afterAll(async () => {
  await git?.close();
});

const later = (ms: number) => new Date(Date.now() + ms).toISOString();
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type GitInfo = { operation?: { state: string; direction: string; error?: string } };

describe('a server that died in the middle of a job (same process, simulated death)', () => {
  let server: TestServer;
  let admin: TestUser;
  let orgId: string;
  let files: http.Server;
  let filesUrl: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
    admin = await createUser(server);
    orgId = await createOrg(admin, 'Crash org');
    files = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' });
      response.end(`# ${path.basename(request.url ?? 'x', '.md')}\n`);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => files?.close(resolve));
  });

  const runJobs = () => server.app.quire.services.jobs.runDue();
  const space = async (title: string) => (await admin.api.orgs.createSpace(orgId, { title })).data.id;
  const info = async (spaceId: string) => (await admin.api.spaces.getSpaceGitInfo(spaceId)).data as GitInfo;
  const titles = async (spaceId: string) =>
    ((await admin.api.spaces.listPages(spaceId)).data.pages as Array<{ title: string }>).map((p) => p.title);
  const importRepo = (spaceId: string) =>
    admin.api.spaces.importGitRepository(spaceId, { url: git.repoUrl('docs'), ref: 'refs/heads/main' });

  /** The git import just requested, as its server left it when it died mid-run (a 10-minute lease). */
  async function dieDuringImport(spaceId: string): Promise<string> {
    const { db } = server.database;
    const job = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'git.sync')
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, locked_by: killedServerHolder(), locked_until: later(600_000) })
      .where('id', '=', job.id)
      .execute();
    await db
      .updateTable('git_syncs')
      .set({ lease_job: job.id, lease_until: later(900_000) })
      .where('space_id', '=', spaceId)
      .execute();
    return job.id;
  }

  it('fails the dead git import once, saying so in git/info, and never runs it a second time', async () => {
    const spaceId = await space('Died');
    await importRepo(spaceId);
    const dead = await dieDuringImport(spaceId);
    await runJobs();
    expect((await info(spaceId)).operation).toMatchObject({
      state: 'failure',
      direction: 'import',
      error: 'the server stopped while importing; start the import again',
    });
    expect(await titles(spaceId)).toEqual([]);
    const job = await server.app.quire.services.jobs.get(dead);
    expect(job).toMatchObject({ status: 'failed', attempts: 1, max_attempts: 1 });
    expect(job?.last_error).toContain('interrupted');
  });

  it('lets a retry of the user take the space over from the dead import instead of queueing behind it', async () => {
    const spaceId = await space('Taken over');
    await importRepo(spaceId);
    const dead = await dieDuringImport(spaceId);
    // Claimed after the retry (a later place in the queue): the retry must not wait for it.
    await server.database.db
      .updateTable('jobs')
      .set({ run_at: later(3_600_000) })
      .where('id', '=', dead)
      .execute();
    await pause(5);
    await importRepo(spaceId);
    await runJobs();
    expect((await info(spaceId)).operation).toMatchObject({ state: 'success', direction: 'import' });
    expect(await titles(spaceId)).toEqual(['Welcome', 'Guide']);
    // The dead run is failed (not run again) without touching what the retry recorded.
    expect(await server.app.quire.services.jobs.get(dead)).toMatchObject({ status: 'failed', attempts: 1 });
    const { lease_job } = await server.database.db
      .selectFrom('git_syncs')
      .select('lease_job')
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    expect(lease_job).toBeNull();
  });

  it('fails a file import whose server died, and runs the next import of the space at once', async () => {
    const spaceId = await space('Files');
    const start = async (name: string) =>
      (
        await admin.api.org.startImportRun(orgId, {
          source: { type: 'file', files: [`${filesUrl}/${name}.md`] },
          target: { space: spaceId },
        })
      ).data;
    const first = await start('First');
    const { db } = server.database;
    // Its server claimed it, set it in progress, and died.
    await db.updateTable('import_runs').set({ status: 'in-progress' }).where('id', '=', first.id).execute();
    await db
      .updateTable('jobs')
      .set({ status: 'running', attempts: 1, locked_by: killedServerHolder(), locked_until: later(600_000) })
      .where('kind', '=', 'imports.run')
      .where('status', '=', 'queued')
      .execute();
    const second = await start('Second');
    await runJobs();
    const run = async (id: string) => (await admin.api.org.getImportRun(orgId, id)).data;
    expect(await run(first.id)).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('the server stopped while it ran'),
    });
    expect((await run(second.id)).status).toBe('completed');
    expect(await titles(spaceId)).toEqual(['Second']);
  });
});

/**
 * A loopback proxy in front of the git server that, while `stalled`, holds git's upload-pack
 * requests unanswered: an import is then in the middle of its fetch for as long as we like.
 */
async function stallingProxy(target: string) {
  const held: http.IncomingMessage[] = [];
  const state = { stalled: true, held };
  const server = http.createServer((request, response) => {
    if (state.stalled && request.method === 'POST' && request.url?.endsWith('/git-upload-pack')) {
      held.push(request);
      return;
    }
    const upstream = http.request(
      `${target}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    repoUrl: git.repoUrl('docs').replace(new URL(git.url).host, `127.0.0.1:${port}`),
    /** Lets everything through, and cuts the held connections (the killed server's git gives up). */
    release() {
      state.stalled = false;
      for (const request of held.splice(0)) request.socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not so after ${timeoutMs / 1000} s${last ? ` (last error: ${last})` : ''}`);
    await pause(200);
  }
}

describe('a real server killed (SIGKILL) during a git import', () => {
  const TOKEN = 'crash-recovery-admin-token-0123456789abcdef';
  let store: IsolatedStore;
  let proxy: Awaited<ReturnType<typeof stallingProxy>>;
  const started: CliServer[] = [];
  let first: CliServer;

  beforeAll(async () => {
    store = await isolatedStore(null);
    proxy = await stallingProxy(git.url);
    // Started here: a cold start from source can take long on a busy machine.
    first = await start();
  }, CLI_HOOK_MS);
  afterAll(async () => {
    for (const s of started) if (s.process.exitCode === null && s.process.signalCode === null) await s.stop();
    proxy?.release();
    await proxy?.close();
    await store?.cleanup();
  });

  const env = () => ({
    ...store.env,
    DATABASE_URL: '',
    PORT: '0',
    LOG_LEVEL: 'warn',
    QUIRE_ADMIN_TOKEN: TOKEN,
    QUIRE_OUTBOUND_ALLOW: '127.0.0.1',
  });

  async function start(): Promise<CliServer> {
    const server = await startCliServer(env());
    started.push(server);
    return server;
  }

  it('takes the dead import back at once after a restart; the retry imports the pages', async () => {
    let api = apiClient(first.url, TOKEN);
    const orgId = (await api.orgs.listOrganizationsForAuthenticatedUser()).data.items[0]!.id;
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'Killed' })).data.id;
    const request = { url: proxy.repoUrl, ref: 'refs/heads/main' };
    await api.spaces.importGitRepository(spaceId, request);
    await until('the import is fetching (held by the proxy)', 15_000, async () =>
      proxy.state.held.length > 0 ? true : undefined,
    );

    first.process.kill('SIGKILL');
    await new Promise((resolve) => first.process.once('exit', resolve));
    proxy.release();

    const second = await start();
    api = apiClient(second.url, TOKEN);
    const info = async () => (await api.spaces.getSpaceGitInfo(spaceId)).data as GitInfo;
    const failed = await until(
      'git/info reports the import that died with the killed server as failed',
      10_000,
      async () => ((await info()).operation?.state === 'failure' ? (await info()).operation : undefined),
    );
    expect(failed?.error).toBe('the server stopped while importing; start the import again');

    await api.spaces.importGitRepository(spaceId, request);
    const done = await until('the retried import succeeds', 15_000, async () => {
      const operation = (await info()).operation;
      if (operation?.state === 'failure') throw new Error(`the retry failed: ${operation.error}`);
      return operation?.state === 'success' ? operation : undefined;
    });
    expect(done).toMatchObject({ direction: 'import' });
    const pages = (await api.spaces.listPages(spaceId)).data.pages as Array<{ title: string }>;
    expect(pages.map((p) => p.title)).toEqual(['Welcome', 'Guide']);
    await second.stop();

    // The dead job ran once (one attempt allowed), the retry once.
    const db = new Database(path.join(store.env.QUIRE_DATA_DIR!, 'quire.db'), { readonly: true });
    try {
      const jobs = db
        .prepare("select status, attempts, last_error from jobs where kind = 'git.sync' order by created_at")
        .all() as Array<{ status: string; attempts: number; last_error: string | null }>;
      expect(jobs.map((j) => [j.status, j.attempts])).toEqual([
        ['failed', 1],
        ['done', 1],
      ]);
      expect(jobs[0]!.last_error).toContain('interrupted');
    } finally {
      db.close();
    }
  });
});
