import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContentChange } from '../../src/areas/change-requests/content-schemas.js';
import type { Actor } from '../../src/auth/actor.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A search syncs the index of the spaces it covers before it answers, so a reader finds what was
 * just merged: a small change only. A large one (an import) is left to the background job its
 * merge queued, and the search answers at once from the index as it was.
 */

/** A page as GitBook writes it: front matter, a hint, a step list. */
function page(n: number, word: string): string {
  return `---
description: Runbook ${n} for the ${word} rotation.
---

# Runbook ${n}

Rotate the **${word}** keys before the window closes.

{% hint style="info" %}
The ${word} rotation pauses writes for a few seconds.
{% endhint %}

{% stepper %}
{% step %}
### Drain

Stop the ${word} consumers.
{% endstep %}

{% step %}
### Rotate

Issue new keys.
{% endstep %}
{% endstepper %}
`;
}

const pages = (count: number, word: string, from = 0): ContentChange[] =>
  Array.from({ length: count }, (_, i) => ({
    operation: 'insert_page' as const,
    title: `Runbook ${from + i}`,
    document: { markdown: page(from + i, word) },
  }));

describe('a search catching up with merges', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;
  let actor: Actor;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Catch-up owner' });
    orgId = await createOrg(owner, 'Catch-up org');
    actor = { userId: owner.id, tokenId: 'test', email: owner.email };
  });
  afterAll(async () => {
    await server.close();
  });

  async function merge(spaceId: string, changes: ContentChange[]): Promise<void> {
    const { services } = server.app.quire;
    const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Runbooks' });
    await services.contentWrites.apply(actor, spaceId, cr.row.id, changes);
    expect((await services.merges.merge(actor, spaceId, cr.row.id)).result).toBe('merge');
  }

  async function found(spaceId: string, query: string): Promise<{ titles: string[]; count: number }> {
    const { data } = await owner.api.spaces.searchSpaceContent(spaceId, { query, limit: 100 });
    let count = data.items.length;
    let next = data.next?.page;
    while (next) {
      const more = await owner.api.spaces.searchSpaceContent(spaceId, { query, limit: 100, page: next });
      count += more.data.items.length;
      next = more.data.next?.page;
    }
    return { titles: data.items.map((hit) => hit.title).sort(), count };
  }

  /** The space's search jobs, run here (the tests' server runs no worker). */
  async function runJobs(): Promise<void> {
    const { jobs } = server.app.quire.services;
    while ((await jobs.runDue()) > 0);
  }

  it('finds a small merge at once, and leaves a large one to the background', async () => {
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Runbooks' })).data.id;
    await merge(spaceId, pages(3, 'ledger'));
    // Never indexed, three pages: indexed by the search itself.
    expect(await found(spaceId, 'ledger')).toEqual({
      titles: ['Runbook 0', 'Runbook 1', 'Runbook 2'],
      count: 3,
    });

    // An import of 60 pages: the search answers from the index as it was, without them.
    await merge(spaceId, pages(60, 'vault', 3));
    expect(await found(spaceId, 'vault')).toEqual({ titles: [], count: 0 });
    expect((await found(spaceId, 'ledger')).count).toBe(3);
    // The merge's job indexes them.
    await runJobs();
    expect((await found(spaceId, 'vault')).count).toBe(60);

    // Small again: found at once.
    await merge(spaceId, pages(2, 'quokka', 63));
    expect(await found(spaceId, 'quokka')).toEqual({ titles: ['Runbook 63', 'Runbook 64'], count: 2 });
  });

  it('answers at once for a large space never indexed, which the job then indexes', async () => {
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Imported' })).data.id;
    await merge(spaceId, pages(80, 'harbour'));
    expect(await found(spaceId, 'harbour')).toEqual({ titles: [], count: 0 });
    await runJobs();
    expect((await found(spaceId, 'harbour')).count).toBe(80);
  });

  it('does not wait for a sync of the space under way in the process', async () => {
    const { services } = server.app.quire;
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Held' })).data.id;
    await merge(spaceId, pages(2, 'lantern'));
    expect((await found(spaceId, 'lantern')).count).toBe(2);
    await merge(spaceId, pages(2, 'beacon', 2));
    // The job's sync reads the pages' markdown outside its transaction: held there.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading!: () => void;
    const reached = new Promise<void>((resolve) => {
      reading = resolve;
    });
    const readBodies = services.store.readBodies.bind(services.store);
    const spy = vi.spyOn(services.store, 'readBodies').mockImplementation(async (...args) => {
      reading();
      await held;
      return readBodies(...args);
    });
    try {
      const job = services.searchEngine.indexer.sync(spaceId);
      await reached;
      // Were the search to wait for the held sync, it would never answer.
      expect(await found(spaceId, 'beacon')).toEqual({ titles: [], count: 0 });
      expect((await found(spaceId, 'lantern')).count).toBe(2);
      release();
      expect(await job).toBe('updated');
    } finally {
      release();
      spy.mockRestore();
    }
    expect((await found(spaceId, 'beacon')).count).toBe(2);
  });
});
