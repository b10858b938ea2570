import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentChange } from '../../src/areas/change-requests/content-schemas.js';
import type { Actor } from '../../src/auth/actor.js';
import { rawRequest } from '../helpers/client.js';
import { newChangeRequest, write } from '../helpers/content.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Whole page trees over a MiB are sent as the parts kept for the next revisions, not as one
 * buffer (src/areas/content/tree-json.ts): the official client reads them whole, the schema
 * checks them, and a merge's tree shows its changes and nothing else.
 */

let server: TestServer;
let spaceId: string;
const SECTIONS = 12;
const PER_SECTION = 200;
/** Page ids by `s<section>` and `s<section>p<page>`. */
const ids = new Map<string, string>();

type Page = { id: string; title: string; path: string; pages?: Page[] };

beforeAll(async () => {
  server = await startTestServer();
  const { services } = server.app.quire;
  const actor: Actor = { userId: server.admin.userId, tokenId: 'test', email: 'admin@quire.test' };
  spaceId = (await server.admin.api.orgs.createSpace(server.admin.orgId, { title: 'Large' })).data.id;
  const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Seed' });
  const changes: ContentChange[] = [];
  for (let s = 0; s < SECTIONS; s++) {
    changes.push({
      operation: 'insert_page',
      title: `Section ${s}`,
      slug: `section-${s}`,
      ref: `s${s}`,
      document: { markdown: '' },
    });
    for (let p = 0; p < PER_SECTION; p++)
      changes.push({
        operation: 'insert_page',
        title: `Page ${p} of section ${s}`,
        slug: `page-${p}`,
        ref: `s${s}p${p}`,
        into: `s${s}`,
        document: { markdown: `Text of page ${p}.` },
      });
  }
  for (let from = 0; from < changes.length; from += 1000) {
    const outcome = await services.contentWrites.apply(
      actor,
      spaceId,
      cr.row.id,
      changes.slice(from, from + 1000).map((change) => {
        const into = (change as { into?: string }).into;
        return into && ids.has(into) ? { ...change, into: ids.get(into)! } : change;
      }) as ContentChange[],
    );
    for (const change of outcome.changes)
      if (change.object === 'created_page' && change.ref) ids.set(change.ref, change.page);
  }
  expect((await services.merges.merge(actor, spaceId, cr.row.id)).result).toBe('merge');
  // The merge's search job, which a search leaves to the background for so many pages: run here
  // (the tests' server runs no worker).
  while ((await services.jobs.runDue()) > 0);
}, 120_000);
afterAll(() => server.close());

async function tree(path = `/v1/spaces/${spaceId}/content/pages`) {
  const answer = await rawRequest(server.url, 'GET', path, {
    token: server.admin.token,
    headers: { 'accept-encoding': 'identity' },
  });
  expect(answer.status).toBe(200);
  const bytes = Buffer.byteLength(answer.text);
  expect(Number(answer.headers.get('content-length'))).toBe(bytes);
  return { bytes, body: answer.body as { pages: Page[] } };
}

