import path from 'node:path';
import type { GitBookAPI } from '@gitbook/api';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI_HOOK_MS,
  type CliServer,
  type IsolatedStore,
  isolatedStore,
  runCli,
  startCliServer,
} from '../helpers/cli.js';
import { apiClient } from '../helpers/client.js';
import { insert, newChangeRequest, write } from '../helpers/content.js';
import { publishedSite, visit } from '../helpers/sites.js';

/**
 * Three real `quire serve` processes on one database (PostgreSQL when the suite runs on it, else
 * one SQLite file), as behind a load balancer: a write through any of them is seen at once by
 * the others, even where the request path reads from each process's cache (tokens, members,
 * organizations, published sites); merges spread over them lose nothing; and one killed in the
 * middle of a stream of writes loses nothing it acknowledged and makes no job run twice.
 */

const TOKEN = 'many-processes-admin-token-0123456789abcdef';
let store: IsolatedStore;
const servers: CliServer[] = [];
const apis: GitBookAPI[] = [];
let orgId: string;

const env = () => ({
  ...store.env,
  ...(store.env.DATABASE_URL ? {} : { DATABASE_URL: '' }),
  PORT: '0',
  LOG_LEVEL: 'warn',
  QUIRE_ADMIN_TOKEN: TOKEN,
  QUIRE_RATE_LIMIT: '0',
  QUIRE_SITE_RATE_LIMIT: '0',
  QUIRE_CHROMIUM_PATH: 'none',
});

/** Rows of the shared database, read the way an operator would, outside Quire. */
async function rows<T>(query: string): Promise<T[]> {
  if (store.env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(query)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(store.env.QUIRE_DATA_DIR!, 'quire.db'), { readonly: true });
  try {
    return db.prepare(query).all() as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  store = await isolatedStore();
  // All three start at once on the empty database, as replicas of one deployment do: they race
  // to migrate and to create the first admin.
  servers.push(...(await Promise.all([0, 1, 2].map(() => startCliServer(env())))));
  for (const server of servers) apis.push(apiClient(server.url, TOKEN));
  orgId = (await apis[0]!.orgs.listOrganizationsForAuthenticatedUser()).data.items[0]!.id;
}, CLI_HOOK_MS);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  await store?.cleanup();
});

const others = (i: number) => [0, 1, 2].filter((j) => j !== i);

