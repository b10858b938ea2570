import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownOf, newChangeRequest } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Content imports (startImportRun / listImportRuns / getImportRun / cancelImportRun): Markdown
 * files served by a real loopback HTTP server, loopback allowed explicitly for this Quire server.
 */

let server: TestServer;
let files: http.Server;
let filesUrl: string;
let admin: TestUser;
let orgId: string;
const served = new Map<string, { status: number; body: string }>();

beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' } });
  files = http.createServer((request, response) => {
    const file = served.get(request.url ?? '');
    response.writeHead(file?.status ?? 404, { 'content-type': 'text/markdown; charset=utf-8' });
    response.end(file?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Import org');
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => files.close(resolve));
});

function serve(path: string, body: string, status = 200): string {
  served.set(path, { status, body });
  return `${filesUrl}${path}`;
}

async function space(title: string): Promise<string> {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

async function runJobs(): Promise<void> {
  await server.app.quire.services.jobs.runDue();
}

interface PageView {
  id: string;
  title: string;
  slug: string;
  description?: string;
  icon?: string;
  hidden?: boolean;
  pages?: PageView[];
}

async function pages(spaceId: string, crId?: string): Promise<PageView[]> {
  const { data } = crId
    ? await admin.api.spaces.listPagesInChangeRequest(spaceId, crId)
    : await admin.api.spaces.listPages(spaceId);
  return data.pages as unknown as PageView[];
}

async function start(
  spaceId: string,
  urls: string[],
  extra: { changeRequest?: string; page?: string } = {},
  api = admin.api,
) {
  return (
    await api.org.startImportRun(orgId, {
      source: { type: 'file', files: urls },
      target: { space: spaceId, ...extra },
    })
  ).data;
}

async function run(id: string) {
  return (await admin.api.org.getImportRun(orgId, id)).data as Awaited<ReturnType<typeof start>> & {
    reason?: string;
    changeRequest?: string;
  };
}

describe('importing files into a space', () => {
  it('makes a page of each Markdown file, merged into the space', async () => {
    const s = await space('Imported');
    const welcome = serve(
      '/docs/welcome.md',
      '---\ndescription: Where it starts.\nicon: house\n---\n\n# Welcome aboard\n\nHello **zanzibarquill** world.\n',
    );
    const notes = serve('/docs/release-notes.markdown', 'No heading here, just notes.\n');
    const text = serve('/docs/readme.txt', 'Plain text file.\n');

    const started = await start(s, [welcome, notes, text]);
    expect(started).toMatchObject({ object: 'import-run', status: 'pending', target: { space: s } });
    expect(started.urls?.location).toContain(`/v1/org/${orgId}/imports/${started.id}`);
    expect(await pages(s)).toEqual([]);

    await runJobs();
    const done = await run(started.id);
    expect(done.status).toBe('completed');
    expect(done.startedAt).toBeDefined();
    expect(done.completedAt).toBeDefined();
    expect(done.pages?.map((p) => p.sourceURL)).toEqual([welcome, notes, text]);

    const list = await pages(s);
    expect(list.map((p) => p.title)).toEqual(['Welcome aboard', 'release-notes', 'readme']);
    expect(list[0]).toMatchObject({ description: 'Where it starts.', icon: 'house' });
    expect(list.map((p) => p.id)).toEqual(done.pages?.map((p) => p.id));
    const body = await markdownOf(admin.api, s, list[0]!.id);
    expect(body).toContain('Hello **zanzibarquill** world.');
    expect(body).not.toContain('description:');

    // Merged through a change request of its own, like any merge: search follows.
    const cr = (await admin.api.spaces.getChangeRequestById(s, done.changeRequest!)).data;
    expect(cr.status).toBe('merged');
    const found = (await admin.api.spaces.searchSpaceContent(s, { query: 'zanzibarquill' })).data;
    expect(found.items.map((item) => item.id)).toContain(list[0]!.id);
  });

  it('writes into the target change request without touching the space', async () => {
    const s = await space('Into a change request');
    const crId = await newChangeRequest(admin.api, s, 'Imports land here');
    const url = serve('/cr/guide.md', '# Guide\n\nStep one.\n');

    const started = await start(s, [url], { changeRequest: crId });
    expect(started.target).toEqual({ space: s, changeRequest: crId });
    await runJobs();
    const done = await run(started.id);
    expect(done.status).toBe('completed');
    expect(done.changeRequest).toBe(crId);

    expect((await pages(s, crId)).map((p) => p.title)).toEqual(['Guide']);
    expect(await pages(s)).toEqual([]);
    expect((await admin.api.spaces.getChangeRequestById(s, crId)).data.status).not.toBe('merged');
  });

  it('puts the pages under target.page', async () => {
    const s = await space('Under a page');
    const first = await start(s, [serve('/parent/section.md', '# Section\n')]);
    await runJobs();
    const parentId = (await run(first.id)).pages![0]!.id;
    const second = await start(s, [serve('/parent/child.md', '# Child\n')], { page: parentId });
    await runJobs();
    expect((await run(second.id)).status).toBe('completed');
    const list = await pages(s);
    expect(list.map((p) => p.title)).toEqual(['Section']);
    expect(list[0]!.pages?.map((p) => p.title)).toEqual(['Child']);
  });

  it('fails the run and changes nothing when a file cannot be fetched', async () => {
    const s = await space('Broken');
    const good = serve('/broken/good.md', '# Good\n');
    const missing = `${filesUrl}/broken/missing.md`;
    const before = (await admin.api.spaces.listChangeRequestsForSpace(s, { status: 'open' } as never)).data;

    const started = await start(s, [good, missing]);
    await runJobs();
    const done = await run(started.id);
    expect(done.status).toBe('failed');
    expect(done.reason).toContain('source.files.1');
    expect(done.reason).toContain('404');
    expect(done.completedAt).toBeUndefined();
    expect(await pages(s)).toEqual([]);
    const after = (await admin.api.spaces.listChangeRequestsForSpace(s, { status: 'open' } as never)).data;
    expect(after.count).toBe(before.count);
  });

  it('fails the run with a reason when target.page does not exist, and leaves no change request open', async () => {
    const s = await space('No such parent');
    const started = await start(s, [serve('/nowhere/page.md', '# Page\n')], { page: 'nosuchpage' });
    await runJobs();
    const done = await run(started.id);
    expect(done.status).toBe('failed');
    expect(done.reason).toContain('target.page');
    expect(await pages(s)).toEqual([]);
    const open = (await admin.api.spaces.listChangeRequestsForSpace(s)).data;
    expect(open.items).toEqual([]);
  });

  it('cancels a pending run; its job then does nothing', async () => {
    const s = await space('Cancelled');
    const started = await start(s, [serve('/cancel/page.md', '# Page\n')]);
    const cancelled = (await admin.api.org.cancelImportRun(orgId, started.id)).data;
    expect(cancelled.status).toBe('cancelled');
    await runJobs();
    expect((await run(started.id)).status).toBe('cancelled');
    expect(await pages(s)).toEqual([]);
    const finished = await start(s, [serve('/cancel/done.md', '# Done\n')]);
    await runJobs();
    const late = await failure(admin.api.org.cancelImportRun(orgId, finished.id));
    expect(late.code).toBe(400);
    expect(late.message).toContain('completed');
  });
});

describe('one run per space at a time', () => {
  it('holds a run back while another of the space is in progress; a run that never reports back reads as failed', async () => {
    const s = await space('Serialized');
    const { db } = server.database;
    const first = await start(s, [serve('/serial/one.md', '# One\n')]);
    await runJobs();
    // As if another worker were importing into the space right now.
    await db
      .updateTable('import_runs')
      .set({ status: 'in-progress', updated_at: new Date().toISOString() })
      .where('id', '=', first.id)
      .execute();
    const second = await start(s, [serve('/serial/two.md', '# Two\n')]);
    await runJobs();
    expect((await run(second.id)).status).toBe('pending');
    expect((await run(first.id)).status).toBe('in-progress');

    // That worker died long ago: its run reads as failed, and the held-back run goes ahead.
    await db
      .updateTable('import_runs')
      .set({ updated_at: new Date(Date.now() - 60 * 60_000).toISOString() })
      .where('id', '=', first.id)
      .execute();
    const stale = await run(first.id);
    expect(stale.status).toBe('failed');
    expect(stale.reason).toContain('without reporting back');
    await db
      .updateTable('jobs')
      .set({ run_at: new Date().toISOString() })
      .where('kind', '=', 'imports.run')
      .where('status', '=', 'queued')
      .execute();
    await runJobs();
    expect((await run(second.id)).status).toBe('completed');
    expect((await pages(s)).map((p) => p.title)).toEqual(['One', 'Two']);
  });
});

describe('bad input', () => {
  let s: string;
  const ok = () => serve('/bad/ok.md', '# OK\n');
  beforeAll(async () => {
    s = await space('Bad input');
  });

  async function runsOf(spaceId: string): Promise<number> {
    return (await admin.api.org.listImportRuns(orgId, { space: spaceId })).data.count ?? 0;
  }

  it('refuses unusable sources with a 400 naming the field, and records nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ type: 'website', url: 'https://example.com' }, 'body.source.type'],
      [{ type: 'file', files: [] }, 'body.source.files'],
      [
        { type: 'file', files: Array.from({ length: 51 }, (_, i) => `${filesUrl}/f${i}.md`) },
        'body.source.files',
      ],
      [{ type: 'file', files: ['ftp://example.com/a.md'] }, 'body.source.files.0'],
      [{ type: 'file', files: ['not a url'] }, 'body.source.files.0'],
      [{ type: 'file', files: [ok(), `${filesUrl}/report.docx`] }, 'body.source.files.1'],
      [{ type: 'file', files: ['http://169.254.169.254/latest.md'] }, 'body.source.files.0'],
    ];
    for (const [source, field] of cases) {
      const error = await failure(
        admin.api.org.startImportRun(orgId, { source: source as never, target: { space: s } }),
      );
      expect(error.code, JSON.stringify(source).slice(0, 80)).toBe(400);
      expect(error.message).toContain(field);
    }
    const website = await failure(
      admin.api.org.startImportRun(orgId, {
        source: { type: 'website', url: 'https://example.com' },
        target: { space: s },
      }),
    );
    expect(website.message).toContain('not supported');
    expect(await runsOf(s)).toBe(0);
  });

  it('refuses a missing target, an unknown space or change request', async () => {
    const missing = await failure(
      admin.api.org.startImportRun(orgId, { source: { type: 'file', files: [ok()] } } as never),
    );
    expect(missing.code).toBe(400);
    expect(missing.message).toContain('target');
    const unknown = await failure(start('nosuchspace', [ok()]));
    expect(unknown.code).toBe(404);
    const noCr = await failure(start(s, [ok()], { changeRequest: 'nosuchcr' }));
    expect(noCr.code).toBe(404);
    expect(await runsOf(s)).toBe(0);
  });

  it('needs the right to edit the space; other organizations get 404', async () => {
    const reader = await createUser(server);
    await addMember(admin, orgId, reader, 'read');
    const denied = await failure(start(s, [ok()], {}, reader.api));
    expect(denied.code).toBe(403);

    const stranger = await createUser(server);
    const otherOrg = await createOrg(stranger, 'Elsewhere');
    expect((await failure(start(s, [ok()], {}, stranger.api))).code).toBe(404);
    const crossed = await failure(
      stranger.api.org.startImportRun(otherOrg, {
        source: { type: 'file', files: [ok()] },
        target: { space: s },
      }),
    );
    expect(crossed.code).toBe(404);
    expect(await runsOf(s)).toBe(0);

    const mine = await start(s, [ok()]);
    expect((await failure(stranger.api.org.getImportRun(orgId, mine.id))).code).toBe(404);
    expect((await failure(stranger.api.org.getImportRun(otherOrg, mine.id))).code).toBe(404);
    expect((await failure(stranger.api.org.listImportRuns(orgId))).code).toBe(404);
    await runJobs();
  });
});

