import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A page as GitBook writes it: front matter, a hint, tabs, a table, code. */
function page(n: number): string {
  return `---
description: How the exporter ${n} moves records between stores.
---

# Exporter ${n}

The exporter ${n} copies **records** from the primary store to the [archive](../archive.md).

{% hint style="info" %}
Exports run nightly; a manual run waits for the nightly one to end.
{% endhint %}

{% tabs %}
{% tab title="CLI" %}
\`\`\`bash
quire export --store primary --target archive-${n}
\`\`\`
{% endtab %}

{% tab title="API" %}
Send a \`POST\` to \`/exports\` with the store's id.
{% endtab %}
{% endtabs %}

## Limits

| Setting | Default | Meaning |
| ------- | ------- | ------- |
| \`batch\` | 500 | Records copied per transaction |
| \`timeout\` | 30 s | How long one batch may take |

<figure><img src="../.gitbook/assets/export-${n}.png" alt="The export screen"><figcaption><p>The export screen</p></figcaption></figure>
`;
}

describe('search index sync of many pages', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Sync owner' });
    orgId = await createOrg(owner, 'Sync org');
  });
  afterAll(async () => {
    await server.close();
  });

  it('parses its pages in slices, so the server goes on with other work between them', async () => {
    const { services } = server.app.quire;
    const actor: Actor = { userId: owner.id, tokenId: 'test', email: owner.email };
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Exports' })).data.id;
    const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Exporters' });
    await services.contentWrites.apply(
      actor,
      spaceId,
      cr.row.id,
      Array.from({ length: 200 }, (_, n) => ({
        operation: 'insert_page' as const,
        title: `Exporter ${n}`,
        document: { markdown: page(n) },
      })),
    );
    await services.merges.merge(actor, spaceId, cr.row.id);

    // Turns of the event loop counted while the sync parses: from the bodies read (the start of
    // its parsing) to the pages written (its end). Parsed at once, no turn comes between them.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    let parseStart = -1;
    let parseEnd = -1;
    const original = services.store.readBodies.bind(services.store);
    const readBodies = vi.spyOn(services.store, 'readBodies').mockImplementation(async (db, hashes) => {
      const bodies = await original(db, hashes);
      if (hashes.length === 200) parseStart = turns;
      return bodies;
    });
    const index = services.searchEngine.index;
    const writeOriginal = index.writePages.bind(index);
    const writePages = vi.spyOn(index, 'writePages').mockImplementation(async (...args) => {
      if (parseEnd < 0) parseEnd = turns;
      return writeOriginal(...args);
    });
    setImmediate(tick);
    try {
      expect(await services.searchEngine.indexer.sync(spaceId)).toBe('updated');
    } finally {
      ticking = false;
      readBodies.mockRestore();
      writePages.mockRestore();
    }
    expect(parseStart).toBeGreaterThanOrEqual(0);
    expect(parseEnd - parseStart).toBeGreaterThan(0);

    const found = await owner.api.spaces.searchSpaceContent(spaceId, { query: 'exporter 137' });
    expect(found.data.items.map((hit) => hit.title)).toContain('Exporter 137');
  });
});