describe('three processes on one database', () => {
  it('started at once, they made one admin and one organization', async () => {
    for (const api of apis) {
      const orgs = (await api.orgs.listOrganizationsForAuthenticatedUser()).data.items;
      expect(orgs.map((o) => o.id)).toEqual([orgId]);
    }
    const users = await rows<{ n: number }>('select count(*) as n from users');
    expect(Number(users[0]!.n)).toBe(1);
  });

  it('a change made through one is read at once through the others, cached reads included', async () => {
    const spaceId = (await apis[0]!.orgs.createSpace(orgId, { title: 'Shared' })).data.id;
    for (const i of [0, 1, 2, 0, 1, 2]) {
      const title = `Organization ${i}-${Math.random().toString(36).slice(2, 8)}`;
      // Read first on every process, so each holds the old organization in its cache.
      for (const j of others(i)) await apis[j]!.orgs.getOrganizationById(orgId);
      await apis[i]!.orgs.updateOrganizationById(orgId, { title });
      for (const j of others(i))
        expect((await apis[j]!.orgs.getOrganizationById(orgId)).data.title).toBe(title);

      const spaceTitle = `Space ${i}-${Math.random().toString(36).slice(2, 8)}`;
      await apis[i]!.spaces.updateSpaceById(spaceId, { title: spaceTitle });
      for (const j of others(i))
        expect((await apis[j]!.spaces.getSpaceById(spaceId)).data.title).toBe(spaceTitle);
    }
  });

  it('a member removed, or a token revoked by another process (the CLI), is refused at once by all', async () => {
    const email = `reader-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const issued = await runCli(['token', 'create', '--email', email], { ...env() });
    expect(issued.code, issued.stderr).toBe(0);
    const token = issued.stdout.trim();
    const as = servers.map((s) => apiClient(s.url, token));
    await apis[0]!.orgs.inviteUsersToOrganization(orgId, { emails: [{ email, role: 'read' as never }] });
    for (const api of as) expect((await api.orgs.getOrganizationById(orgId)).status).toBe(200);

    const members = (await apis[1]!.orgs.listMembersInOrganizationById(orgId)).data.items;
    const userId = members.find((m) => m.user.email === email)!.user.id;
    await apis[1]!.orgs.removeMemberFromOrganizationById(orgId, userId);
    for (const api of as) {
      await expect(api.orgs.getOrganizationById(orgId)).rejects.toMatchObject({ code: 404 });
      expect((await api.user.getAuthenticatedUser()).status).toBe(200);
    }

    const revoked = await runCli(['token', 'revoke', '--token', token], { ...env() });
    expect(revoked.code, revoked.stderr).toBe(0);
    for (const api of as) await expect(api.user.getAuthenticatedUser()).rejects.toMatchObject({ code: 401 });
  });

  it('a signed URL made by one process opens on the others', async () => {
    const spaceId = (await apis[0]!.orgs.createSpace(orgId, { title: 'Printed' })).data.id;
    const cr = await newChangeRequest(apis[0]!, spaceId);
    await write(apis[0]!, spaceId, cr, [insert('Printed page', 'Words to print.')]);
    await apis[0]!.spaces.mergeChangeRequest(spaceId, cr);
    const { url } = (await apis[0]!.spaces.getSpacePdf(spaceId)).data;
    const { pathname } = new URL(url);
    for (const server of servers.slice(1)) {
      // Without Chromium the PDF URL sends the reader to the same book as HTML.
      const pdf = await visit(`${server.url}${pathname}`);
      expect(pdf.status).toBe(302);
      const book = await visit(new URL(pdf.headers.get('location')!, server.url).toString());
      expect(book.status).toBe(200);
      expect(book.body).toContain('Words to print.');
    }
  });

  it('a merge through one process is on the published site of every process at once', async () => {
    const spaceId = (await apis[0]!.orgs.createSpace(orgId, { title: 'Published' })).data.id;
    let cr = await newChangeRequest(apis[0]!, spaceId);
    await write(apis[0]!, spaceId, cr, [insert('Welcome', 'First words.')]);
    await apis[0]!.spaces.mergeChangeRequest(spaceId, cr);
    const site = await publishedSite(
      { api: apis[0]!, id: '', email: '', token: TOKEN },
      orgId,
      [spaceId],
      undefined,
      'Shared site',
    );
    const pageUrl = (server: CliServer) => `${server.url}${new URL(site.urls.published!).pathname}`;
    // Each process's last ETag: revalidations are answered from kept answers (front-door.ts)
    // until any process commits, and never after.
    const etags = new Map<CliServer, string>();
    for (const server of servers) {
      const page = await visit(pageUrl(server));
      expect(page.body).toContain('First words.');
      etags.set(server, page.headers.get('etag')!);
    }

    for (const i of [1, 2, 0]) {
      for (const server of servers)
        for (let n = 0; n < 2; n++)
          expect((await visit(pageUrl(server), { 'if-none-match': etags.get(server)! })).status).toBe(304);
      const words = `Words from process ${i}, ${Math.random().toString(36).slice(2, 8)}.`;
      cr = await newChangeRequest(apis[i]!, spaceId);
      const pages = (await apis[i]!.spaces.listPages(spaceId)).data.pages;
      await write(apis[i]!, spaceId, cr, [
        { operation: 'update_page', page: pages[0]!.id, document: { markdown: words } },
      ]);
      await apis[i]!.spaces.mergeChangeRequest(spaceId, cr);
      for (const server of servers) {
        const page = await visit(pageUrl(server), { 'if-none-match': etags.get(server)! });
        expect(page.status).toBe(200);
        expect(page.body).toContain(words);
        etags.set(server, page.headers.get('etag')!);
      }
    }
  });

  it('merges spread over the three lose nothing and apply nothing twice', async () => {
    const spaceId = (await apis[0]!.orgs.createSpace(orgId, { title: 'Busy' })).data.id;
    const titles = Array.from({ length: 18 }, (_, n) => `Page ${n}`);
    await Promise.all(
      titles.map(async (title, n) => {
        const writer = apis[n % 3]!;
        const merger = apis[(n + 1) % 3]!;
        const cr = await newChangeRequest(writer, spaceId, title);
        await write(writer, spaceId, cr, [insert(title, `Written through process ${n % 3}.`)]);
        const merged = await merger.spaces.mergeChangeRequest(spaceId, cr);
        expect(merged.data.result).toBe('merge');
      }),
    );
    for (const api of apis) {
      const pages = (await api.spaces.listPages(spaceId)).data.pages.map((p) => p.title);
      expect([...pages].sort()).toEqual([...titles].sort());
    }
  });

  it('one killed in the middle: what was acknowledged stays, no job runs twice, the others go on', async () => {
    const spaceId = (await apis[0]!.orgs.createSpace(orgId, { title: 'Killed in the middle' })).data.id;
    const acknowledged: string[] = [];
    let refused = 0;
    let started = 0;
    const victim = servers[1]!;
    const lane = async (lane: number) => {
      for (let k = 0; k < 8; k++) {
        const n = lane * 8 + k;
        const title = `Entry ${n}`;
        const api = apis[n % 3]!;
        started++;
        if (started === 10) victim.process.kill('SIGKILL');
        try {
          const cr = await newChangeRequest(api, spaceId, title);
          await write(api, spaceId, cr, [insert(title, `Entry number ${n}.`)]);
          const merged = await api.spaces.mergeChangeRequest(spaceId, cr);
          if (merged.data.result === 'merge') acknowledged.push(title);
        } catch (error) {
          // Only the killed process may fail a request.
          if (api !== apis[1]) throw error;
          refused++;
        }
      }
    };
    await Promise.all([0, 1, 2].map(lane));
    if (victim.process.exitCode === null && victim.process.signalCode === null) {
      await new Promise((resolve) => victim.process.once('exit', resolve));
    }

    for (const api of [apis[0]!, apis[2]!]) {
      const pages = (await api.spaces.listPages(spaceId)).data.pages.map((p) => p.title);
      expect(new Set(pages).size).toBe(pages.length);
      for (const title of acknowledged) expect(pages).toContain(title);
    }
    // The kill fell in the middle: the survivors' entries went through, the victim's later ones did not.
    expect(acknowledged.length).toBeGreaterThanOrEqual(16);
    expect(refused).toBeGreaterThan(0);
    const ran = await rows<{ n: number }>("select count(*) as n from jobs where status = 'done'");
    expect(Number(ran[0]!.n)).toBeGreaterThan(0);

    // Jobs: once the survivors have taken back what the dead one held, nothing is left queued or
    // running, and a job ran twice only if its first run died with the killed process.
    const deadline = Date.now() + 30_000;
    let jobs: Array<{ status: string; attempts: number; last_error: string | null; kind: string }> = [];
    while (Date.now() < deadline) {
      jobs = await rows(
        "select kind, status, attempts, last_error from jobs where status in ('queued', 'running')",
      );
      if (jobs.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(jobs).toEqual([]);
    // A run is counted as it is claimed, so a job claimed twice shows two attempts. Only the
    // jobs the killed process was running may have run again: at most 3, its bound of jobs at once.
    const retried = await rows<{ kind: string; attempts: number }>(
      'select kind, attempts from jobs where attempts > 1',
    );
    expect(retried.length, JSON.stringify(retried)).toBeLessThanOrEqual(3);
    for (const job of retried) expect(Number(job.attempts)).toBe(2);

    // Each schedule made at most one job per period however many processes registered it.
    const scheduled = await rows<{ kind: string; n: number }>(
      "select kind, count(*) as n from jobs where kind in ('trash.purge', 'sessions.purge', 'integrations.events.purge') group by kind",
    );
    for (const row of scheduled) expect(Number(row.n)).toBe(1);
  });
});
