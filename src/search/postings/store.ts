import { randomInt } from 'node:crypto';
import { type CompiledQuery, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.js';
import { TimeSlices } from '../../time-slices.js';
import { type PagePostings, type PostedPage, pagePostings, pagesOf, type SectionOfPage } from './build.js';
import { chunkOf, encode, type Posting, rewrite } from './codec.js';

/** Rows written or read per statement (SQLite's bound parameters; PostgreSQL's message size). */
const BATCH = 200;

function batches<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Random, not counted: a space dropped and built again starts no count over (cache.ts). */
const newGeneration = () => randomInt(1, 2 ** 48);

export interface SpaceStats {
  pages: number;
  sections: number;
  tokens: number;
}

/**
 * Reads a statement of a search of a space of `pages` pages somewhere else than the server's
 * connection, or answers undefined to leave it there.
 */
export type ReadAside = <R>(query: CompiledQuery, pages: number) => Promise<R[]> | undefined;

/** What a search reads of one term: its rows in chunk order, positions when asked. */
export interface TermRow {
  term: string;
  chunk: number;
  entries: Uint8Array;
  positions: Uint8Array | null;
}

/**
 * The postings tables (0030): written with the rest of the index, in its transaction, and read
 * by a search of a large space (search.ts). Both databases hold the same rows.
 */
export class PostingsStore {
  constructor(
    private readonly db: Db,
    /** Whether postings are kept: when not, a write drops the space's (they would go stale). */
    readonly kept: boolean,
    private readonly readAside?: ReadAside,
    /**
     * Whether a write gives the event loop turns between slices of its work, inside its
     * transaction: on PostgreSQL, where other requests go on over other connections meanwhile.
     * On SQLite the transaction holds the only connection, and every statement waits for its
     * end: there it is kept as short as it can be.
     */
    private readonly turnsInWrites = false,
  ) {}

  /**
   * Rewrites the postings of the chunks these pages are in: `before` as they were indexed (their
   * postings go), `after` as they are now. Called before the pages' old rows are deleted. A
   * space with pages but no postings (indexed before 0030, or while postings were off) gets
   * them for all its pages. `empty`: the space has nothing indexed (see SearchIndex.writePages).
   */
  async write(
    tx: Tx,
    spaceId: string,
    before: PostedPage[],
    after: PostedPage[],
    empty = false,
  ): Promise<void> {
    if (!this.kept) {
      await this.drop(tx, spaceId);
      return;
    }
    let stats = empty ? undefined : await this.stats(tx, spaceId);
    if (!stats && !empty) {
      const indexed = await tx
        .selectFrom('search_pages')
        .select('page_id')
        .where('space_id', '=', spaceId)
        .execute();
      if (indexed.length > 0) {
        const all = await this.indexed(
          tx,
          spaceId,
          indexed.map((row) => row.page_id),
        );
        const written = new Set([...before, ...after].map((page) => page.num));
        // The pages not written now, as they are indexed; then the ones written, below.
        await this.apply(
          tx,
          spaceId,
          undefined,
          [],
          all.filter((page) => !written.has(page.num)),
        );
        stats = await this.stats(tx, spaceId);
        // They had no postings to remove.
        before = [];
      }
    }
    await this.apply(tx, spaceId, stats, before, after);
  }

  private async apply(
    tx: Tx,
    spaceId: string,
    stats: SpaceStats | undefined,
    before: PostedPage[],
    after: PostedPage[],
  ): Promise<void> {
    const total = { pages: 0, sections: 0, tokens: 0 };
    const byChunk = new Map<number, { before: PostedPage[]; after: PostedPage[] }>();
    const at = (num: number) => {
      const chunk = chunkOf(num);
      let entry = byChunk.get(chunk);
      if (!entry) {
        entry = { before: [], after: [] };
        byChunk.set(chunk, entry);
      }
      return entry;
    };
    for (const page of before) at(page.num).before.push(page);
    for (const page of [...after].sort((a, b) => a.num - b.num)) at(page.num).after.push(page);
    const counts = new Map<string, number>();
    const count = (term: string, by: number) => counts.set(term, (counts.get(term) ?? 0) + by);
    const upserts: Array<{ term: string; chunk: number; entries: Buffer; positions: Buffer }> = [];
    // The terms whose rows the write empties, by chunk: deleted a chunk's at once (a page
    // written again takes its old words out: 56 rows a sync for a page of the bench, a statement
    // each was half its time on PostgreSQL).
    const emptied = new Map<number, string[]>();
    // Tokenizing pages and rewriting a chunk's rows is tens of milliseconds for a few pages, and
    // seconds for a space written whole: in slices, between which the server answers others.
    const slices = new TimeSlices(this.turnsInWrites ? undefined : Number.POSITIVE_INFINITY);
    // A chunk at a time: the postings of a whole space (100,000 pages) as objects would not fit.
    for (const [chunk, { before: old, after: now }] of [...byChunk].sort((a, b) => a[0] - b[0])) {
      const written = [...new Set([...old, ...now].map((page) => page.num))].sort((a, b) => a - b);
      const added = new Map<string, Posting[]>();
      const terms = new Set<string>();
      const tally = (posted: PagePostings, sign: number) => {
        total.sections += sign * posted.sections;
        total.tokens += sign * posted.tokens;
        total.pages += sign;
      };
      for (const page of old) {
        if (slices.due()) await slices.next();
        const posted = pagePostings(page);
        tally(posted, -1);
        for (const term of posted.terms.keys()) terms.add(term);
      }
      // In page order, so each term's new postings are in order.
      for (const page of now) {
        if (slices.due()) await slices.next();
        const posted = pagePostings(page);
        tally(posted, 1);
        for (const [term, list] of posted.terms) {
          terms.add(term);
          const into = added.get(term);
          if (into) for (const p of list) into.push(p);
          else added.set(term, list);
        }
      }
      const stored =
        stats && stats.pages > 0 ? await this.chunkRows(tx, spaceId, chunk, [...terms]) : new Map();
      for (const term of terms) {
        if (slices.due()) await slices.next();
        const row = stored.get(term);
        const fresh = added.get(term) ?? [];
        if (!row) {
          count(term, fresh.length);
          if (fresh.length > 0) upserts.push({ term, chunk, ...encode(chunk, fresh) });
          continue;
        }
        const rewritten = rewrite(chunk, row.entries, row.positions, written, fresh);
        count(term, fresh.length - rewritten.removed);
        if (fresh.length === 0 && rewritten.removed === 0) continue;
        if (rewritten.entries.length === 0) {
          const terms = emptied.get(chunk);
          if (terms) terms.push(term);
          else emptied.set(chunk, [term]);
        } else upserts.push({ term, chunk, entries: rewritten.entries, positions: rewritten.positions });
      }
    }
    // In key order: the B-tree is appended to rather than split all over (a 100,000-page space
    // in chunk order took 5.9 s to insert).
    const byKey = <T extends { term: string; chunk: number }>(a: T, b: T) =>
      a.term < b.term ? -1 : a.term > b.term ? 1 : a.chunk - b.chunk;
    upserts.sort(byKey);
    for (const [chunk, terms] of emptied)
      for (const batch of batches(terms, 500))
        await tx
          .deleteFrom('search_postings')
          .where('space_id', '=', spaceId)
          .where('chunk', '=', chunk)
          .where('term', 'in', batch)
          .execute();
    for (const batch of batches(upserts))
      await tx
        .insertInto('search_postings')
        .values(batch.map((row) => ({ space_id: spaceId, ...row })))
        .onConflict((oc) =>
          oc.columns(['space_id', 'term', 'chunk']).doUpdateSet((eb) => ({
            entries: eb.ref('excluded.entries'),
            positions: eb.ref('excluded.positions'),
          })),
        )
        .execute();
    const changed = [...counts].filter(([, by]) => by !== 0);
    for (const batch of batches(changed))
      await tx
        .insertInto('search_terms')
        .values(batch.map(([term, sections]) => ({ space_id: spaceId, term, sections })))
        .onConflict((oc) =>
          oc
            .columns(['space_id', 'term'])
            .doUpdateSet({ sections: sql`search_terms.sections + excluded.sections` }),
        )
        .execute();
    for (const batch of batches(changed.filter(([, by]) => by < 0).map(([term]) => term)))
      await tx
        .deleteFrom('search_terms')
        .where('space_id', '=', spaceId)
        .where('term', 'in', batch)
        .where('sections', '<=', 0)
        .execute();
    await tx
      .insertInto('search_space_stats')
      .values({ space_id: spaceId, ...total, generation: newGeneration() })
      .onConflict((oc) =>
        oc.column('space_id').doUpdateSet({
          pages: sql`search_space_stats.pages + excluded.pages`,
          sections: sql`search_space_stats.sections + excluded.sections`,
          tokens: sql`search_space_stats.tokens + excluded.tokens`,
          generation: sql`excluded.generation`,
        }),
      )
      .execute();
  }

  /**
   * A new generation for the space's postings when something a search of them reads besides
   * them changed (pages hidden or shown): processes read them again (cache.ts).
   */
  async touch(tx: Tx, spaceId: string): Promise<void> {
    await tx
      .updateTable('search_space_stats')
      .set({ generation: newGeneration() })
      .where('space_id', '=', spaceId)
      .execute();
  }

  async drop(tx: Tx, spaceId: string): Promise<void> {
    for (const table of ['search_postings', 'search_terms', 'search_space_stats'] as const)
      await tx.deleteFrom(table).where('space_id', '=', spaceId).execute();
  }

  async stats(db: Db | Tx, spaceId: string): Promise<SpaceStats | undefined> {
    const row = await db
      .selectFrom('search_space_stats')
      .select(['pages', 'sections', 'tokens'])
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    return row && { pages: Number(row.pages), sections: Number(row.sections), tokens: Number(row.tokens) };
  }

  /**
   * The space's statistics, the generation of its postings, and whether the space is deleted;
   * undefined without postings.
   */
  async searchable(
    spaceId: string,
  ): Promise<(SpaceStats & { generation: number; deleted: boolean }) | undefined> {
    const row = await this.db
      .selectFrom('search_space_stats as t')
      .innerJoin('spaces as s', 's.id', 't.space_id')
      .select(['t.pages', 't.sections', 't.tokens', 't.generation', 's.deleted_at'])
      .where('t.space_id', '=', spaceId)
      .executeTakeFirst();
    return (
      row && {
        pages: Number(row.pages),
        sections: Number(row.sections),
        tokens: Number(row.tokens),
        generation: Number(row.generation),
        deleted: row.deleted_at !== null,
      }
    );
  }

  private async chunkRows(
    tx: Tx,
    spaceId: string,
    chunk: number,
    terms: string[],
  ): Promise<Map<string, { entries: Uint8Array; positions: Uint8Array }>> {
    const out = new Map<string, { entries: Uint8Array; positions: Uint8Array }>();
    for (const batch of batches(terms, 500)) {
      const rows = await tx
        .selectFrom('search_postings')
        .select(['term', 'entries', 'positions'])
        .where('space_id', '=', spaceId)
        .where('chunk', '=', chunk)
        .where('term', 'in', batch)
        .execute();
      for (const row of rows) out.set(row.term, row);
    }
    return out;
  }

  /**
   * The pages as they are indexed now, with their numbers (their postings are about to be
   * rewritten).
   */
  async indexed(tx: Tx, spaceId: string, pageIds: string[]): Promise<PostedPage[]> {
    const out: SectionOfPage[] = [];
    for (const batch of batches(pageIds, 300)) {
      const rows = await tx
        .selectFrom('search_pages as p')
        .innerJoin('search_sections as s', (join) =>
          join.onRef('s.space_id', '=', 'p.space_id').onRef('s.page_id', '=', 'p.page_id'),
        )
        .select(['p.num', 'p.title', 's.position', 's.heading', 's.body'])
        .where('p.space_id', '=', spaceId)
        .where('p.page_id', 'in', batch)
        .execute();
      for (const row of rows) if (row.num !== null) out.push({ ...row, num: row.num });
    }
    return pagesOf(out);
  }

  /** The space's terms beginning with `prefix`, at most `limit` + 1 of them (more: too many). */
  async completions(spaceId: string, prefix: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('search_terms')
      .select('term')
      .where('space_id', '=', spaceId)
      .where('term', '>=', prefix)
      .where('term', '<', `${prefix}\u{10FFFF}`)
      .orderBy('term')
      .limit(limit + 1)
      .execute();
    return rows.map((row) => row.term).filter((term) => term.startsWith(prefix));
  }

  /** Every row of these terms, by term in chunk order; positions only for the `positional` ones. */
  async termRows(
    spaceId: string,
    pages: number,
    terms: string[],
    positional: ReadonlySet<string>,
  ): Promise<Map<string, TermRow[]>> {
    const out = new Map<string, TermRow[]>();
    if (terms.length === 0) return out;
    const wanted = [...positional];
    const query = this.db
      .selectFrom('search_postings')
      .select(['term', 'chunk', 'entries'])
      .$if(wanted.length > 0, (qb) =>
        qb.select((eb) =>
          eb.case().when('term', 'in', wanted).then(eb.ref('positions')).end().as('positions'),
        ),
      )
      .where('space_id', '=', spaceId)
      .where('term', 'in', terms)
      .orderBy('term')
      .orderBy('chunk')
      .compile();
    const rows = (await this.readAside?.(query, pages)) ?? (await this.db.executeQuery(query)).rows;
    for (const row of rows as Array<{
      term: string;
      chunk: number;
      entries: Uint8Array;
      positions?: Uint8Array | null;
    }>) {
      const item = {
        term: row.term,
        chunk: Number(row.chunk),
        entries: row.entries,
        positions: row.positions ?? null,
      };
      const list = out.get(row.term);
      if (list) list.push(item);
      else out.set(row.term, [item]);
    }
    return out;
  }
}