/** The answer's bytes as sent (node:http does not decode them), and its headers. */
function rawGet(path: string, acceptEncoding: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    const request = http.get(
      `${server.url}${path}`,
      { headers: { authorization: `Bearer ${server.admin.token}`, 'accept-encoding': acceptEncoding } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, bytes: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

const section = (pages: Page[], s: number) => pages.find((p) => p.id === ids.get(`s${s}`))!;

describe('whole page trees of a large space', () => {
  it('sends a tree of over a MiB whole, as the official schema has it', async () => {
    const { bytes, body } = await tree();
    expect(bytes).toBeGreaterThan(2 ** 20);
    expect(body.pages).toHaveLength(SECTIONS);
    expect(section(body.pages, 3).pages).toHaveLength(PER_SECTION);
    expect(section(body.pages, 3).pages![7]).toMatchObject({
      id: ids.get('s3p7'),
      title: 'Page 7 of section 3',
      path: 'section-3/page-7',
    });
    // The official client reads it too.
    const { data } = await server.admin.api.spaces.listPages(spaceId);
    expect(data.pages.map((p) => p.id)).toEqual(body.pages.map((p) => p.id));
    // A revision's answer holds the same tree among its members.
    const revision = await tree(`/v1/spaces/${spaceId}/content`);
    expect((revision.body as unknown as { object: string }).object).toBe('revision');
    expect(revision.body.pages).toEqual(body.pages);
  });

  it('shows a merge: a page renamed and one moved to another section, with the paths under them', async () => {
    const { api } = server.admin;
    const before = (await tree()).body;
    const cr = await newChangeRequest(api, spaceId);
    await write(api, spaceId, cr, [
      { operation: 'update_page', page: ids.get('s5'), slug: 'renamed', title: 'Renamed section' },
      { operation: 'update_page', page: ids.get('s1p9'), into: ids.get('s2'), slug: 'moved' },
    ]);
    expect((await api.spaces.mergeChangeRequest(spaceId, cr)).data.result).toBe('merge');
    const after = (await tree()).body;
    expect(section(after.pages, 5)).toMatchObject({ title: 'Renamed section', path: 'renamed' });
    expect(section(after.pages, 5).pages!.map((p) => p.path)).toEqual(
      section(before.pages, 5).pages!.map((p) => p.path.replace('section-5/', 'renamed/')),
    );
    expect(section(after.pages, 1).pages).toHaveLength(PER_SECTION - 1);
    const moved = section(after.pages, 2).pages!.find((p) => p.id === ids.get('s1p9'));
    expect(moved).toMatchObject({ path: 'section-2/moved' });
    // Everything else is as it was.
    for (const s of [0, 3, 4, 6, 7, 8, 9, 10, 11])
      expect(section(after.pages, s)).toEqual(section(before.pages, s));
    const revision = await tree(`/v1/spaces/${spaceId}/content`);
    expect(revision.body.pages).toEqual(after.pages);
  });

  it('sends the tree in gzip to a client that takes it, and the tree after a merge at once, from the blocks kept', async () => {
    const path = `/v1/spaces/${spaceId}/content/pages`;
    const plain = async () => (await tree()).body;
    const gzipped = async (p = path) => {
      const answer = await rawGet(p, 'gzip, deflate');
      expect(answer.headers.vary).toMatch(/Accept-Encoding/);
      if (answer.headers['content-encoding'] !== 'gzip') return undefined;
      expect(Number(answer.headers['content-length'])).toBe(answer.bytes.length);
      return JSON.parse(zlib.gunzipSync(answer.bytes).toString('utf8')) as { pages: Page[] };
    };
    // The first read of a tree over a MiB may go as it is while its parts are compressed.
    let read: { pages: Page[] } | undefined;
    for (let tries = 0; tries < 200 && !read; tries++) {
      read = await gzipped();
      if (!read) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(read).toEqual(await plain());
    // Not to a client that refuses it.
    const refused = await rawGet(path, 'gzip;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.bytes.toString('utf8'))).toEqual(read);

    // One page renamed: the next revision's tree is compressed while the reader waits, from the
    // blocks of the sections that did not change.
    const { api } = server.admin;
    const cr = await newChangeRequest(api, spaceId);
    await write(api, spaceId, cr, [{ operation: 'update_page', page: ids.get('s7p3'), title: 'Retitled' }]);
    expect((await api.spaces.mergeChangeRequest(spaceId, cr)).data.result).toBe('merge');
    const merged = await gzipped();
    expect(merged).toBeDefined();
    expect(section(merged!.pages, 7).pages![3]).toMatchObject({ title: 'Retitled' });
    expect(merged).toEqual(await plain());
    const revision = await gzipped(`/v1/spaces/${spaceId}/content`);
    expect(revision).toEqual((await tree(`/v1/spaces/${spaceId}/content`)).body);
    // The official client (fetch asks for gzip) reads it as well.
    expect((await api.spaces.listPages(spaceId)).data).toEqual(merged);
  });
});

describe('large answers made for one request', () => {
  const search = (limit: number) => `/v1/spaces/${spaceId}/search?query=page&limit=${limit}`;

  it('go in gzip to a client that takes it, with Vary, and decode to the answer sent uncompressed', async () => {
    const plain = await rawGet(search(100), 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.bytes.length).toBeGreaterThan(32 * 1024);
    expect(Number(plain.headers['content-length'])).toBe(plain.bytes.length);
    const answer = JSON.parse(plain.bytes.toString('utf8')) as { items: Array<{ id: string }> };
    expect(answer.items).toHaveLength(100);

    const gzipped = await rawGet(search(100), 'gzip, deflate');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(gzipped.headers['content-length'])).toBe(gzipped.bytes.length);
    expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 4);
    expect(JSON.parse(zlib.gunzipSync(gzipped.bytes).toString('utf8'))).toEqual(answer);

    // Not to a client that refuses it; the official client (fetch) reads the gzip answer.
    expect((await rawGet(search(100), 'gzip;q=0')).headers['content-encoding']).toBeUndefined();
    const { data } = await server.admin.api.spaces.searchSpaceContent(spaceId, { query: 'page', limit: 100 });
    expect(data.items.map((item) => item.id)).toEqual(answer.items.map((item) => item.id));
  });

  it('leave small answers as they are', async () => {
    const small = await rawGet(search(2), 'gzip, deflate');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
    expect(JSON.parse(small.bytes.toString('utf8')).items).toHaveLength(2);
  });
});
