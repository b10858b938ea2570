import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageIndex } from '../../src/areas/content/page-index.js';
import { CowMap } from '../../src/content/cow-map.js';
import { ContentStore } from '../../src/content/store.js';
import {
  DEFAULT_LAYOUT,
  EMPTY_CONTENT,
  type PageNode,
  type RevisionContent,
} from '../../src/content/tree.js';
import { type Database, openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ sqliteFile: ':memory:' });
  await migrateToLatest(database);
});
afterAll(() => database.close());

function page(n: number, title = `Page ${n}`): PageNode {
  return {
    id: `page${String(n).padStart(5, '0')}`,
    type: 'document',
    parent: null,
    order: n,
    title,
    slug: `page-${n}`,
    layout: DEFAULT_LAYOUT,
    body: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

function withPages(pages: PageNode[]): RevisionContent {
  return { ...EMPTY_CONTENT, pages: new Map(pages.map((p) => [p.id, p])) };
}

async function storedBytes(): Promise<number> {
  const row = await sql<{ n: number | null }>`select sum(length(data)) as n from objects`.execute(
    database.db,
  );
  return Number(row.rows[0]?.n ?? 0);
}

describe('ContentStore trees', () => {
  it('stores thousands of pages, reads them back from a cold store, and applies edits and deletes', async () => {
    const writer = new ContentStore();
    const pages = Array.from({ length: 3000 }, (_, n) => page(n));
    const tree = await database.db.transaction().execute(async (tx) => {
      const empty = await writer.snapshot(tx, await writer.emptyTree(tx));
      return writer.writeTree(tx, empty, withPages(pages), { pages: pages.map((p) => p.id) });
    });

    const cold = await new ContentStore().snapshot(database.db, tree);
    expect(cold.content.pages.size).toBe(3000);
    expect(cold.content.pages.get('page01234')).toEqual(page(1234));
    // 3,000 pages cannot fit 64 leaves of LEAF_MAX: the root's slots hold split buckets.
    const rootSlots = cold.root.pages.filter((h) => h !== null).length;
    expect(rootSlots).toBe(64);

    const edited = new Map(cold.content.pages);
    edited.set('page00007', page(7, 'Edited'));
    for (let n = 100; n < 2900; n++) edited.delete(page(n).id);
    const changed = ['page00007', ...Array.from({ length: 2800 }, (_, i) => page(100 + i).id)];
    const next = await database.db
      .transaction()
      .execute((tx) => writer.writeTree(tx, cold, { ...cold.content, pages: edited }, { pages: changed }));
    const reread = await new ContentStore().snapshot(database.db, next);
    expect([...reread.content.pages.keys()].sort()).toEqual([...edited.keys()].sort());
    expect(reread.content.pages.get('page00007')?.title).toBe('Edited');
    // The tree diff finds exactly what changed, both ways.
    const first = await new ContentStore().snapshot(database.db, tree);
    const expected = new Set(changed);
    expect((await writer.diff(database.db, first, reread)).pages).toEqual(expected);
    expect((await new ContentStore().diff(database.db, reread, first)).pages).toEqual(expected);
    expect((await writer.diff(database.db, first, first)).pages.size).toBe(0);
    // The first revision is untouched.
    expect((await new ContentStore().snapshot(database.db, tree)).content.pages.size).toBe(3000);
  });

  it('writes what changed: one edited page in a large tree adds a few small objects', async () => {
    const writer = new ContentStore();
    const pages = Array.from({ length: 5000 }, (_, n) => page(n + 10_000));
    const base = await database.db.transaction().execute(async (tx) => {
      const empty = await writer.snapshot(tx, await writer.emptyTree(tx));
      const hash = await writer.writeTree(tx, empty, withPages(pages), { pages: pages.map((p) => p.id) });
      return writer.snapshot(tx, hash);
    });
    const before = await storedBytes();
    const edited = new Map(base.content.pages);
    const id = pages[42]!.id;
    edited.set(id, { ...pages[42]!, title: 'Changed' });
    await database.db
      .transaction()
      .execute((tx) => writer.writeTree(tx, base, { ...base.content, pages: edited }, { pages: [id] }));
    // The node (~300 B), one small leaf, one split (~1 KB) and the root (~4.3 KB): about 6.5 KB.
    // Unsplit buckets of ~80 entries would add ~5 KB more, and grow with the space.
    expect((await storedBytes()) - before).toBeLessThan(8_000);
  });
});

describe('page indexes of written trees', () => {
  it('derive from the tree they were written from even when that one was asked for its indexes only later', async () => {
    // A merge that fast-forwards asks for the indexes of the main tree, then keeps the change
    // request's tree, written from main before main's indexes existed. Its indexes must still
    // derive from main's (sharing their unchanged groups), not be built again from every page.
    const store = new ContentStore();
    const pages = Array.from({ length: 500 }, (_, n) => ({
      ...page(n),
      parent: n < 10 ? null : `page${String(n % 10).padStart(5, '0')}`,
    }));
    const { main, next } = await database.db.transaction().execute(async (tx) => {
      const empty = await store.snapshot(tx, await store.emptyTree(tx));
      const mainHash = await store.writeTree(tx, empty, withPages(pages), { pages: pages.map((p) => p.id) });
      // Read cold, as after the snapshot was dropped from memory: no indexes, no derivation.
      const main = await new ContentStore().snapshot(tx, mainHash);
      const edited = { ...pages[123]!, title: 'Edited', slug: 'edited' };
      const nextPages = new Map(main.content.pages);
      nextPages.set(edited.id, edited);
      const nextHash = await store.writeTree(
        tx,
        main,
        { ...main.content, pages: nextPages },
        { pages: [edited.id] },
      );
      return { main, next: await store.snapshot(tx, nextHash) };
    });
    const mainIndexes = main.indexes();
    const nextIndexes = next.indexes();
    // Derived: the group of a parent the edit did not touch is the very same set.
    expect(nextIndexes.children.get('page00001')).toBe(mainIndexes.children.get('page00001'));
    expect(nextIndexes.slugs.get('edited')).toEqual(new Set(['page00123']));
    expect(nextIndexes.slugs.has('page-123')).toBe(false);
    expect(nextIndexes.children.get('page00003')).toEqual(mainIndexes.children.get('page00003'));
  });
});

describe('trees written by another store (another process)', () => {
  it('are read from a kept tree at the cost of the change, equal to the tree read whole', async () => {
    const writer = new ContentStore();
    const reader = new ContentStore();
    const file = (n: number, size = n) => ({
      id: `file${n}`,
      name: `f${n}.png`,
      contentType: 'image/png',
      size,
      blob: `blob${n}`,
    });
    const pages = Array.from({ length: 3000 }, (_, n) => ({
      ...page(n),
      parent: n < 20 ? null : page(n % 20).id,
    }));
    const base = await database.db.transaction().execute(async (tx) => {
      const empty = await writer.snapshot(tx, await writer.emptyTree(tx));
      const content = { ...withPages(pages), files: new Map([1, 2, 3].map((n) => [`file${n}`, file(n)])) };
      const hash = await writer.writeTree(tx, empty, content, {
        pages: pages.map((p) => p.id),
        files: ['file1', 'file2', 'file3'],
      });
      return writer.snapshot(tx, hash);
    });
    // The reader keeps the base, read whole (another process served it before the merge).
    const kept = await reader.snapshot(database.db, base.treeHash);
    const keptPaths = PageIndex.of(kept.content);
    // The writer edits, deletes, moves and adds pages, and edits, deletes and adds files.
    const edited = new Map(base.content.pages);
    edited.set(page(7).id, { ...edited.get(page(7).id)!, title: 'Edited', slug: 'edited' });
    edited.set(page(45).id, { ...edited.get(page(45).id)!, parent: page(3).id });
    for (let n = 100; n < 200; n++) edited.delete(page(n).id);
    const added = Array.from({ length: 50 }, (_, i) => ({ ...page(5000 + i), parent: page(i % 20).id }));
    for (const p of added) edited.set(p.id, p);
    const files = new Map(base.content.files);
    files.set('file1', file(1, 99));
    files.delete('file2');
    files.set('file4', file(4));
    const changed = [page(7).id, page(45).id, ...added.map((p) => p.id)];
    for (let n = 100; n < 200; n++) changed.push(page(n).id);
    const next = await database.db.transaction().execute((tx) =>
      writer.writeTree(
        tx,
        base,
        { ...base.content, pages: edited, files },
        {
          pages: changed,
          files: ['file1', 'file2', 'file4'],
        },
      ),
    );

    const derived = await reader.snapshot(database.db, next);
    const whole = await new ContentStore().snapshot(database.db, next);
    // Read from the kept tree (its maps are copies of the kept ones), not whole.
    expect(derived.content.pages).toBeInstanceOf(CowMap);
    const sorted = <V>(map: ReadonlyMap<string, V>) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(sorted(derived.content.pages)).toEqual(sorted(whole.content.pages));
    expect(sorted(derived.content.files)).toEqual(sorted(whole.content.files));
    expect(sorted(derived.pageHashes)).toEqual(sorted(whole.pageHashes));
    expect(sorted(derived.fileHashes)).toEqual(sorted(whole.fileHashes));
    expect(derived.root).toEqual(whole.root);
    // Its page indexes derive from the kept tree's and agree with the whole tree's.
    const paths = PageIndex.of(derived.content);
    const wholePaths = PageIndex.of(whole.content);
    for (const id of whole.content.pages.keys()) expect(paths.pathOf(id)).toBe(wholePaths.pathOf(id));
    expect(paths.pathOf(page(27).id)).toBe('edited/page-27');
    expect(keptPaths.pathOf(page(27).id)).toBe('page-7/page-27');
    for (const parent of [null, page(3).id, page(5).id, page(0).id])
      expect(paths.childrenOf(parent).map((p) => p.id)).toEqual(
        wholePaths.childrenOf(parent).map((p) => p.id),
      );
    // And the kept tree is as it was.
    expect(kept.content.pages.size).toBe(3000);
    expect(kept.content.files.has('file2')).toBe(true);
  });

  it('of an unrelated space are read whole', async () => {
    const store = new ContentStore();
    const make = (from: number) =>
      database.db.transaction().execute(async (tx) => {
        const list = Array.from({ length: 200 }, (_, n) => page(from + n));
        const empty = await store.snapshot(tx, await store.emptyTree(tx));
        return store.writeTree(tx, empty, withPages(list), { pages: list.map((p) => p.id) });
      });
    const one = await make(20_000);
    const other = await make(30_000);
    const reader = new ContentStore();
    await reader.snapshot(database.db, one);
    const read = await reader.snapshot(database.db, other);
    expect(read.content.pages).not.toBeInstanceOf(CowMap);
    expect(read.content.pages.size).toBe(200);
  });
});
