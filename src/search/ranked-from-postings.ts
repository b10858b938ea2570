import type { Db } from '../db/database.js';
import type { TimeSlices } from '../time-slices.js';
import { digest } from './digest.js';
import {
  type HitPage,
  type RankCursor,
  type RankedPage,
  type Ranking,
  SECTION_SPAN,
  storedPage,
} from './hits.js';
import { type OrgPostings, orgKey } from './postings/org-postings.js';
import type { PostingsRanking } from './postings/rank.js';
import type { PostingsSearch } from './postings/search.js';
import type { QueryPlan } from './query.js';

/** What an engine reads of the hits of a ranking from postings, by the numbers they were ranked under. */
export interface HitReader {
  /**
   * The hits' pages in a space by number, each with its sections named by `keys` (a page number
   * times SECTION_SPAN plus a section position) in position order. A section or a page gone
   * since the postings were read (another connection's write) is left out.
   */
  spaceHits(spaceId: string, keys: number[]): Promise<Map<number, HitPage>>;
  /** The same for an organization's hits, by its numbers of its pages (org-postings.ts). */
  orgHits(orgId: string, keys: number[]): Promise<Map<number, HitPage>>;
}

/** Reads kept while the database is unchanged (ReadCache), or read each time. */
export type Kept = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/**
 * Searches ranked from the postings Quire keeps (postings/): a large space's, and an
 * organization's across its spaces, with the rows of their hits. Each answers undefined when the
 * engine should rank the search instead: the space or organization has no postings (yet).
 */
export class RankedFromPostings {
  constructor(
    private readonly db: Db,
    private readonly search: PostingsSearch,
    private readonly orgPostings: OrgPostings,
    private readonly hits: HitReader,
    private readonly kept: Kept,
  ) {}

  async space(
    spaceId: string,
    plan: QueryPlan,
    includeHidden: boolean,
    cursor: RankCursor | undefined,
    count: number,
    turns?: TimeSlices,
  ): Promise<Ranking | undefined> {
    const ranked = await this.search.rank({
      spaceId,
      plan,
      includeHidden,
      after:
        cursor && cursor.spaceId === spaceId ? { score: cursor.score, pageId: cursor.pageId } : undefined,
      count,
    });
    if (!ranked) return undefined;
    const keys = sectionKeys(ranked);
    if (turns?.due()) await turns.next();
    return rankedHits(ranked, keys.length > 0 ? await this.hits.spaceHits(spaceId, keys) : new Map());
  }

  /**
   * An organization's search, but for the pages of the spaces in `closed` (those the caller may
   * not read).
   */
  async organization(
    orgId: string,
    closed: readonly string[],
    plan: QueryPlan,
    includeHidden: boolean,
    cursor: RankCursor | undefined,
    count: number,
    turns?: TimeSlices,
  ): Promise<Ranking | undefined> {
    if (!this.search.used) return undefined;
    // Pages whose postings wait to be written (org-postings.ts) are written first, as a space
    // behind its revision is synced before its search.
    if (
      (await this.kept(`org-postings-pending:${orgId}`, () => this.orgPostings.pending(this.db, orgId))) > 0
    )
      await this.db.transaction().execute((tx) => this.orgPostings.settle(tx, orgId));
    const ranked = await this.search.rankKey({
      key: orgKey(orgId),
      plan,
      count,
      stats: () => this.orgPostings.searchable(orgId),
      // Kept while the database is unchanged, per set of spaces closed to the caller.
      leftOut: () =>
        this.kept(`org-postings-out:${orgId}:${includeHidden ? 1 : 0}:${digest(closed.join(','))}`, () =>
          this.orgPostings.leftOut(orgId, closed, includeHidden),
        ),
      after: cursor && {
        score: cursor.score,
        page: () => this.orgPostings.numberOf(orgId, cursor.spaceId, cursor.pageId),
      },
    });
    if (!ranked) return this.onlySpace(orgId, closed, plan, includeHidden, cursor, count, turns);
    const keys = sectionKeys(ranked);
    if (turns?.due()) await turns.next();
    return rankedHits(ranked, keys.length > 0 ? await this.hits.orgHits(orgId, keys) : new Map());
  }

  /**
   * The search of an organization whose pages are all in one space, which has no postings of its
   * own (org-postings.ts): that space's search, when the caller may read it.
   */
  private async onlySpace(
    orgId: string,
    closed: readonly string[],
    plan: QueryPlan,
    includeHidden: boolean,
    cursor: RankCursor | undefined,
    count: number,
    turns: TimeSlices | undefined,
  ): Promise<Ranking | undefined> {
    const spaces = await this.kept(`org-indexed-spaces:${orgId}`, () =>
      this.orgPostings.indexedSpaces(this.db, orgId),
    );
    if (spaces.length !== 1) return undefined;
    const spaceId = spaces[0]!;
    if (closed.includes(spaceId)) return { pages: [], more: false, total: 0 };
    return this.space(spaceId, plan, includeHidden, cursor, count, turns);
  }
}

/**
 * The sections of the ranked pages where the query matched (the highlighter picks among them).
 * Those the postings did not match are not read: the highlighter would not show them (a section
 * shows when it has every match; a page matched on its title alone matched in every section, its
 * first among them, which it then shows).
 */
function sectionKeys(ranked: PostingsRanking): number[] {
  const keys: number[] = [];
  for (const { page, sections } of ranked.pages)
    for (const position of sections) keys.push(page * SECTION_SPAN + position);
  return keys;
}

/** The ranked pages with their rows, by number; a page deleted since its postings were read is left out. */
function rankedHits(ranked: PostingsRanking, byNum: ReadonlyMap<number, HitPage>): Ranking {
  const pages: RankedPage[] = [];
  for (const { page, score } of ranked.pages) {
    const found = byNum.get(page);
    if (!found) continue;
    pages.push({
      spaceId: found.row.space_id,
      pageId: found.row.page_id,
      score,
      page: storedPage(found.row),
      sections: found.sections,
    });
  }
  return { pages, more: ranked.more, total: ranked.total };
}
