import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILLED_PROFILES } from '../../src/areas/content/document-fill.js';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { pageLinks } from '../../src/areas/content/page-links.js';
import { ContentService, type OpenContent } from '../../src/areas/content/service.js';
import { ManualClock } from '../../src/clock.js';
import type { JsonDocument } from '../../src/content/document-schema.js';
import type { Profile } from '../../src/content/markdown/containers.js';
import { markdownToDocument } from '../../src/content/markdown/index.js';
import type { PageNode } from '../../src/content/tree.js';
import { insert, newChangeRequest, seed, write } from '../helpers/content.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Converted documents kept in the database (src/areas/content/stored-documents.ts): the fill
 * after a merge writes each page's document for each profile, as converting it gives; a process
 * that never converted a page answers it from its row; a row made from other markdown, or whose
 * links answer otherwise, is not used, and the next fill writes it anew. Reads write nothing.
 */

const GUIDE = `# Guide

See [the reference](reference.md) and [the site](https://example.com).

{% hint style="info" %}
Kept as a hint.
{% endhint %}
`;

describe('converted documents kept in the database', () => {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  let server: TestServer;
  let owner: TestUser;
  let spaceId: string;
  let ids: Map<string, string>;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    owner = await createUser(server);
    const orgId = await createOrg(owner);
    spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Kept documents' })).data.id;
    ids = await seed(owner.api, spaceId, [
      insert('Guide', GUIDE),
      insert('Reference', 'The **reference**.'),
      insert('Empty', ''),
    ]);
    await drain();
  });
  afterAll(async () => {
    await server.close();
  });

  const services = () => server.app.quire.services;
  const db = () => server.app.quire.deps.db;
  const drain = async () => {
    while ((await services().jobs.runDue()) > 0);
  };

  /** The space's current revision, opened as a content read opens it. */
  async function openHead(): Promise<OpenContent> {
    const space = await db()
      .selectFrom('spaces')
      .selectAll()
      .where('id', '=', spaceId)
      .executeTakeFirstOrThrow();
    const revision = await db()
      .selectFrom('revisions')
      .selectAll()
      .where('id', '=', space.revision_id!)
      .executeTakeFirstOrThrow();
    const snapshot = await services().store.snapshot(db(), revision.tree_hash);
    return { space, revision, snapshot, index: PageIndex.of(snapshot.content) };
  }

  /** What converting the page gives in that content. */
  async function converted(open: OpenContent, page: PageNode, profile: Profile): Promise<JsonDocument> {
    const markdown = page.body ? await services().store.readBody(db(), page.body) : '';
    const links = pageLinks(open.snapshot.content, open.index, { page: page.id });
    return markdownToDocument(markdown, { links, profile });
  }

  async function rowOf(pageId: string, profile: Profile) {
    const row = await db()
      .selectFrom('page_documents')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('page_id', '=', pageId)
      .where('profile', '=', profile)
      .executeTakeFirst();
    return (
      row && { ...row, document: JSON.parse(inflateRawSync(row.document).toString('utf8')) as JsonDocument }
    );
  }

  /** A content service of its own, as in another process: nothing converted in its memory. */
  const freshReader = () =>
    new ContentService(server.app.quire.deps, {
      authz: services().authz,
      changeRequests: services().changeRequests,
      store: services().store,
      stored: services().storedDocuments,
    });

  it("writes each page's document for each profile after a merge, as converting it gives", async () => {
    const open = await openHead();
    for (const title of ['Guide', 'Reference']) {
      const page = open.snapshot.content.pages.get(ids.get(title)!)!;
      for (const profile of FILLED_PROFILES) {
        const row = await rowOf(page.id, profile);
        expect(row?.body).toBe(page.body);
        expect(row?.document).toEqual(await converted(open, page, profile));
      }
    }
    // The hint and the link came through as GitBook writes them.
    const guide = await rowOf(ids.get('Guide')!, 'v0146');
    expect(JSON.stringify(guide?.document)).toContain('"hint"');
    // A page without markdown has nothing to keep.
    expect(await rowOf(ids.get('Empty')!, 'v0146')).toBeUndefined();
    // The API answers the same document.
    const answer = await fetch(`${server.url}/v1/spaces/${spaceId}/content/page/${ids.get('Guide')}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(((await answer.json()) as { document: unknown }).document).toEqual(guide?.document);
  });

  it('answers a page from its row in a process that never converted it', async () => {
    const open = await openHead();
    const page = open.snapshot.content.pages.get(ids.get('Reference')!)!;
    const marked = { object: 'document', data: { marked: true }, nodes: [] };
    await db()
      .updateTable('page_documents')
      .set({ document: deflateRawSync(JSON.stringify(marked)) })
      .where('space_id', '=', spaceId)
      .where('page_id', '=', page.id)
      .where('profile', '=', 'render')
      .execute();
    expect(await freshReader().body(open, page, 'document', 'render')).toEqual({ document: marked });
    // Another profile's row is its own.
    expect(await freshReader().body(open, page, 'document', 'v0146')).toEqual({
      document: await converted(open, page, 'v0146'),
    });
  });

  it('converts a page whose row was made from other markdown; the fill writes the row anew', async () => {
    const page = ids.get('Reference')!;
    const cr = await newChangeRequest(owner.api, spaceId);
    await write(owner.api, spaceId, cr, [
      { operation: 'update_page', page, document: { markdown: 'The **new** reference.' } },
    ]);
    await owner.api.spaces.mergeChangeRequest(spaceId, cr);
    // Read before the fill ran: the row still holds the old markdown's document.
    const open = await openHead();
    const node = open.snapshot.content.pages.get(page)!;
    expect((await rowOf(page, 'v0146'))?.body).not.toBe(node.body);
    const expected = await converted(open, node, 'v0146');
    expect(await freshReader().body(open, node, 'document', 'v0146')).toEqual({ document: expected });
    expect((await rowOf(page, 'v0146'))?.body).not.toBe(node.body);
    await drain();
    const row = await rowOf(page, 'v0146');
    expect(row?.body).toBe(node.body);
    expect(row?.document).toEqual(expected);
    expect((await rowOf(page, 'render'))?.body).toBe(node.body);
  });

  it('converts a page whose links answer otherwise, though its markdown is the same', async () => {
    const guide = ids.get('Guide')!;
    const before = await rowOf(guide, 'v0146');
    const cr = await newChangeRequest(owner.api, spaceId);
    await write(owner.api, spaceId, cr, [
      { operation: 'update_page', page: ids.get('Reference')!, slug: 'api' },
    ]);
    await owner.api.spaces.mergeChangeRequest(spaceId, cr);
    const open = await openHead();
    const node = open.snapshot.content.pages.get(guide)!;
    // Before the fill: the guide's row is the one from before, its link to the page's old path.
    expect(await rowOf(guide, 'v0146')).toEqual(before);
    const expected = await converted(open, node, 'v0146');
    expect(expected).not.toEqual(before?.document);
    expect(await freshReader().body(open, node, 'document', 'v0146')).toEqual({ document: expected });
    // The fill asks the links of pages whose markdown did not change, since a page moved.
    await drain();
    expect((await rowOf(guide, 'v0146'))?.document).toEqual(expected);
    expect((await rowOf(guide, 'render'))?.document).toEqual(await converted(open, node, 'render'));
  });

  it("leaves the rows as they are when a change request's page is read", async () => {
    const guide = ids.get('Guide')!;
    const before = await rowOf(guide, 'v0146');
    const cr = await newChangeRequest(owner.api, spaceId);
    await write(owner.api, spaceId, cr, [
      { operation: 'update_page', page: guide, document: { markdown: 'Only in the change request.' } },
    ]);
    const read = await fetch(
      `${server.url}/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${guide}`,
      {
        headers: { authorization: `Bearer ${owner.token}` },
      },
    );
    expect(JSON.stringify(await read.json())).toContain('Only in the change request.');
    expect(await rowOf(guide, 'v0146')).toEqual(before);
  });

  it('does not use the rows another release of Quire converted; the fill converts every page again', async () => {
    const guide = ids.get('Guide')!;
    const marked = { object: 'document', data: { marked: true }, nodes: [] };
    await db()
      .updateTable('page_documents')
      .set({ converter: 'an older release', document: deflateRawSync(JSON.stringify(marked)) })
      .where('space_id', '=', spaceId)
      .execute();
    await db()
      .updateTable('page_document_fills')
      .set({ converter: 'an older release' })
      .where('space_id', '=', spaceId)
      .execute();
    const open = await openHead();
    const node = open.snapshot.content.pages.get(guide)!;
    const expected = await converted(open, node, 'render');
    expect(await freshReader().body(open, node, 'document', 'render')).toEqual({ document: expected });
    // The tree is the one filled last: only the converter differs.
    expect(await services().documentFill.fill(spaceId)).toBe(2);
    const converter = await services().storedDocuments.converter();
    for (const profile of FILLED_PROFILES) {
      const row = await rowOf(guide, profile);
      expect(row?.converter).toBe(converter);
      expect(row?.document).toEqual(await converted(open, node, profile));
    }
    expect(await services().documentFill.fill(spaceId)).toBe(0);
  });

  it("moves no process's read cache: the fill's writes and its job's change no answer", async () => {
    const cache = server.app.quire.deps.database.cache;
    const generation = async () => {
      await cache.sync();
      return cache.generation();
    };
    await db()
      .updateTable('page_document_fills')
      .set({ converter: 'an older release' })
      .where('space_id', '=', spaceId)
      .execute();
    const before = await generation();
    expect(before).toBeDefined();
    expect(await services().documentFill.fill(spaceId)).toBe(2);
    expect(await generation()).toBe(before);
    // Nor does a job queued, claimed and finished: the queue's rows are read by no cached read.
    await services().jobs.enqueue('content.documents', { spaceId });
    await drain();
    expect(await generation()).toBe(before);
    // Any other write moves it.
    await db().updateTable('spaces').set({ title: 'Kept documents' }).where('id', '=', spaceId).execute();
    expect(await generation()).not.toBe(before);
  });

  it('fills at start-up a space whose rows were never filled, or are behind its revision', async () => {
    await db().deleteFrom('page_documents').where('space_id', '=', spaceId).execute();
    await db().deleteFrom('page_document_fills').where('space_id', '=', spaceId).execute();
    await services().documentFill.started();
    await drain();
    const open = await openHead();
    const guide = open.snapshot.content.pages.get(ids.get('Guide')!)!;
    expect((await rowOf(guide.id, 'v0202'))?.document).toEqual(await converted(open, guide, 'v0202'));
    const fill = await db()
      .selectFrom('page_document_fills')
      .selectAll()
      .where('space_id', '=', spaceId)
      .executeTakeFirstOrThrow();
    expect(fill).toMatchObject({
      tree_hash: open.revision.tree_hash,
      converter: await services().storedDocuments.converter(),
    });
    // Behind: a tree filled last that is no longer the space's, its rows gone.
    await db().deleteFrom('page_documents').where('space_id', '=', spaceId).execute();
    await db()
      .updateTable('page_document_fills')
      .set({ tree_hash: 'a tree gone' })
      .where('space_id', '=', spaceId)
      .execute();
    await services().documentFill.started();
    await drain();
    expect((await rowOf(guide.id, 'render'))?.document).toEqual(await converted(open, guide, 'render'));
  });

  it('removes the rows of a deleted page, and of a purged space', async () => {
    const reference = ids.get('Reference')!;
    const cr = await newChangeRequest(owner.api, spaceId);
    await write(owner.api, spaceId, cr, [{ operation: 'delete_page', page: reference }]);
    await owner.api.spaces.mergeChangeRequest(spaceId, cr);
    await drain();
    for (const profile of FILLED_PROFILES) expect(await rowOf(reference, profile)).toBeUndefined();
    expect(await rowOf(ids.get('Guide')!, 'v0146')).toBeDefined();

    await owner.api.spaces.deleteSpaceById(spaceId);
    clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await services().trash.purge()).spaces).toBeGreaterThanOrEqual(1);
    const left = await db()
      .selectFrom('page_documents')
      .select('page_id')
      .where('space_id', '=', spaceId)
      .execute();
    expect(left).toEqual([]);
    const fills = await db()
      .selectFrom('page_document_fills')
      .select('space_id')
      .where('space_id', '=', spaceId)
      .execute();
    expect(fills).toEqual([]);
  });
});
