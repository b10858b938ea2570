import { type RawBuilder, sql } from 'kysely';

/**
 * PostgreSQL's search indexes hold a row's terms together with one term naming its space, which
 * no analysed word can be (`§` is neither a letter nor a digit). A search in one space then finds
 * its matches inside the index: otherwise every space's matches of a word are read from the
 * table and most dropped (a common word in a 100-page space beside a 100,000-page one: 65,000
 * rows read for 60 kept). A search of a few spaces names each of them so. Migrations 0025
 * (sections), 0026 (pages) and 0029 (titles, headings) index these very expressions, and a query
 * uses an index only when it names the expression exactly as indexed (test/e2e/search.test.ts
 * checks it): changing one needs a new migration.
 */

/** The tables whose terms are so indexed, and their column of terms. */
const TERMS = {
  search_sections: 'vector',
  search_page_titles: 'vector',
  search_section_headings: 'vector',
  search_pages: 'terms',
} as const;
export type TermsTable = keyof typeof TERMS;

/** The tsquery text of a query in some spaces only: any of the terms naming them, and the query. */
function inSpaces(tsquery: string, spaceIds: readonly string[] | undefined): string {
  if (spaceIds === undefined) return tsquery;
  const spaces = spaceIds.map((id) => `'§${id.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`);
  return `(${tsquery}) & (${spaces.join(' | ')})`;
}

/**
 * Whether the terms of a row of `table` under `alias` match `tsquery` (text), in `spaceIds` only
 * when given: the condition its index answers. The query text is one parameter, so the
 * statement's text is the same for one space and for several.
 */
export function termsMatch(
  table: TermsTable,
  alias: string,
  tsquery: string,
  spaceIds?: readonly string[],
): RawBuilder<unknown> {
  const indexed = `(${alias}.${TERMS[table]} || array_to_tsvector(ARRAY['§' || ${alias}.space_id]))`;
  return sql`${sql.raw(indexed)} @@ ${inSpaces(tsquery, spaceIds)}::tsquery`;
}
