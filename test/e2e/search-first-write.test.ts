import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OrgPostings, orgKey } from '../../src/search/postings/org-postings.js';
import { PostingsStore } from '../../src/search/postings/store.js';
import type { IndexedPage } from '../../src/search/search-index.js';
import { insert, seed } from '../helpers/content.js';
import { createOrg, createUser } from '../helpers/factories.js';
import { page, postingsOf } from '../helpers/postings.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A space's index written when nothing of it is indexed (its first write, or a write after its
 * index was dropped) skips looking for rows to read back or remove: what it writes is what the
 * write that looks for them writes.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { QUIRE_SEARCH_POSTINGS_PAGES: '0' } });
});
afterAll(async () => {
  await server.close();
});

/** Every row the space's index holds, in a form to compare (ids and generations left out). */
async function indexRows(db: Db, spaceId: string, orgId: string, dialect: 'sqlite' | 'postgres') {
  // The organization's pending pages written first, as a search of it writes them.
  await db.transaction().execute((tx) => new OrgPostings(db, new PostingsStore(db, true)).settle(tx, orgId));
  const rows = async (table: string, order: string) => {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}
      WHERE space_id = ${spaceId} ORDER BY ${sql.raw(order)}`.execute(db);
    return rows.map(({ id: _id, space_id: _space, ...rest }) =>
      Object.fromEntries(
        Object.entries(rest).map(([k, v]) => [
          k,
          v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
        ]),
      ),
    );
  };
  const org = await db
    .selectFrom('search_org_pages')
    .select(['org_id', 'num'])
    .where('space_id', '=', spaceId)
    .orderBy('num')
    .execute();
  const base = {
    pages: await rows('search_pages', 'page_id'),
    sections: await rows('search_sections', 'page_id, position'),
    postings: await postingsOf(db, spaceId),
    numbered: org,
    // The organization's terms and statistics: its rows follow the numbers its pages were given,
    // which follow the order of its spaces' ids when it built them.
    org: (({ terms, stats }) => ({ terms, stats }))(await postingsOf(db, orgKey(orgId))),
  };
  if (dialect === 'postgres')
    return {
      ...base,
      titles: await rows('search_page_titles', 'page_id'),
      headings: await rows('search_section_headings', 'page_id, position'),
    };
  // SQLite's full-text tables are contentless: their rows are counted, whole tables (a row left
  // behind by a write counts too).
  const count = async (table: string) =>
    Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!.n);
  return {
    ...base,
    fts: await count('search_fts'),
    headings: await count('search_headings'),
    titles: await count('search_titles'),
    pageTerms: await count('search_page_terms'),
  };
}

describe("a space's index written with nothing of it indexed", () => {
  it('holds what a write that looks for the rows it replaces holds', async () => {
    const { deps } = server.app.quire;
    const index = server.app.quire.services.searchEngine.index;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    // Two spaces: an organization of one space searches through that space's postings.
    const spaces: string[] = [];
    for (const title of ['Harbours', 'Lighthouses'])
      spaces.push((await owner.api.orgs.createSpace(orgId, { title })).data.id);
    const spaceId = spaces[0]!;
    const pages: IndexedPage[] = [
      page('a', 'Harbour walls', 'a lighthouse keeper', 'the quay at low tide'),
      page('b', 'Tides', 'spring tides and neap tides'),
      page('c', 'Keepers', 'the keeper of the light', 'logbooks'),
    ];
    const write = (empty: boolean) =>
      deps.db.transaction().execute(async (tx) => {
        await index.dropSpace(tx, spaceId);
        await index.writePages(tx, spaceId, 'en', [], pages, empty);
      });
    await deps.db
      .transaction()
      .execute((tx) => index.writePages(tx, spaces[1]!, 'en', [], [page('x', 'Beacons', 'a beacon')]));
    await write(false);
    const looked = await indexRows(deps.db, spaceId, orgId, deps.dialect);
    await write(true);
    const skipped = await indexRows(deps.db, spaceId, orgId, deps.dialect);
    expect(skipped).toEqual(looked);
    expect(looked.pages.map((row) => row.num)).toEqual([1, 2, 3]);
    expect(looked.sections).toHaveLength(5);
    expect(looked.numbered).toHaveLength(3);
    expect(looked.org.stats?.pages).toBe(4);
    // Written again as a space with pages: the same.
    await deps.db.transaction().execute((tx) => index.writePages(tx, spaceId, 'en', ['a', 'b', 'c'], pages));
    expect(await indexRows(deps.db, spaceId, orgId, deps.dialect)).toEqual(looked);
  });

  it('is what the indexer writes for a new space and for a space indexed whole again', async () => {
    const { deps, services } = server.app.quire;
    const owner = await createUser(server);
    const orgId = await createOrg(owner);
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Guides' });
    await seed(owner.api, space.id, [
      insert('Install', '# Install\n\nRun the installer.\n\n## Upgrade\n\nRun it again.'),
      insert('Deploy', '# Deploy\n\nA deploy token opens the gate.'),
    ]);
    await services.searchEngine.indexer.sync(space.id);
    const first = await indexRows(deps.db, space.id, orgId, deps.dialect);
    expect(first.pages).toHaveLength(2);
    // An index of an older analyzer is dropped and written whole.
    await deps.db.updateTable('search_spaces').set({ version: 0 }).where('space_id', '=', space.id).execute();
    expect(await services.searchEngine.indexer.sync(space.id)).toBe('updated');
    expect(await indexRows(deps.db, space.id, orgId, deps.dialect)).toEqual(first);
    const { data: found } = await owner.api.spaces.searchSpaceContent(space.id, { query: 'deploy token' });
    expect(found.items.map((item) => item.title)).toEqual(['Deploy']);
  });
});
