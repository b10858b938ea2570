import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sectionHits } from '../../src/search/engine.js';
import { Highlighter } from '../../src/search/highlight.js';
import { PostgresSearchIndex } from '../../src/search/postgres-index.js';
import { parseQuery, planQuery, stemRequests } from '../../src/search/query.js';
import type { IndexedPage, SearchIndex } from '../../src/search/search-index.js';
import { SqliteSearchIndex } from '../../src/search/sqlite-index.js';
import { insert, seed } from '../helpers/content.js';
import { createOrg, createUser } from '../helpers/factories.js';
import { page, postingsFrom, postingsOf } from '../helpers/postings.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The postings a space's index keeps (search/postings/store.ts), on the configured database: after
 * any sequence of writes they are exactly what indexing the space's final pages at once writes.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_SEARCH_POSTINGS_PAGES: '0' } });
});
afterAll(async () => {
  await server.close();
});

describe('search postings', () => {
  it('are after many writes what one write of the final pages makes', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const write = (spaceId: string, remove: string[], pages: IndexedPage[]) =>
      deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', remove, pages));
    // Enough pages for three chunks of page numbers.
    const many = Array.from({ length: 2100 }, (_, i) =>
      page(
        `p${i}`,
        `Page ${i} ${i % 7 === 0 ? 'webhook' : 'guide'}`,
        `install the package ${i}`,
        `token ${i % 13} deploy`,
      ),
    );
    const spaceId = 'postings-many-writes';
    await deps.db.transaction().execute((tx) => index.dropSpace(tx, spaceId));
    await write(spaceId, [], many.slice(0, 1500));
    await write(spaceId, [], many.slice(1500));
    // Changed pages in every chunk, pages removed (the last one's number is given again), added.
    const changed = [3, 1030, 2050].map((i) =>
      page(`p${i}`, `Renamed ${i}`, 'a webhook for the cluster', 'quorum'),
    );
    await write(spaceId, ['p10', 'p1500', 'p2099'], changed);
    const added = [page('p-new', 'Brand new', 'install quorum tokens'), page('p-newer', 'Newer', 'alpha')];
    await write(spaceId, [], added);
    await write(spaceId, ['p-newer'], []);

    const final = new Map(many.map((p) => [p.pageId, p]));
    for (const gone of ['p10', 'p1500', 'p2099']) final.delete(gone);
    for (const p of changed) final.set(p.pageId, p);
    final.set('p-new', added[0]!);
    // The same pages under the same numbers, written at once.
    const nums = await deps.db
      .selectFrom('search_pages')
      .select(['page_id', 'num'])
      .where('space_id', '=', spaceId)
      .orderBy('num')
      .execute();
    expect(nums.map((row) => row.page_id).sort()).toEqual([...final.keys()].sort());
    const expected = await postingsFrom(deps.db, spaceId, final);
    const ours = await postingsOf(deps.db, spaceId);
    expect(ours.stats?.pages).toBe(final.size);
    expect(ours).toEqual(expected);
    expect(ours.rows.length).toBeGreaterThan(100);
    expect(new Set(ours.rows.map((row) => row.chunk))).toEqual(new Set([0, 1, 2]));
  });

  it('are dropped with the space; a space without them gets them for all its pages at its next write', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const spaceId = 'postings-without';
    const write = (remove: string[], pages: IndexedPage[], by = index) =>
      deps.db.transaction().execute((tx) => by.writePages(tx, spaceId, 'en', remove, pages));
    await deps.db.transaction().execute((tx) => index.dropSpace(tx, spaceId));
    await write([], [page('a', 'Alpha', 'one'), page('c', 'Gamma', 'three')]);
    expect((await postingsOf(deps.db, spaceId)).stats).toEqual({ pages: 2, sections: 2, tokens: 4 });
    const kept = await postingsOf(deps.db, spaceId);
    // A server with postings off drops them when it writes: they would be stale.
    const off =
      deps.dialect === 'postgres' ? new PostgresSearchIndex(deps.db) : new SqliteSearchIndex(deps.db);
    await write([], [page('a', 'Alpha', 'one')], off);
    expect(await postingsOf(deps.db, spaceId)).toEqual({ rows: [], terms: [], stats: undefined });
    // The next write with postings on: every page's, the one written and the one removed
    // accounted for.
    await write(['c'], [page('b', 'Beta', 'two')]);
    await write([], [page('c', 'Gamma', 'three')]);
    const final = new Map([
      ['a', page('a', 'Alpha', 'one')],
      ['b', page('b', 'Beta', 'two')],
      ['c', page('c', 'Gamma', 'three')],
    ]);
    expect(await postingsOf(deps.db, spaceId)).toEqual(await postingsFrom(deps.db, spaceId, final));
    expect(kept.rows.length).toBeGreaterThan(0);
    await deps.db.transaction().execute((tx) => index.dropSpace(tx, spaceId));
    expect(await postingsOf(deps.db, spaceId)).toEqual({ rows: [], terms: [], stats: undefined });
  });
});

