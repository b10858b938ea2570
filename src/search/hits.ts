import type { SearchPagesTable, SearchSectionsTable } from '../db/tables.js';
import { POSITION_SPAN } from './postings/codec.js';

/**
 * What a ranking answers (pages, each with the sections of it that matched) and how the rows the
 * indexes read become it: shared by both engines' rankings and the rankings from postings.
 */

/** Where the previous page of ranked results ended. */
export interface RankCursor {
  score: number;
  spaceId: string;
  pageId: string;
}

export interface RankedPage {
  spaceId: string;
  pageId: string;
  score: number;
  page: StoredPage;
  /** The page's sections that matched the query, in position order. */
  sections: StoredSection[];
}

export interface Ranking {
  pages: RankedPage[];
  /** Whether more matching pages follow these. */
  more: boolean;
  /** Every matching page in the scope, whatever the cursor. */
  total: number;
}

export interface StoredSection {
  spaceId: string;
  pageId: string;
  position: number;
  anchor: string | null;
  heading: string;
  body: string;
}

export interface StoredPage {
  spaceId: string;
  pageId: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
}

export type SectionRow = Omit<SearchSectionsTable, 'id'>;

/** What a hit shows of a row of search_pages. */
export type PageRow = Pick<
  SearchPagesTable,
  'space_id' | 'page_id' | 'title' | 'description' | 'path' | 'ancestors'
>;

/** A hit's page row and the sections of it the ranking named. */
export interface HitPage {
  row: PageRow;
  sections: StoredSection[];
}

/** A hit's page with one of its sections (none when it is gone since the postings were read). */
export type HitRow = PageRow & { num: number } & {
  [K in 'position' | 'anchor' | 'heading' | 'body']: SectionRow[K] | null;
};

/** A section's key in a list of hit sections: page number * SECTION_SPAN + position. */
export const SECTION_SPAN = POSITION_SPAN;

export function storedPage(row: PageRow): StoredPage {
  return {
    spaceId: row.space_id,
    pageId: row.page_id,
    title: row.title,
    description: row.description,
    path: row.path,
    ancestors: JSON.parse(row.ancestors) as string[],
  };
}

/** A section row as a hit shows it. */
export function storedSection(row: SectionRow): StoredSection {
  return {
    spaceId: row.space_id,
    pageId: row.page_id,
    position: Number(row.position),
    anchor: row.anchor,
    heading: row.heading,
    body: row.body,
  };
}

/** Hit rows (a page's row with each of its sections, or once without) as pages by `num`. */
export function hitsBy<R extends HitRow>(rows: readonly R[], num: (row: R) => number): Map<number, HitPage> {
  const byNum = new Map<number, HitPage>();
  for (const row of rows) {
    const key = num(row);
    let found = byNum.get(key);
    if (!found) {
      found = { row, sections: [] };
      byNum.set(key, found);
    }
    if (row.position !== null) found.sections.push(storedSection(row as SectionRow));
  }
  return byNum;
}
