import { StorageUploadKind } from '@gitbook/api';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownOf, newChangeRequest } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Imports of uploaded files: generateStorageUploadURL, a PUT of the bytes to the URL it answers,
 * then startImportRun naming the upload's key (a Markdown file, or a zip of them).
 */

let server: TestServer;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Upload org');
});
afterAll(async () => {
  await server.close();
});

async function space(title: string): Promise<string> {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

async function signed(name: string, size: number, type = 'text/markdown', org = orgId) {
  return (
    await admin.api.orgs.generateStorageUploadUrl(org, {
      file: { name, type, size },
      kind: StorageUploadKind.ImportFile,
    })
  ).data;
}

async function put(url: string, data: Uint8Array): Promise<Response> {
  return fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: Buffer.from(data),
  });
}

/** Uploads the bytes and answers the key. */
async function upload(name: string, data: Uint8Array): Promise<string> {
  const target = await signed(name, data.length);
  const response = await put(target.url, data);
  expect(response.status).toBe(200);
  return target.key;
}

async function importKeys(spaceId: string, files: string[], changeRequest?: string) {
  const started = (
    await admin.api.org.startImportRun(orgId, {
      source: { type: 'file', files },
      target: { space: spaceId, ...(changeRequest ? { changeRequest } : {}) },
    })
  ).data;
  await server.app.quire.services.jobs.runDue();
  return (await admin.api.org.getImportRun(orgId, started.id)).data as typeof started & {
    reason?: string;
    changeRequest?: string;
  };
}

async function titles(spaceId: string, crId?: string): Promise<string[]> {
  const { data } = crId
    ? await admin.api.spaces.listPagesInChangeRequest(spaceId, crId)
    : await admin.api.spaces.listPages(spaceId);
  return (data.pages as { title: string }[]).map((p) => p.title);
}

describe('uploads', () => {
  it('answers a single-use Quire URL and a key', async () => {
    const data = strToU8('# Once\n');
    const target = await signed('once.md', data.length);
    expect(target).toMatchObject({ object: 'storage-signed-url' });
    expect(target.url.startsWith(`${server.url}/storage/uploads/`)).toBe(true);
    expect(target.key).toContain('once.md');
    expect((await put(target.url, data)).status).toBe(200);
    expect((await put(target.url, data)).status).toBe(404);

    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.paths['/v1/orgs/{organizationId}/storage/upload']?.post?.operationId).toBe(
      'generateStorageUploadURL',
    );
    expect(doc.paths['/storage/uploads/{token}']).toBeUndefined();
  });

  it('refuses a wrong token, a size mismatch, a file too large, an unknown kind', async () => {
    expect((await put(`${server.url}/storage/uploads/not-a-real-token`, strToU8('x'))).status).toBe(404);

    const target = await signed('sized.md', 10);
    const short = await put(target.url, strToU8('12345'));
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('10 were declared');
    // Not yet used: the right bytes still go.
    expect((await put(target.url, strToU8('1234567890'))).status).toBe(200);

    const big = await failure(signed('big.md', 26 * 1024 * 1024));
    expect(big.code).toBe(400);
    expect(big.message).toContain('body.file.size');
    const kind = await failure(
      admin.api.orgs.generateStorageUploadUrl(orgId, {
        file: { name: 'a.md', type: 'text/markdown', size: 1 },
        kind: 'nope' as never,
      }),
    );
    expect(kind.code).toBe(400);
    const exe = await failure(signed('tool.exe', 5));
    expect(exe.message).toContain('body.file.name');

    const stranger = await createUser(server);
    expect(
      (
        await failure(
          stranger.api.orgs.generateStorageUploadUrl(orgId, {
            file: { name: 'a.md', type: 'text/markdown', size: 1 },
            kind: StorageUploadKind.ImportFile,
          }),
        )
      ).code,
    ).toBe(404);
  });
});

describe('importing uploaded files', () => {
  it('imports an uploaded Markdown file by its key', async () => {
    const s = await space('From upload');
    const key = await upload(
      'guide.md',
      strToU8('---\ndescription: Read me.\n---\n# The guide\n\nquillupload body.\n'),
    );
    const done = await importKeys(s, [key]);
    expect(done.status, done.reason).toBe('completed');
    expect(done.source).toEqual({ type: 'file', files: [key] });
    expect(done.pages?.map((p) => p.sourceURL)).toEqual([key]);
    expect(await titles(s)).toEqual(['The guide']);
    const [page] = (await admin.api.spaces.listPages(s)).data.pages;
    expect(await markdownOf(admin.api, s, page!.id)).toContain('quillupload body.');
  });

  it('imports every Markdown file of a zip, into a change request', async () => {
    const s = await space('From zip');
    const crId = await newChangeRequest(admin.api, s, 'Zip lands here');
    const zip = zipSync({
      'docs/intro.md': strToU8('# Introduction\n\nFirst.\n'),
      'docs/more/setup.markdown': strToU8('Setting up.\n'),
      'SUMMARY.md': strToU8('* [Intro](docs/intro.md)\n'),
      'docs/logo.png': new Uint8Array([1, 2, 3]),
      '__MACOSX/docs/._intro.md': strToU8('junk'),
    });
    const key = await upload('bundle.zip', zip);
    const done = await importKeys(s, [key], crId);
    expect(done.status, done.reason).toBe('completed');
    expect(done.pages?.map((p) => p.sourceURL)).toEqual([
      `${key}#docs/intro.md`,
      `${key}#docs/more/setup.markdown`,
    ]);
    expect(await titles(s, crId)).toEqual(['Introduction', 'setup']);
    expect(await titles(s)).toEqual([]);
  });

  it('fails a zip with an entry escaping the archive, writing nothing', async () => {
    const s = await space('Evil zip');
    const zip = zipSync({ 'ok.md': strToU8('# Fine\n'), '../evil.md': strToU8('# Evil\n') });
    const key = await upload('evil.zip', zip);
    const done = await importKeys(s, [key]);
    expect(done.status).toBe('failed');
    expect(done.reason).toContain('../evil.md');
    expect(done.changeRequest).toBeUndefined();
    expect(await titles(s)).toEqual([]);
  });

  it('fails a file that is not a zip', async () => {
    const s = await space('Bad zip');
    const key = await upload('broken.zip', strToU8('not a zip at all'));
    const done = await importKeys(s, [key]);
    expect(done.status).toBe('failed');
    expect(done.reason).toContain('not a readable zip');
  });

  it('refuses an unknown, incomplete or foreign key when the run starts', async () => {
    const s = await space('Keys');
    const pending = (await signed('pending.md', 5)).key;
    const otherOrg = await createOrg(admin, 'Other upload org');
    const foreignTarget = await signed('foreign.md', 3, 'text/markdown', otherOrg);
    expect((await put(foreignTarget.url, strToU8('# F'))).status).toBe(200);
    const good = await upload('good.md', strToU8('# Good\n'));
    for (const key of ['uploads/nope/nope/x.md', pending, foreignTarget.key]) {
      const error = await failure(
        admin.api.org.startImportRun(orgId, {
          source: { type: 'file', files: [good, key] },
          target: { space: s },
        }),
      );
      expect(error.code).toBe(400);
      expect(error.message).toContain('body.source.files.1');
    }
  });
});