describe('listing runs', () => {
  it('lists the most recent first, paginated, filtered by space and status', async () => {
    const s = await space('Listed');
    const a = await start(s, [serve('/list/a.md', '# A\n')]);
    await runJobs();
    const b = await start(s, [`${filesUrl}/list/missing.md`]);
    await runJobs();
    const c = await start(s, [serve('/list/c.md', '# C\n')]);

    const first = (await admin.api.org.listImportRuns(orgId, { space: s, limit: 2 })).data;
    expect(first.count).toBe(3);
    expect(first.items.map((r) => r.id)).toEqual([c.id, b.id]);
    const second = (await admin.api.org.listImportRuns(orgId, { space: s, limit: 2, page: first.next!.page }))
      .data;
    expect(second.items.map((r) => r.id)).toEqual([a.id]);
    expect(second.next).toBeUndefined();

    const statuses = async (status: 'active' | 'completed' | 'failed') =>
      (await admin.api.org.listImportRuns(orgId, { space: s, status })).data.items.map((r) => r.id);
    expect(await statuses('active')).toEqual([c.id]);
    expect(await statuses('completed')).toEqual([a.id]);
    expect(await statuses('failed')).toEqual([b.id]);
    await runJobs();
    expect(await statuses('completed')).toEqual([c.id, a.id]);
  });
});
