import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContentChange } from '../../src/areas/change-requests/content-schemas.js';
import type { Actor } from '../../src/auth/actor.js';
import { SearchIndexer } from '../../src/search/indexer.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A page as GitBook writes it: front matter, a hint, a table, a figure. */
function page(n: number, word = 'records'): string {
  return `---
description: How importer ${n} reads ${word}.
---

# Importer ${n}

The importer ${n} reads **${word}** from the [queue](../queue.md).

{% hint style="warning" %}
An import stops at the first malformed ${word === 'records' ? 'record' : word}.
{% endhint %}

## Settings

| Setting | Default |
| ------- | ------- |
| \`batch\` | 100 |

<figure><img src="../.gitbook/assets/import-${n}.png" alt="The import screen"><figcaption><p>The import screen</p></figcaption></figure>
`;
}

describe('search index sync in steps', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;
  let actor: Actor;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Steps owner' });
    orgId = await createOrg(owner, 'Steps org');
    actor = { userId: owner.id, tokenId: 'test', email: owner.email };
  });
  afterAll(async () => {
    await server.close();
  });

  const sqlite = () => server.app.quire.deps.dialect === 'sqlite';

  /** An indexer with small steps, so that a few hundred pages make many. */
  function indexer(): SearchIndexer {
    const { deps, services } = server.app.quire;
    return new SearchIndexer(
      deps,
      { store: services.store, openapi: services.openapi },
      services.searchEngine.index,
      { pages: 16, places: 8 },
    );
  }

  /** Changes merged through a change request; the pages created, by ref. */
  async function merge(spaceId: string, changes: ContentChange[]): Promise<Map<string, string>> {
    const { services } = server.app.quire;
    const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Importers' });
    const created = new Map<string, string>();
    const outcome = await services.contentWrites.apply(actor, spaceId, cr.row.id, changes);
    for (const change of outcome.changes)
      if (change.object === 'created_page' && change.ref) created.set(change.ref, change.page);
    expect((await services.merges.merge(actor, spaceId, cr.row.id)).result).toBe('merge');
    return created;
  }

  async function row(spaceId: string) {
    const { db } = server.app.quire.deps;
    const [space, index] = await Promise.all([
      db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow(),
      db
        .selectFrom('search_spaces')
        .select(['revision_id', 'pending_revision_id'])
        .where('space_id', '=', spaceId)
        .executeTakeFirst(),
    ]);
    return { current: space.revision_id, ...index };
  }

  /** What the index holds of a space, without the numbers it gave pages, and what searches find. */
  async function indexed(spaceId: string) {
    const { db } = server.app.quire.deps;
    const pages = await db
      .selectFrom('search_pages')
      .select(['page_id', 'title', 'description', 'path', 'ancestors', 'hidden'])
      .where('space_id', '=', spaceId)
      .orderBy('page_id')
      .execute();
    const sections = await db
      .selectFrom('search_sections')
      .select(['page_id', 'position', 'anchor', 'heading', 'body'])
      .where('space_id', '=', spaceId)
      .orderBy('page_id')
      .orderBy('position')
      .execute();
    const found: Record<string, string[]> = {};
    for (const query of ['quokka', 'importer 7', 'vault', 'archive', 'records']) {
      const { data } = await owner.api.spaces.searchSpaceContent(spaceId, { query });
      found[query] = data.items.map((hit) => `${hit.title} ${hit.path}`).sort();
    }
    return { pages, sections, found };
  }

  it('writes a large sync in steps on SQLite, answering other requests between them', async () => {
    const { services } = server.app.quire;
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Imports' })).data.id;
    await merge(
      spaceId,
      Array.from({ length: 200 }, (_, n) => ({
        operation: 'insert_page' as const,
        title: `Importer ${n}`,
        document: { markdown: page(n) },
      })),
    );
    const index = services.searchEngine.index;
    const original = index.writePages.bind(index);
    const order: string[] = [];
    let writes = 0;
    let asked: Promise<unknown> | undefined;
    const writePages = vi.spyOn(index, 'writePages').mockImplementation(async (...args) => {
      // Asked once the sync writes: on SQLite it is answered between two steps, not after all.
      asked ??= owner.api.spaces.getSpaceById(spaceId).then(() => order.push('answered'));
      writes++;
      return original(...args);
    });
    try {
      expect(await indexer().sync(spaceId)).toBe('updated');
      order.push('synced');
      await asked;
    } finally {
      writePages.mockRestore();
    }
    if (sqlite()) {
      expect(writes).toBe(Math.ceil(200 / 16));
      expect(order).toEqual(['answered', 'synced']);
    } else {
      expect(writes).toBe(1);
    }
    const state = await row(spaceId);
    expect(state).toMatchObject({ revision_id: state.current, pending_revision_id: null });
    const found = await owner.api.spaces.searchSpaceContent(spaceId, { query: 'importer 137' });
    expect(found.data.items.map((hit) => hit.title)).toContain('Importer 137');
  });

  it('finishes a sync that stopped between two steps, as if it had run whole', async () => {
    const { services } = server.app.quire;
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Stopped imports' })).data.id;
    const ids = await merge(spaceId, [
      {
        operation: 'insert_page',
        title: 'Archive',
        ref: 'archive',
        document: { markdown: 'Old importers.' },
      },
      ...Array.from({ length: 100 }, (_, n) => ({
        operation: 'insert_page' as const,
        title: `Importer ${n}`,
        ref: `p${n}`,
        ...(n >= 80 ? { into: 'archive' } : {}),
        document: { markdown: page(n) },
      })),
    ]);
    await indexer().sync(spaceId);
    const first = await row(spaceId);

    // A second revision: 60 pages reworded, 10 deleted, and the parent of 20 renamed (their
    // paths and ancestors change without their text).
    await merge(spaceId, [
      ...Array.from({ length: 60 }, (_, n) => ({
        operation: 'update_page' as const,
        page: ids.get(`p${n}`)!,
        document: { markdown: page(n, 'quokka') },
      })),
      ...Array.from({ length: 10 }, (_, n) => ({
        operation: 'delete_page' as const,
        page: ids.get(`p${60 + n}`)!,
      })),
      { operation: 'update_page', page: ids.get('archive')!, title: 'Vault', slug: 'vault' },
    ]);
    const second = (await row(spaceId)).current;

    // Its sync stops while it gives the renamed parent's pages their new places, after it wrote
    // the pages: the process stopped, that transaction never committed.
    const index = services.searchEngine.index;
    const original = index.movePages.bind(index);
    let moves = 0;
    // On PostgreSQL the places are one write, in the sync's one transaction.
    const stopAt = sqlite() ? 2 : 1;
    const movePages = vi.spyOn(index, 'movePages').mockImplementation(async (...args) => {
      if (++moves === stopAt) throw new Error('the process stopped');
      return original(...args);
    });
    try {
      await expect(indexer().sync(spaceId)).rejects.toThrow('the process stopped');
    } finally {
      movePages.mockRestore();
    }
    if (sqlite()) {
      // Steps written, and the mark of the revision they belong to.
      expect(await row(spaceId)).toMatchObject({
        revision_id: first.revision_id,
        pending_revision_id: second,
      });
    } else {
      // One transaction: nothing written.
      expect(await row(spaceId)).toMatchObject({ revision_id: first.revision_id, pending_revision_id: null });
    }

    // A third revision takes page 0 and the parent back to what they were in the first: from the
    // first revision to the third they did not change, though the stopped sync wrote them.
    await merge(spaceId, [
      { operation: 'update_page', page: ids.get('p0')!, document: { markdown: page(0) } },
      { operation: 'update_page', page: ids.get('archive')!, title: 'Archive', slug: 'archive' },
    ]);
    expect(await indexer().sync(spaceId)).toBe('updated');
    const third = await row(spaceId);
    expect(third).toMatchObject({ revision_id: third.current, pending_revision_id: null });

    const afterSteps = await indexed(spaceId);
    expect(afterSteps.pages).toHaveLength(91);
    expect(afterSteps.found.quokka).not.toContain('Importer 0 importer-0');
    expect(afterSteps.found.quokka).toContain('Importer 1 importer-1');
    expect(afterSteps.found.vault).toEqual([]);
    // The stopped sync gave some of the pages below the parent its new name: they have the old again.
    expect(afterSteps.pages.filter((p) => p.path.startsWith('vault/'))).toEqual([]);
    expect(afterSteps.pages.find((p) => p.page_id === ids.get('p85'))).toMatchObject({
      path: 'archive/importer-85',
      ancestors: JSON.stringify(['Archive']),
    });

    // The same as the space indexed whole from its current revision.
    await server.app.quire.deps.db
      .updateTable('search_spaces')
      .set({ version: 0 })
      .where('space_id', '=', spaceId)
      .execute();
    expect(await indexer().sync(spaceId)).toBe('updated');
    expect(await indexed(spaceId)).toEqual(afterSteps);
  });
  it('finishes a stopped sync at the next reconciliation, though nothing changed since', async () => {
    const { services } = server.app.quire;
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Reconciled imports' })).data.id;
    await merge(spaceId, [
      { operation: 'insert_page', title: 'Overview', document: { markdown: 'Imports.' } },
    ]);
    await indexer().sync(spaceId);
    await merge(
      spaceId,
      Array.from({ length: 80 }, (_, n) => ({
        operation: 'insert_page' as const,
        title: `Importer ${n}`,
        document: { markdown: page(n, 'wombat') },
      })),
    );
    const index = services.searchEngine.index;
    const original = index.writePages.bind(index);
    let writes = 0;
    // On PostgreSQL the sync is one write.
    const stopAt = sqlite() ? 3 : 1;
    const writePages = vi.spyOn(index, 'writePages').mockImplementation(async (...args) => {
      if (++writes === stopAt) throw new Error('the process stopped');
      return original(...args);
    });
    try {
      await expect(indexer().sync(spaceId)).rejects.toThrow('the process stopped');
    } finally {
      writePages.mockRestore();
    }
    const stopped = await row(spaceId);
    // On SQLite, steps written; on PostgreSQL, nothing.
    expect(stopped.pending_revision_id).toBe(sqlite() ? stopped.current : null);
    expect(stopped.revision_id).not.toBe(stopped.current);

    // The index's row names the space's current revision as the one being written: it is behind.
    await services.searchEngine.reconcile();
    const finished = await row(spaceId);
    expect(finished).toMatchObject({ revision_id: finished.current, pending_revision_id: null });
    const { data } = await owner.api.spaces.searchSpaceContent(spaceId, { query: 'wombat' });
    expect(data.items).toHaveLength(80);
  });
});
