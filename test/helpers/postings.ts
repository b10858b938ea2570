import { expect } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { pagePostings } from '../../src/search/postings/build.js';
import { chunkOf, encode, type Posting } from '../../src/search/postings/codec.js';
import type { IndexedPage } from '../../src/search/search-index.js';

/** A page to index: a section per text, each after the first under a heading. */
export function page(id: string, title: string, ...texts: string[]): IndexedPage {
  return {
    pageId: id,
    path: id,
    ancestors: [],
    hidden: false,
    title,
    description: '',
    specs: [],
    sections: texts.map((text, position) => ({
      position,
      anchor: position === 0 ? null : `s${position}`,
      heading: position === 0 ? '' : `Part ${position} ${text.split(' ')[0]}`,
      text,
    })),
  };
}

/** The postings kept under `key` (a space's id, or an organization's key), terms and statistics, in a form to compare. */
export async function postingsOf(db: Db, key: string) {
  const rows = await db
    .selectFrom('search_postings')
    .select(['term', 'chunk', 'entries', 'positions'])
    .where('space_id', '=', key)
    .orderBy('term')
    .orderBy('chunk')
    .execute();
  const terms = await db
    .selectFrom('search_terms')
    .select(['term', 'sections'])
    .where('space_id', '=', key)
    .orderBy('term')
    .execute();
  const stats = await db
    .selectFrom('search_space_stats')
    .select(['pages', 'sections', 'tokens'])
    .where('space_id', '=', key)
    .executeTakeFirst();
  return {
    rows: rows.map((row) => ({
      term: row.term,
      chunk: Number(row.chunk),
      entries: Buffer.from(row.entries).toString('hex'),
      positions: Buffer.from(row.positions).toString('hex'),
    })),
    terms: terms.map((row) => [row.term, Number(row.sections)]),
    stats: stats && {
      pages: Number(stats.pages),
      sections: Number(stats.sections),
      tokens: Number(stats.tokens),
    },
  };
}

/** The postings of these pages under these numbers, encoded at once. */
export function postingsOfNumbered(numbered: ReadonlyArray<{ num: number; page: IndexedPage }>) {
  const byTerm = new Map<string, Map<number, Posting[]>>();
  const sections = new Map<string, number>();
  let tokens = 0;
  for (const { num, page: p } of [...numbered].sort((a, b) => a.num - b.num)) {
    const posted = pagePostings({ num, title: p.title, sections: p.sections });
    tokens += posted.tokens;
    for (const [term, list] of posted.terms) {
      sections.set(term, (sections.get(term) ?? 0) + list.length);
      const chunks = byTerm.get(term) ?? new Map<number, Posting[]>();
      byTerm.set(term, chunks);
      const chunk = chunkOf(num);
      chunks.set(chunk, [...(chunks.get(chunk) ?? []), ...list]);
    }
  }
  const byName = <T>(a: [string, T], b: [string, T]) => (a[0] < b[0] ? -1 : 1);
  return {
    rows: [...byTerm].sort(byName).flatMap(([term, chunks]) =>
      [...chunks]
        .sort((a, b) => a[0] - b[0])
        .map(([chunk, list]) => {
          const blobs = encode(chunk, list);
          return {
            term,
            chunk,
            entries: blobs.entries.toString('hex'),
            positions: blobs.positions.toString('hex'),
          };
        }),
    ),
    terms: [...sections].sort(byName),
    stats: {
      pages: numbered.length,
      sections: numbered.reduce((sum, { page: p }) => sum + p.sections.length, 0),
      tokens,
    },
  };
}

/** The postings of these pages under the numbers the space's index gave them, encoded at once. */
export async function postingsFrom(db: Db, spaceId: string, final: ReadonlyMap<string, IndexedPage>) {
  const nums = await db
    .selectFrom('search_pages')
    .select(['page_id', 'num'])
    .where('space_id', '=', spaceId)
    .orderBy('num')
    .execute();
  expect(nums.map((row) => row.page_id).sort()).toEqual([...final.keys()].sort());
  return postingsOfNumbered(nums.map((row) => ({ num: Number(row.num), page: final.get(row.page_id)! })));
}
