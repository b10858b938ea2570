import { PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.js';
import { type PostedPage, pagesOf, type SectionOfPage } from './build.js';
import { CHUNK_BITS } from './codec.js';
import type { PostingsStore, SpaceStats } from './store.js';

/**
 * Postings by organization: the postings of every indexed page of an organization's spaces, kept
 * in the postings tables under `orgKey`, as a space's are under its id, so that an organization's
 * search is ranked from them (rank.ts) as a large space's is. FTS5 and PostgreSQL rank an
 * organization's search by reading and scoring each match: with 10,000 spaces of two pages,
 * "search index" took 17.6 ms on SQLite and 28 ms on PostgreSQL, against 4 and 7 ms for 100
 * spaces (issue 21).
 *
 * The organization numbers its pages itself (search_org_pages, 0035): a page keeps its number
 * while it is indexed, and new pages take the next ones, so a space's pages indexed together are
 * neighbours in the organization's chunks. The transaction that writes a space's index
 * (`pagesWritten`, `spaceDropped`) or moves it (`spacesMoving`) numbers its pages and either
 * writes them into the postings or leaves them pending with what the postings hold of them
 * (PENDING_PAGES), so the postings and what is pending always say what the spaces' indexes say;
 * a search writes what is pending first (`settle`). An organization gets them when a write
 * finds it small enough to build them at once, or else from the reconcile job (`behind`,
 * `build`); until then its search is ranked by the engine.
 */

/** A page as search_org_pending keeps what an organization's postings hold of it. */
type HeldPage = Omit<PostedPage, 'num'>;

const heldPage = (page: PostedPage): HeldPage => ({
  title: page.title,
  sections: page.sections.map(({ position, heading, text }) => ({ position, heading, text })),
});

/** The postings key of an organization, beside its spaces' ids in the postings tables. */
export const orgKey = (orgId: string) => `org:${orgId}`;

/**
 * An organization with up to this many indexed pages gets its postings built by the write that
 * finds them missing (its first space's first index, and small organizations indexed before
 * postings by organization); a larger one's are built by the reconcile job.
 */
const BUILD_INLINE_PAGES = 2_000;

/** Pages of an organization built into its postings per write: one chunk of page numbers. */
const BUILD_BATCH = 1 << CHUNK_BITS;

/** Rows written or read per statement. */
const BATCH = 200;

/**
 * Pages of an organization whose postings wait to be written (search_org_pending, 0036) until
 * there are this many, or until a search of the organization (`settle`). A space's index write
 * rewrote the rows of the organization's chunk its pages are in, for every term they hold: 7.0
 * of the 12.3 ms of a write of a space of two pages in an organization of 10,000 spaces (SQLite,
 * scratch probe). Gathered, a chunk's rows are rewritten once for many spaces' pages.
 *
 * A search that finds pages pending pays for writing them, about the price of one write of them
 * all: with pages of real documents (this repository's GitBook fixtures, two a space, into the
 * 10,000-space organization; scratch probe, five settles each) 6, 14 and 30 pending pages took
 * 32-42, 43-70 and 73-84 ms on PostgreSQL (13-21, 24-35 and 37-51 on SQLite), while a write of a
 * space cost 31.3, 28.3 and 23.7 ms (37.2 written at once). 16 keeps that search well inside
 * 100 ms.
 */
export const PENDING_PAGES = 16;

export class OrgPostings {
  private readonly postgres: boolean;

  constructor(
    private readonly db: Db,
    private readonly store: PostingsStore,
  ) {
    this.postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * On PostgreSQL, holds the organization's postings until the transaction ends: two spaces of
   * one organization indexed side by side (two jobs, or two processes) would each rewrite a chunk
   * row from what it read before the other committed, and number new pages alike. Taken after
   * the space's own lock (indexer.ts), always in that order. SQLite has one writer at a time.
   */
  private async lock(tx: Tx, orgId: string): Promise<void> {
    if (this.postgres)
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`quire.search:${orgKey(orgId)}`}))`.execute(tx);
  }

  /**
   * A space's pages were written, after its index rows: `before` as they were indexed, `after`
   * as they are now, both under the space's page numbers.
   */
  async pagesWritten(
    tx: Tx,
    spaceId: string,
    before: PostedPage[],
    after: PostedPage[],
    empty = false,
  ): Promise<void> {
    const orgId = await this.orgOf(tx, spaceId);
    if (orgId === undefined) return;
    await this.lock(tx, orgId);
    if (!this.store.kept) return this.forget(tx, orgId);
    if (!(await this.store.stats(tx, orgKey(orgId)))) {
      if (
        (await this.indexedSpaces(tx, orgId)).length > 1 &&
        (await this.indexedPages(tx, orgId, BUILD_INLINE_PAGES + 1)) <= BUILD_INLINE_PAGES
      )
        await this.build(tx, orgId);
      return;
    }
    // A space with nothing indexed has no page numbered in its organization.
    const nums = empty
      ? new Map<number, number>()
      : await this.numbers(
          tx,
          spaceId,
          [...before, ...after].map((page) => page.num),
        );
    const staying = new Set(after.map((page) => page.num));
    const gone = before.filter((page) => !staying.has(page.num)).map((page) => page.num);
    let next = await this.top(tx, orgId);
    const added: Array<{ num: number; onum: number }> = [];
    const now = after.map((page) => {
      let onum = nums.get(page.num);
      if (onum === undefined) {
        onum = ++next;
        added.push({ num: page.num, onum });
      }
      return { ...page, num: onum };
    });
    const was = before.flatMap((page) => {
      const onum = nums.get(page.num);
      return onum === undefined ? [] : [{ ...page, num: onum }];
    });
    await this.unnumber(tx, spaceId, gone);
    await this.number(tx, orgId, spaceId, added);
    await this.changed(tx, orgId, was, now);
  }

  /** The space's index is about to be dropped (its rows still there): its pages leave its organization's postings. */
  async spaceDropped(tx: Tx, spaceId: string): Promise<void> {
    const orgId = await this.numberedIn(tx, spaceId);
    if (orgId === undefined) return;
    await this.lock(tx, orgId);
    if (this.store.kept && (await this.store.stats(tx, orgKey(orgId)))) {
      const nums = await this.numbers(tx, spaceId);
      const pages = await this.store.indexed(tx, spaceId, await this.pageIds(tx, spaceId));
      // Unnumbered first: a write of what is pending finds them gone.
      await tx.deleteFrom('search_org_pages').where('space_id', '=', spaceId).execute();
      await this.changed(
        tx,
        orgId,
        pages.flatMap((page) => {
          const onum = nums.get(page.num);
          return onum === undefined ? [] : [{ ...page, num: onum }];
        }),
        [],
      );
      return;
    }
    await tx.deleteFrom('search_org_pages').where('space_id', '=', spaceId).execute();
  }

  /**
   * The spaces move to organization `orgId` (before their rows say so): their pages leave their
   * old organization's postings and join the new one's, when it has them (else the reconcile job
   * builds them).
   */
  async spacesMoving(tx: Tx, spaceIds: string[], orgId: string): Promise<void> {
    for (const spaceId of spaceIds) {
      const from = await this.numberedIn(tx, spaceId);
      if (from === orgId) continue;
      await this.spaceDropped(tx, spaceId);
      await this.lock(tx, orgId);
      if (!this.store.kept || !(await this.store.stats(tx, orgKey(orgId)))) continue;
      const pages = await this.store.indexed(tx, spaceId, await this.pageIds(tx, spaceId));
      await this.append(tx, orgId, spaceId, pages);
    }
  }

  /**
   * Builds the organization's postings from its spaces' indexes, anew: a chunk of page numbers a
   * write, each appended to the postings before it.
   */
  async build(tx: Tx, orgId: string): Promise<void> {
    await this.lock(tx, orgId);
    const key = orgKey(orgId);
    await this.store.drop(tx, key);
    await tx.deleteFrom('search_org_pages').where('org_id', '=', orgId).execute();
    await tx.deleteFrom('search_org_pending').where('org_id', '=', orgId).execute();
    // By their pages: a space's row of search_spaces is written after its pages.
    const { rows: spaces } = await sql<{ space_id: string }>`SELECT s.id AS space_id FROM spaces s
      WHERE s.org_id = ${orgId} AND EXISTS (SELECT 1 FROM search_pages p WHERE p.space_id = s.id)
      ORDER BY s.id`.execute(tx);
    // Its statistics say it has postings, even with no page yet (the first write adds to them).
    await tx
      .insertInto('search_space_stats')
      .values({ space_id: key, pages: 0, sections: 0, tokens: 0, generation: 0 })
      .execute();
    // Pages of several spaces a write: a write a space took 4 ms (10,000 spaces of two pages).
    let onum = 0;
    let batch: PostedPage[] = [];
    for (const { space_id: spaceId } of spaces) {
      const ids = await this.pageIds(tx, spaceId);
      for (let i = 0; i < ids.length; i += BUILD_BATCH) {
        const pages = await this.store.indexed(tx, spaceId, ids.slice(i, i + BUILD_BATCH));
        pages.sort((a, b) => a.num - b.num);
        const added: Array<{ num: number; onum: number }> = [];
        for (const page of pages) {
          added.push({ num: page.num, onum: ++onum });
          batch.push({ ...page, num: onum });
        }
        await this.number(tx, orgId, spaceId, added);
        if (batch.length >= BUILD_BATCH) {
          await this.store.write(tx, key, [], batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) await this.store.write(tx, key, [], batch);
  }

  /**
   * Organizations with pages indexed in two spaces or more but no postings (indexed before
   * postings by organization, or grown past BUILD_INLINE_PAGES without them), at most `limit`.
   */
  async behind(limit: number): Promise<string[]> {
    if (!this.store.kept) return [];
    const { rows } = await sql<{ org_id: string }>`SELECT s.org_id FROM spaces s
      WHERE NOT EXISTS (SELECT 1 FROM search_space_stats t WHERE t.space_id = ${sql.lit('org:')} || s.org_id)
        AND EXISTS (SELECT 1 FROM search_pages p WHERE p.space_id = s.id)
      GROUP BY s.org_id HAVING COUNT(*) > 1
      ORDER BY s.org_id
      LIMIT ${sql.lit(limit)}`.execute(this.db);
    return rows.map((row) => row.org_id);
  }

  /**
   * The organization's spaces with indexed pages, two at most. An organization whose pages are
   * all in one space has no postings of its own, which would be that space's over again (one
   * organization of one 10,000-page space: indexing took 43% longer with them); its search
   * reads the space's (search-index.ts).
   */
  async indexedSpaces(db: Db | Tx, orgId: string): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`SELECT s.id FROM spaces s
      WHERE s.org_id = ${orgId} AND EXISTS (SELECT 1 FROM search_pages p WHERE p.space_id = s.id)
      LIMIT 2`.execute(db);
    return rows.map((row) => row.id);
  }

  /** The organization's statistics and generation, without its spaces' state (see `leftOut`). */
  async searchable(
    orgId: string,
  ): Promise<(SpaceStats & { generation: number; deleted: boolean }) | undefined> {
    const stats = await this.db
      .selectFrom('search_space_stats')
      .select(['pages', 'sections', 'tokens', 'generation'])
      .where('space_id', '=', orgKey(orgId))
      .executeTakeFirst();
    return (
      stats && {
        pages: Number(stats.pages),
        sections: Number(stats.sections),
        tokens: Number(stats.tokens),
        generation: Number(stats.generation),
        deleted: false,
      }
    );
  }

  /**
   * Numbers of the organization's pages a search leaves out: those of its deleted spaces, of the
   * spaces in `closed` (those the caller may not read), and hidden pages unless `includeHidden`.
   * Each part reads through an index of the few rows it needs (the database's deleted spaces,
   * the closed spaces' pages, the hidden pages), not the organization's every page: reading its
   * pages against its spaces took 8.5 ms on SQLite and 7.6 ms on PostgreSQL for 10,000 spaces,
   * paid by the first search after each commit. A space purged from the trash takes its index
   * with it (`spaceDropped`, in the purge's transaction), so no page of a space that is gone is
   * numbered here.
   */
  async leftOut(orgId: string, closed: readonly string[], includeHidden: boolean): Promise<number[]> {
    // SQLite would otherwise read the organization's spaces by spaces_org and test each.
    const deletedIndex = this.postgres ? sql`` : sql`INDEXED BY spaces_deleted`;
    const parts: RawBuilder<unknown>[] = [
      sql`SELECT o.onum FROM spaces s ${deletedIndex} CROSS JOIN search_org_pages o
        WHERE s.deleted_at IS NOT NULL AND s.org_id = ${orgId} AND o.space_id = s.id`,
    ];
    if (closed.length > 0)
      parts.push(sql`SELECT o.onum FROM search_org_pages o WHERE o.space_id IN (${sql.join(closed)})`);
    // The database's hidden pages (few), then their numbers: SQLite keeps a CROSS JOIN's order.
    if (!includeHidden)
      parts.push(sql`SELECT o.onum FROM search_pages p CROSS JOIN search_org_pages o
        WHERE p.hidden = 1 AND o.space_id = p.space_id AND o.num = p.num AND o.org_id = ${orgId}`);
    const { rows } = await sql<{ onum: number }>`${sql.join(parts, sql` UNION ALL `)}`.execute(this.db);
    return rows.map((row) => Number(row.onum));
  }

  /** The organization's number of a page, or undefined when it is not indexed. */
  async numberOf(orgId: string, spaceId: string, pageId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('search_pages as p')
      .innerJoin('search_org_pages as o', (join) =>
        join.onRef('o.space_id', '=', 'p.space_id').onRef('o.num', '=', 'p.num'),
      )
      .select('o.onum')
      .where('p.space_id', '=', spaceId)
      .where('p.page_id', '=', pageId)
      .where('o.org_id', '=', orgId)
      .executeTakeFirst();
    return row ? Number(row.onum) : undefined;
  }

  /** Adds pages of a space (under its numbers) to the organization's postings, under new numbers. */
  private async append(tx: Tx, orgId: string, spaceId: string, pages: PostedPage[]): Promise<void> {
    if (pages.length === 0) return;
    let next = await this.top(tx, orgId);
    const added: Array<{ num: number; onum: number }> = [];
    const now = [...pages]
      .sort((a, b) => a.num - b.num)
      .map((page) => {
        added.push({ num: page.num, onum: ++next });
        return { ...page, num: next };
      });
    await this.number(tx, orgId, spaceId, added);
    await this.changed(tx, orgId, [], now);
  }

  /**
   * The organization's pages `was` and `now` name (by its numbers) changed: `was` as its postings
   * hold them, unless they are pending, and `now` as its spaces' indexes hold them. They wait in
   * search_org_pending with what the postings hold of them, or, with those pending, are written
   * now when that makes PENDING_PAGES.
   */
  private async changed(tx: Tx, orgId: string, was: PostedPage[], now: PostedPage[]): Promise<void> {
    const touched = new Map<number, string | null>();
    for (const page of now) touched.set(page.num, null);
    for (const page of was) touched.set(page.num, JSON.stringify(heldPage(page)));
    if (touched.size === 0) return;
    if (touched.size < PENDING_PAGES && (await this.pending(tx, orgId)) + touched.size < PENDING_PAGES) {
      // A page pending already keeps what the postings hold of it.
      for (let i = 0; i < touched.size; i += BATCH)
        await tx
          .insertInto('search_org_pending')
          .values(
            [...touched].slice(i, i + BATCH).map(([onum, held]) => ({ org_id: orgId, onum, was: held })),
          )
          .onConflict((oc) => oc.columns(['org_id', 'onum']).doNothing())
          .execute();
      return;
    }
    await this.writePending(tx, orgId, was, now);
  }

  /**
   * Writes the organization's pending pages into its postings, before a search of them reads
   * them (search-index.ts asks when some are pending).
   */
  async settle(tx: Tx, orgId: string): Promise<void> {
    await this.lock(tx, orgId);
    if (this.store.kept && (await this.store.stats(tx, orgKey(orgId))))
      await this.writePending(tx, orgId, [], []);
  }

  /** How many of the organization's pages are pending, up to PENDING_PAGES. */
  async pending(db: Db | Tx, orgId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM (
        SELECT 1 FROM search_org_pending WHERE org_id = ${orgId} LIMIT ${sql.lit(PENDING_PAGES)}) AS l`.execute(
      db,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Writes the pending pages and those `was` and `now` name (as `changed` has them) into the
   * organization's postings. A pending page is as its spaces' indexes hold it now, unless `was`
   * or `now` name it.
   */
  private async writePending(tx: Tx, orgId: string, was: PostedPage[], now: PostedPage[]): Promise<void> {
    const pending = await tx
      .selectFrom('search_org_pending')
      .select(['onum', 'was'])
      .where('org_id', '=', orgId)
      .execute();
    const held = new Map<number, string | null>();
    for (const row of pending) held.set(Number(row.onum), row.was);
    const named = new Set([...was, ...now].map((page) => page.num));
    const before = was.filter((page) => !held.has(page.num));
    for (const [onum, page] of held)
      if (page !== null) before.push({ ...(JSON.parse(page) as HeldPage), num: onum });
    // The pending pages named by neither, as their spaces' indexes hold them.
    const after = [
      ...now,
      ...(await this.current(
        tx,
        orgId,
        [...held.keys()].filter((onum) => !named.has(onum)),
      )),
    ];
    if (pending.length > 0) await tx.deleteFrom('search_org_pending').where('org_id', '=', orgId).execute();
    if (before.length > 0 || after.length > 0) await this.store.write(tx, orgKey(orgId), before, after);
  }

  /**
   * The organization's pages numbered `onums` as its spaces' indexes hold them now, under those
   * numbers (those no longer numbered left out), in one statement a batch whatever their spaces.
   */
  private async current(tx: Tx, orgId: string, onums: number[]): Promise<PostedPage[]> {
    const rows: SectionOfPage[] = [];
    for (let i = 0; i < onums.length; i += BATCH)
      for (const row of await tx
        .selectFrom('search_org_pages as o')
        .innerJoin('search_pages as p', (join) =>
          join.onRef('p.space_id', '=', 'o.space_id').onRef('p.num', '=', 'o.num'),
        )
        .innerJoin('search_sections as s', (join) =>
          join.onRef('s.space_id', '=', 'p.space_id').onRef('s.page_id', '=', 'p.page_id'),
        )
        .select(['o.onum as num', 'p.title', 's.position', 's.heading', 's.body'])
        .where('o.org_id', '=', orgId)
        .where('o.onum', 'in', onums.slice(i, i + BATCH))
        .execute())
        rows.push(row);
    return pagesOf(rows);
  }

  /** Drops an organization's postings (postings are off: they would go stale). */
  private async forget(tx: Tx, orgId: string): Promise<void> {
    if (!(await this.store.stats(tx, orgKey(orgId)))) return;
    await this.store.drop(tx, orgKey(orgId));
    await tx.deleteFrom('search_org_pages').where('org_id', '=', orgId).execute();
    await tx.deleteFrom('search_org_pending').where('org_id', '=', orgId).execute();
  }

  private async orgOf(tx: Tx, spaceId: string): Promise<string | undefined> {
    const row = await tx.selectFrom('spaces').select('org_id').where('id', '=', spaceId).executeTakeFirst();
    return row?.org_id ?? (await this.numberedIn(tx, spaceId));
  }

  /** The organization whose postings hold the space's pages. */
  private async numberedIn(tx: Tx, spaceId: string): Promise<string | undefined> {
    const row = await tx
      .selectFrom('search_org_pages')
      .select('org_id')
      .where('space_id', '=', spaceId)
      .limit(1)
      .executeTakeFirst();
    return row?.org_id;
  }

  /** Up to `limit` of the pages indexed in the organization's spaces, counted. */
  private async indexedPages(tx: Tx, orgId: string, limit: number): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM (
        SELECT 1 FROM spaces s JOIN search_pages p ON p.space_id = s.id
        WHERE s.org_id = ${orgId} LIMIT ${sql.lit(limit)}) AS l`.execute(tx);
    return Number(rows[0]?.n ?? 0);
  }

  private async pageIds(tx: Tx, spaceId: string): Promise<string[]> {
    const rows = await tx
      .selectFrom('search_pages')
      .select('page_id')
      .where('space_id', '=', spaceId)
      .orderBy('num')
      .execute();
    return rows.map((row) => row.page_id);
  }

  /** The organization's numbers of the space's pages (of `nums` only, when given), by their numbers in the space. */
  private async numbers(tx: Tx, spaceId: string, nums?: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const read = async (some?: number[]) => {
      let query = tx.selectFrom('search_org_pages').select(['num', 'onum']).where('space_id', '=', spaceId);
      if (some) query = query.where('num', 'in', some);
      for (const row of await query.execute()) out.set(Number(row.num), Number(row.onum));
    };
    if (!nums) await read();
    else for (let i = 0; i < nums.length; i += BATCH) await read(nums.slice(i, i + BATCH));
    return out;
  }

  private async top(tx: Tx, orgId: string): Promise<number> {
    const row = await tx
      .selectFrom('search_org_pages')
      .select((eb) => eb.fn.max('onum').as('top'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.top ?? 0);
  }

  private async number(
    tx: Tx,
    orgId: string,
    spaceId: string,
    added: Array<{ num: number; onum: number }>,
  ): Promise<void> {
    for (let i = 0; i < added.length; i += BATCH)
      await tx
        .insertInto('search_org_pages')
        .values(
          added.slice(i, i + BATCH).map(({ num, onum }) => ({ org_id: orgId, onum, space_id: spaceId, num })),
        )
        .execute();
  }

  private async unnumber(tx: Tx, spaceId: string, nums: number[]): Promise<void> {
    for (let i = 0; i < nums.length; i += BATCH)
      await tx
        .deleteFrom('search_org_pages')
        .where('space_id', '=', spaceId)
        .where('num', 'in', nums.slice(i, i + BATCH))
        .execute();
  }
}
