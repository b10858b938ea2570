import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_SPACE } from '../../src/auth/access-scope.js';
import { ManualClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import { PostgresSearchIndex } from '../../src/search/postgres-index.js';
import { OrgPostings, orgKey, PENDING_PAGES } from '../../src/search/postings/org-postings.js';
import { PostingsStore } from '../../src/search/postings/store.js';
import { parseQuery, planQuery, stemRequests } from '../../src/search/query.js';
import type { IndexedPage, SearchIndex, SearchScope } from '../../src/search/search-index.js';
import { SqliteSearchIndex } from '../../src/search/sqlite-index.js';
import { insert, seed } from '../helpers/content.js';
import { createOrg, createUser } from '../helpers/factories.js';
import { page, postingsOf, postingsOfNumbered } from '../helpers/postings.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Postings by organization (search/postings/org-postings.ts), on the configured database: after
 * any sequence of writes, drops and moves of its spaces they are what encoding its pages at once,
 * under the numbers it gave them, makes; and an organization's search ranked from them finds what
 * the engine finds.
 */

let server: TestServer;
const clock = new ManualClock('2026-05-01T08:00:00.000Z');
beforeAll(async () => {
  server = await startTestServer({ clock, env: { QUIRE_SEARCH_POSTINGS_PAGES: '0' } });
});
afterAll(async () => {
  await server.close();
});

/** The organization's pages as its spaces' indexes hold them, under the organization's numbers. */
async function numberedPages(db: Db, orgId: string) {
  const rows = await db
    .selectFrom('search_org_pages as o')
    .innerJoin('search_pages as p', (join) =>
      join.onRef('p.space_id', '=', 'o.space_id').onRef('p.num', '=', 'o.num'),
    )
    .innerJoin('search_sections as s', (join) =>
      join.onRef('s.space_id', '=', 'p.space_id').onRef('s.page_id', '=', 'p.page_id'),
    )
    .select(['o.onum', 'p.space_id', 'p.page_id', 'p.title', 's.position', 's.anchor', 's.heading', 's.body'])
    .where('o.org_id', '=', orgId)
    .orderBy('o.onum')
    .orderBy('s.position')
    .execute();
  const pages = new Map<number, { num: number; id: string; page: IndexedPage }>();
  for (const row of rows) {
    const num = Number(row.onum);
    let found = pages.get(num);
    if (!found) {
      found = {
        num,
        id: `${row.space_id}/${row.page_id}`,
        page: { ...page(row.page_id, row.title), sections: [] },
      };
      pages.set(num, found);
    }
    found.page.sections.push({
      position: Number(row.position),
      anchor: row.anchor,
      heading: row.heading,
      text: row.body,
    });
  }
  return [...pages.values()];
}

/**
 * Checks the organization's postings, once its pending pages are written (as a search of it
 * writes them), against its pages encoded at once, and answers which pages they hold.
 */
async function checked(db: Db, orgId: string): Promise<string[]> {
  await db.transaction().execute((tx) => new OrgPostings(db, new PostingsStore(db, true)).settle(tx, orgId));
  expect(
    await db.selectFrom('search_org_pending').select('onum').where('org_id', '=', orgId).execute(),
  ).toEqual([]);
  const numbered = await numberedPages(db, orgId);
  expect(await postingsOf(db, orgKey(orgId))).toEqual(postingsOfNumbered(numbered));
  return numbered.map((n) => n.id).sort();
}

/** An organization's search through `by`, as the owner unless `visibility` says otherwise. */
async function orgSearch(by: SearchIndex, orgId: string, text: string, visibility = EVERY_SPACE) {
  const clauses = parseQuery(text);
  const plan = planQuery(clauses, await by.expansions(['en'], stemRequests(clauses)));
  return by.rank(plan, { org: { orgId, visibility }, includeHidden: false }, undefined, 10);
}

/** A new space of the organization with two pages indexed. */
async function spaceOfTwoPages(owner: Awaited<ReturnType<typeof createUser>>, orgId: string, title: string) {
  const { deps, services } = server.app.quire;
  const spaceId = (await owner.api.orgs.createSpace(orgId, { title } as never)).data.id;
  await deps.db
    .transaction()
    .execute((tx) =>
      services.searchEngine.index.writePages(
        tx,
        spaceId,
        'en',
        [],
        [page('a', `${title} harbour`, 'a lighthouse'), page('b', 'Quay', 'a puffin')],
      ),
    );
  return spaceId;
}

describe('postings by organization', () => {
  it('are after writes, drops and moves of its spaces what one write of its pages makes', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const owner = await createUser(server);
    const orgA = await createOrg(owner, 'Org A');
    const orgB = await createOrg(owner, 'Org B');
    const space = async (orgId: string, title: string) =>
      (await owner.api.orgs.createSpace(orgId, { title } as never)).data.id;
    const [a1, a2, b1, b2] = [
      await space(orgA, 'A1'),
      await space(orgA, 'A2'),
      await space(orgB, 'B1'),
      await space(orgB, 'B2'),
    ];
    const write = (spaceId: string, remove: string[], pages: IndexedPage[]) =>
      deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', remove, pages));
    // More pages than a chunk of the organization's page numbers.
    const many = Array.from({ length: 1100 }, (_, i) =>
      page(
        `p${i}`,
        `Page ${i} ${i % 7 === 0 ? 'webhook' : 'guide'}`,
        `install the package ${i}`,
        `token ${i % 13}`,
      ),
    );
    await write(a1, [], many.slice(0, 600));
    // Its pages all in one space: no postings of its own (that space's serve its search).
    expect((await postingsOf(deps.db, orgKey(orgA))).stats).toBeUndefined();
    await write(a2, [], [page('x', 'Harbour', 'a lighthouse keeper'), page('y', 'Quay', 'the harbour wall')]);
    await write(b1, [], [page('m', 'Meadow', 'a pika in the grass')]);
    await write(b2, [], [page('n', 'Nest', 'a puffin on the cliff')]);
    await write(a1, [], many.slice(600));
    // Changed pages, pages removed, a page added.
    await write(
      a1,
      ['p10', 'p1099'],
      [page('p3', 'Renamed', 'a webhook for the cluster'), page('p-new', 'New', 'quorum')],
    );
    // Written again while its postings wait: they still hold it as it was first.
    await write(a1, [], [page('p3', 'Renamed again', 'a puffin on the quay')]);
    // A2 indexed whole again, as a sync without its previous tree does.
    await deps.db.transaction().execute(async (tx) => {
      await index.dropSpace(tx, a2);
      await index.writePages(
        tx,
        a2,
        'en',
        [],
        [page('y', 'Quay', 'the sea wall'), page('z', 'Pier', 'harbour lights')],
      );
    });
    expect(await checked(deps.db, orgB)).toEqual([`${b1}/m`, `${b2}/n`].sort());
    // B1 moves to A, in the transaction that moves it.
    await deps.db.transaction().execute(async (tx) => {
      await index.spacesMoving(tx, [b1], orgA);
      await tx.updateTable('spaces').set({ org_id: orgA }).where('id', '=', b1).execute();
    });

    const expected = [
      ...many.filter((p) => !['p10', 'p1099'].includes(p.pageId)).map((p) => `${a1}/${p.pageId}`),
      `${a1}/p-new`,
      `${a2}/y`,
      `${a2}/z`,
      `${b1}/m`,
    ].sort();
    expect(await checked(deps.db, orgA)).toEqual(expected);
    expect(await checked(deps.db, orgB)).toEqual([`${b2}/n`]);
    // Two chunks of page numbers, and more than a chunk's worth of pages numbered since.
    expect(new Set((await postingsOf(deps.db, orgKey(orgA))).rows.map((row) => row.chunk))).toEqual(
      new Set([0, 1]),
    );

    // Built anew from the spaces' indexes (a chunk of pages a write, across spaces): the same pages.
    await deps.db.transaction().execute((tx) => index.buildOrgPostings(tx, orgA));
    expect(await checked(deps.db, orgA)).toEqual(expected);

    // A space's index dropped: its pages leave.
    await deps.db.transaction().execute((tx) => index.dropSpace(tx, a1));
    expect(await checked(deps.db, orgA)).toEqual([`${a2}/y`, `${a2}/z`, `${b1}/m`].sort());
  });

  it("are not kept for an organization whose pages are all in one space: its search reads that space's", async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const engine: SearchIndex =
      deps.dialect === 'postgres' ? new PostgresSearchIndex(deps.db) : new SqliteSearchIndex(deps.db);
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Alone' } as never)).data.id;
    await owner.api.orgs.createSpace(orgId, { title: 'Empty' } as never);
    const pages = [
      page('a', 'Lighthouse', 'the keeper climbs'),
      page('b', 'Keeper', 'lamps'),
      page('c', 'Tide', 'tables'),
    ];
    pages[1]!.hidden = true;
    await deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', [], pages));
    expect((await postingsOf(deps.db, orgKey(orgId))).stats).toBeUndefined();
    expect(await index.orgPostingsBehind(1000)).not.toContain(orgId);
    const found = async (by: SearchIndex, text: string, visibility = EVERY_SPACE) => {
      const ranked = await orgSearch(by, orgId, text, visibility);
      return { total: ranked.total, pages: ranked.pages.map((p) => `${p.spaceId}/${p.pageId}`).sort() };
    };
    expect(await found(index, 'keeper')).toEqual({ total: 1, pages: [`${spaceId}/a`] });
    expect(await found(index, 'keeper')).toEqual(await found(engine, 'keeper'));
    // Closed to a member: nothing.
    const closed = { ...EVERY_SPACE, all: false };
    expect(await found(index, 'keeper', closed)).toEqual({ total: 0, pages: [] });
    expect(await found(engine, 'keeper', closed)).toEqual({ total: 0, pages: [] });
    // Ranked from the space's postings: without the word's rows, nothing.
    await deps.db
      .deleteFrom('search_postings')
      .where('space_id', '=', spaceId)
      .where('term', '=', 'keeper')
      .execute();
    await deps.db
      .updateTable('search_space_stats')
      .set({ generation: 7 })
      .where('space_id', '=', spaceId)
      .execute();
    await deps.database.cache.sync();
    expect((await found(index, 'keeper')).total).toBe(0);
    expect((await found(engine, 'keeper')).total).toBe(1);
  });

  it('stay whole when spaces of one organization are indexed side by side', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const spaces: string[] = [];
    for (let s = 0; s < 6; s++)
      spaces.push((await owner.api.orgs.createSpace(orgId, { title: `Side ${s}` } as never)).data.id);
    // Each transaction on its own connection (PostgreSQL): they read and write the same chunk rows.
    await Promise.all(
      spaces.map((spaceId, s) =>
        deps.db
          .transaction()
          .execute((tx) =>
            index.writePages(
              tx,
              spaceId,
              'en',
              [],
              [page('a', `Side ${s}`, 'the harbour wall'), page('b', 'Quay', 'a pika')],
            ),
          ),
      ),
    );
    expect(await checked(deps.db, orgId)).toEqual(spaces.flatMap((id) => [`${id}/a`, `${id}/b`]).sort());
  });

  it('are written once when searches of the organization find its pages pending side by side', async () => {
    const { deps } = server.app.quire;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    // The second space's write builds them; the next two spaces' pages wait.
    for (const title of ['First', 'Second', 'Third', 'Fourth']) await spaceOfTwoPages(owner, orgId, title);
    expect(
      (await deps.db.selectFrom('search_org_pending').select('onum').where('org_id', '=', orgId).execute())
        .length,
    ).toBe(4);
    // As searches write what is pending first, each on its own connection (PostgreSQL).
    const orgPostings = new OrgPostings(deps.db, new PostingsStore(deps.db, true));
    await Promise.all(
      Array.from({ length: 4 }, () => deps.db.transaction().execute((tx) => orgPostings.settle(tx, orgId))),
    );
    expect(await checked(deps.db, orgId)).toHaveLength(8);
  });

  it("take its spaces' changes PENDING_PAGES at a time, or at its next search", async () => {
    const { deps, services } = server.app.quire;
    const index = services.searchEngine.index;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const write = (title: string) => spaceOfTwoPages(owner, orgId, title);
    // The second space's write builds them (a small organization).
    await write('First');
    await write('Second');
    const pending = async () =>
      (await deps.db.selectFrom('search_org_pending').select('onum').where('org_id', '=', orgId).execute())
        .length;
    const held = async () => (await postingsOf(deps.db, orgKey(orgId))).stats?.pages;
    expect(await pending()).toBe(0);
    expect(await held()).toBe(4);
    const third = await write('Third');
    expect(await pending()).toBe(2);
    expect(await held()).toBe(4);
    await deps.database.cache.sync();
    const ranked = await orgSearch(index, orgId, 'lighthouse');
    expect(ranked.total).toBe(3);
    expect(ranked.pages.map((p) => p.spaceId)).toContain(third);
    expect(await pending()).toBe(0);
    expect(await held()).toBe(6);
    // Spaces of two pages wait until one makes PENDING_PAGES, written with it.
    const waiting = PENDING_PAGES / 2 - 1;
    for (let i = 0; i < waiting; i++) await write(`Batch ${i}`);
    expect(await pending()).toBe(2 * waiting);
    expect(await held()).toBe(6);
    await write('Batch last');
    expect(await pending()).toBe(0);
    expect(await held()).toBe(6 + PENDING_PAGES);
    expect(await checked(deps.db, orgId)).toHaveLength(6 + PENDING_PAGES);
  });

  it('are built by the reconcile job for an organization indexed without them, equal to those writes keep', async () => {
    const { deps, services } = server.app.quire;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    for (const title of ['North', 'South']) {
      const { data: space } = await owner.api.orgs.createSpace(orgId, { title } as never);
      await seed(owner.api, space.id, [
        insert(`${title} harbour`, 'A lighthouse keeper watches the harbour.'),
        insert(`${title} quay`, '## Walls\n\nThe harbour wall and the quay.'),
      ]);
    }
    await services.searchEngine.reconcile();
    const kept = await checked(deps.db, orgId);
    expect(kept).toHaveLength(4);
    // As an install indexed before postings by organization left it.
    for (const table of ['search_postings', 'search_terms', 'search_space_stats'] as const)
      await deps.db.deleteFrom(table).where('space_id', '=', orgKey(orgId)).execute();
    await deps.db.deleteFrom('search_org_pages').where('org_id', '=', orgId).execute();
    expect(await services.searchEngine.index.orgPostingsBehind(1000)).toContain(orgId);
    await services.searchEngine.reconcile();
    expect(await checked(deps.db, orgId)).toEqual(kept);
    expect(await services.searchEngine.index.orgPostingsBehind(1000)).not.toContain(orgId);
  });

  it("rank an organization's search as the engine does: hidden pages, deleted spaces and closed ones left out, pages of results continued", async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const engine: SearchIndex =
      deps.dialect === 'postgres' ? new PostgresSearchIndex(deps.db) : new SqliteSearchIndex(deps.db);
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const ids: string[] = [];
    for (let s = 0; s < 6; s++) {
      const spaceId = (await owner.api.orgs.createSpace(orgId, { title: `Coast ${s}` } as never)).data.id;
      ids.push(spaceId);
      const pages = Array.from({ length: 5 }, (_, i) =>
        page(
          `c${i}`,
          i === 0 ? 'Lighthouse keeper' : `Chart ${s}-${i}`,
          `the ${i % 2 ? 'harbour' : 'lighthouse'} at night`,
          `${i % 3 ? 'keeper' : 'tide'} tables of space ${s}`,
        ),
      );
      pages[4]!.hidden = s % 2 === 0;
      await deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', [], pages));
    }
    await owner.api.spaces.deleteSpaceById(ids[5]!);
    const ranked = async (by: SearchIndex, text: string, scope: SearchScope, limit = 100) => {
      const clauses = parseQuery(text);
      const plan = planQuery(clauses, await by.expansions(['en'], stemRequests(clauses)));
      const first = await by.rank(plan, scope, undefined, limit);
      const pages = first.pages.map((p) => ({ page: `${p.spaceId}/${p.pageId}`, score: p.score }));
      let { more } = first;
      while (more) {
        const last = first.pages.at(-1)!;
        const next = await by.rank(
          plan,
          scope,
          { score: pages.at(-1)!.score, spaceId: last.spaceId, pageId: last.pageId },
          limit,
        );
        pages.push(...next.pages.map((p) => ({ page: `${p.spaceId}/${p.pageId}`, score: p.score })));
        first.pages = next.pages;
        more = next.more;
      }
      return { total: first.total, pages: pages.map((p) => p.page) };
    };
    const scopes: SearchScope[] = [
      { org: { orgId, visibility: EVERY_SPACE }, includeHidden: false },
      { org: { orgId, visibility: EVERY_SPACE }, includeHidden: true },
      // A member to whom one space is closed: granted the others.
      {
        org: { orgId, visibility: { ...EVERY_SPACE, all: false, spaces: ids.filter((id) => id !== ids[1]) } },
        includeHidden: false,
      },
    ];
    let compared = 0;
    for (const scope of scopes)
      for (const text of [
        'keeper',
        'harbour',
        'lighthouse keeper',
        '"lighthouse keeper"',
        'keep',
        'tide -harbour',
        'chart',
      ]) {
        const ours = await ranked(index, text, scope);
        const theirs = await ranked(engine, text, scope);
        // The two rank with their own statistics: the same pages, in an order that may differ.
        expect([...ours.pages].sort(), text).toEqual([...theirs.pages].sort());
        expect(ours.total, text).toBe(theirs.total);
        expect(ours.pages.length, text).toBe(ours.total);
        // Pages of two results each: every page once.
        const paged = await ranked(index, text, scope, 2);
        expect(paged.pages, text).toEqual(ours.pages);
        if (ours.total > 0) compared++;
        for (const left of ours.pages) expect(left.startsWith(ids[5]!), text).toBe(false);
        if (!scope.includeHidden) expect(ours.pages, text).not.toContain(`${ids[0]}/c4`);
        if (!scope.org?.visibility.all)
          expect(
            ours.pages.some((p) => p.startsWith(ids[1]!)),
            text,
          ).toBe(false);
      }
    expect(compared).toBeGreaterThanOrEqual(18);
    // Ranked from the postings: without a word's rows, the organization's search finds nothing of it.
    await deps.db
      .deleteFrom('search_postings')
      .where('space_id', '=', orgKey(orgId))
      .where('term', '=', 'keeper')
      .execute();
    await deps.db
      .updateTable('search_space_stats')
      .set({ generation: 7 })
      .where('space_id', '=', orgKey(orgId))
      .execute();
    await deps.database.cache.sync();
    expect((await ranked(index, 'keeper', scopes[0]!)).total).toBe(0);
    expect((await ranked(engine, 'keeper', scopes[0]!)).total).toBeGreaterThan(0);
  });

  it('lose the pages of a space purged from the trash, in the purge; a deleted space is left out of searches until then', async () => {
    const { deps, services } = server.app.quire;
    const index = services.searchEngine.index;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const ids: string[] = [];
    for (const title of ['Kept', 'Binned', 'Also kept']) {
      const spaceId = (await owner.api.orgs.createSpace(orgId, { title } as never)).data.id;
      ids.push(spaceId);
      await deps.db
        .transaction()
        .execute((tx) =>
          index.writePages(tx, spaceId, 'en', [], [page('a', `${title} harbour`, 'a lighthouse')]),
        );
    }
    const found = async () => {
      await deps.database.cache.sync();
      const ranked = await orgSearch(index, orgId, 'harbour');
      return { total: ranked.total, spaces: ranked.pages.map((p) => p.spaceId).sort() };
    };
    expect(await found()).toEqual({ total: 3, spaces: [...ids].sort() });
    await owner.api.spaces.deleteSpaceById(ids[1]!);
    expect(await found()).toEqual({ total: 2, spaces: [ids[0]!, ids[2]!].sort() });
    // Still indexed while it can be restored.
    expect((await checked(deps.db, orgId)).length).toBe(3);
    clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await services.trash.purge()).spaces).toBeGreaterThanOrEqual(1);
    expect(await checked(deps.db, orgId)).toEqual([`${ids[0]}/a`, `${ids[2]}/a`].sort());
    expect(await found()).toEqual({ total: 2, spaces: [ids[0]!, ids[2]!].sort() });
    const left = await deps.db
      .selectFrom('search_pages')
      .select('page_id')
      .where('space_id', '=', ids[1]!)
      .execute();
    expect(left).toEqual([]);
  });
});
