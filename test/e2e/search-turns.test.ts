import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import type { SearchRequest } from '../../src/search/engine.js';
import { TimeSlices } from '../../src/time-slices.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A runbook page as GitBook writes it: front matter, a hint, a stepper, a table. */
function runbook(n: number): string {
  return `---
description: Restoring replica ${n} of the cluster after a failover.
---

# Replica ${n}

When replica ${n} falls behind, the cluster stops routing reads to it — the “failover” it waits for.

{% hint style="warning" %}
Never promote a replica that is more than one **failover** behind.
{% endhint %}

## Restore

{% stepper %}
{% step %}
### Stop the replica

Run \`quire replica stop ${n}\` on its host.
{% endstep %}

{% step %}
### Copy the snapshot

The snapshot of the last failover is copied from the primary.
{% endstep %}
{% endstepper %}

| Setting | Default |
| ------- | ------- |
| \`lag\` | 30 s |
`;
}

describe('a search on the server thread', () => {
  let server: TestServer;
  let owner: TestUser;
  let spaceId: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Turns owner' });
    const orgId = await createOrg(owner, 'Turns org');
    spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Runbooks' })).data.id;
    const { services } = server.app.quire;
    const actor: Actor = { userId: owner.id, tokenId: 'test', email: owner.email };
    const cr = await services.changeRequests.create(actor, spaceId, { subject: 'Runbooks' });
    await services.contentWrites.apply(
      actor,
      spaceId,
      cr.row.id,
      Array.from({ length: 80 }, (_, n) => ({
        operation: 'insert_page' as const,
        title: `Replica ${n}`,
        document: { markdown: runbook(n) },
      })),
    );
    await services.merges.merge(actor, spaceId, cr.row.id);
    await services.searchEngine.indexer.sync(spaceId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('hands the thread over between its steps once its slice is over, and answers the same', async () => {
    const engine = server.app.quire.services.searchEngine;
    const request: SearchRequest = {
      query: 'failover snapshot',
      scope: { spaceIds: [spaceId], includeHidden: false },
      languages: ['en'],
      scopeKey: `space:${spaceId}`,
    };
    const whole = await engine.search(request, new TimeSlices(Number.POSITIVE_INFINITY));
    expect(whole.hits).toHaveLength(80);
    expect(whole.hits[0]!.sections[0]!.body).toContain('<mark>');

    // Turns of the event loop counted while a search with slices of no time runs: one at least
    // before each hit is highlighted.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const before = turns;
    const sliced = await engine.search(request, new TimeSlices(0));
    ticking = false;
    expect(sliced).toEqual(whole);
    expect(turns - before).toBeGreaterThanOrEqual(whole.hits.length);
  });

  it('sends a long answer whole, in gzip and without, as the official schema describes it', async () => {
    const path = `/v1/spaces/${spaceId}/search?query=${encodeURIComponent('replica “failover”')}&limit=100`;
    // Through the official client: its answer validated against both schema versions.
    const { data } = await owner.api.spaces.searchSpaceContent(spaceId, {
      query: 'replica “failover”',
      limit: 100,
    });
    expect(data.items).toHaveLength(80);
    const texts: string[] = [];
    for (const encoding of ['identity', 'gzip']) {
      const response = await fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': encoding },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding') ?? 'identity').toBe(encoding);
      const text = await response.text();
      if (encoding === 'identity')
        expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      texts.push(text);
    }
    // Long enough to be sent as bytes made in pieces (validators.ts), with characters beyond Latin-1.
    expect(texts[0]!.length).toBeGreaterThan(64 * 1024);
    expect(texts[0]).toContain('“');
    expect(texts[1]).toBe(texts[0]);
    expect(JSON.parse(texts[0]!)).toEqual(data);
  });
});