describe('postings kept by a process', () => {
  it('are read again once another process writes the space, and after it drops and rebuilds them', async () => {
    const { deps } = server.app.quire;
    const writer = server.app.quire.services.searchEngine.index;
    // Another process's index on the same database: its own cache.
    const reader =
      deps.dialect === 'postgres'
        ? new PostgresSearchIndex(deps.db, 0)
        : new SqliteSearchIndex(deps.db, undefined, undefined, 0);
    // Its statistics and stems kept while the database is unchanged, as the server's are.
    reader.keepReads(deps.database.cache);
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Harbours' });
    const spaceId = space.id;
    const write = (remove: string[], pages: IndexedPage[]) =>
      deps.db.transaction().execute((tx) => writer.writePages(tx, spaceId, 'en', remove, pages));
    const search = async (text: string) => {
      // What a request does first.
      await deps.database.cache.sync();
      const clauses = parseQuery(text);
      const plan = planQuery(clauses, await reader.expansions(['en'], stemRequests(clauses)));
      const ranked = await reader.rank(plan, { spaceIds: [spaceId], includeHidden: false }, undefined, 10);
      return { total: ranked.total, pages: ranked.pages.map((p) => p.pageId) };
    };
    await write([], [page('a', 'Harbour', 'a lighthouse keeper'), page('b', 'Quay', 'the harbour wall')]);
    expect(await search('harbour')).toEqual({ total: 2, pages: ['a', 'b'] });
    expect(await search('harbour')).toEqual({ total: 2, pages: ['a', 'b'] });
    await write(['b'], [page('b', 'Quay', 'the sea wall'), page('c', 'Pier', 'harbour lights')]);
    expect(await search('harbour')).toEqual({ total: 2, pages: ['a', 'c'] });
    // A page hidden by a move (no text written): left out at once.
    await deps.db
      .transaction()
      .execute((tx) =>
        writer.movePages(tx, spaceId, [{ pageId: 'a', path: 'a', ancestors: [], hidden: true }]),
      );
    expect(await search('harbour')).toEqual({ total: 1, pages: ['c'] });
    await deps.db.transaction().execute((tx) => writer.dropSpace(tx, spaceId));
    await write([], [page('d', 'Dock', 'harbour cranes')]);
    expect(await search('harbour')).toEqual({ total: 1, pages: ['d'] });
    await deps.db.transaction().execute((tx) => writer.dropSpace(tx, spaceId));
  });
});

describe('postings of spaces indexed without them', () => {
  it('are built by the reconcile job, equal to those a write keeps', async () => {
    const { deps, services } = server.app.quire;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Upgraded' });
    await seed(owner.api, space.id, [
      insert('Harbour', 'A lighthouse keeper watches the harbour.'),
      insert('Quay', '## Walls\n\nThe harbour wall and the quay.'),
    ]);
    await services.searchEngine.reconcile();
    const kept = await postingsOf(deps.db, space.id);
    expect(kept.rows.length).toBeGreaterThan(5);
    // As an install indexed before postings, or with them off, left it.
    for (const table of ['search_postings', 'search_terms', 'search_space_stats'] as const)
      await deps.db.deleteFrom(table).where('space_id', '=', space.id).execute();
    expect(await services.searchEngine.index.postingsBehind(1000)).toContain(space.id);
    await services.searchEngine.reconcile();
    expect(await postingsOf(deps.db, space.id)).toEqual(kept);
    expect(await services.searchEngine.index.postingsBehind(1000)).not.toContain(space.id);
  });
});

describe('hits ranked from postings', () => {
  it('read only the sections that matched, and show what the engine shows reading them all', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    // The engine's ranking, which reads every section of a hit.
    const engine =
      deps.dialect === 'postgres' ? new PostgresSearchIndex(deps.db) : new SqliteSearchIndex(deps.db);
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Coast' });
    const spaceId = space.id;
    const filler = (i: number) => `nothing to see in part ${i} of this page`;
    const pages = [
      page(
        'keeper',
        'Lighthouse',
        filler(0),
        'the lighthouse keeper climbs',
        filler(2),
        filler(3),
        'a keeper of lamps',
      ),
      page('harbour', 'Harbour guide', filler(0), filler(1), 'harbour lights at night', filler(3), filler(4)),
      // Only its title matches "harbour": the first section shows.
      page('walls', 'Harbour walls', 'stones and mortar', filler(1), filler(2)),
      page(
        'tide',
        'Tides',
        filler(0),
        'keeper of the tide tables',
        filler(2),
        'lighthouse beams',
        'lighthouse keeper notes',
      ),
      page(
        'many',
        'Many',
        ...Array.from({ length: 8 }, (_, i) => (i % 3 === 1 ? `keeper number ${i}` : filler(i))),
      ),
    ];
    await deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', [], pages));
    const shown = async (by: SearchIndex, text: string) => {
      const clauses = parseQuery(text);
      const plan = planQuery(clauses, await by.expansions(['en'], stemRequests(clauses)));
      const ranked = await by.rank(plan, { spaceIds: [spaceId], includeHidden: false }, undefined, 10);
      const highlighter = new Highlighter(plan);
      const all = new Map(pages.map((p) => [p.pageId, p.sections.length]));
      return {
        read: ranked.pages.reduce((sum, p) => sum + p.sections.length, 0),
        of: ranked.pages.reduce((sum, p) => sum + all.get(p.pageId)!, 0),
        // By page: the two rank with their own statistics, so ties and near ties may differ.
        hits: ranked.pages
          .map((p) => ({
            page: p.pageId,
            sections: sectionHits(highlighter, p.page.title, p.pageId, p.sections),
          }))
          .sort((a, b) => (a.page < b.page ? -1 : 1)),
      };
    };
    let fewer = 0;
    for (const text of [
      'keeper',
      'harbour',
      'lighthouse keeper',
      '"lighthouse keeper"',
      'keep',
      'tide keeper',
      'harb',
    ]) {
      const ours = await shown(index, text);
      const theirs = await shown(engine, text);
      expect(ours.hits, text).toEqual(theirs.hits);
      expect(ours.hits.length, text).toBeGreaterThan(0);
      if (ours.read < ours.of) fewer++;
    }
    // Most queries match a few sections of pages that have many.
    expect(fewer).toBeGreaterThanOrEqual(5);
    const walls = (await shown(index, 'harbour')).hits.find((hit) => hit.page === 'walls');
    expect(walls?.sections.map((section) => section.id)).toEqual(['walls']);
    await deps.db.transaction().execute((tx) => index.dropSpace(tx, spaceId));
  });
});
