import { type RawBuilder, sql } from 'kysely';

/**
 * PostgreSQL's search indexes hold each section's terms together with one term naming its
 * space, which no analysed word can be (`§` is neither a letter nor a digit). A search in one
 * space then finds its matches inside the index: otherwise every space's matches of a word are
 * read from the table and most dropped (a common word in a 100-page space beside a 100,000-page
 * one: 65,000 rows read for 60 kept). A search of a few spaces names each of them so. Migration 0025 indexes these very expressions, and a query
 * uses an index only when it names the expression exactly as indexed (test/e2e/search.test.ts
 * checks it): changing one needs a new migration.
 */

/** Which of a section's terms: all of them, its title's (weight A) or its heading's (weight B). */
export type TermsPart = 'all' | 'titles' | 'headings';

const PARTS: Record<TermsPart, (vector: string) => string> = {
  all: (vector) => vector,
  titles: (vector) => `ts_filter(${vector}, '{a}')`,
  headings: (vector) => `ts_filter(${vector}, '{b}')`,
};

/** The indexed tsvector of a section of `search_sections` under `alias`. */
function indexedTerms(part: TermsPart, alias: string): string {
  return `(${PARTS[part](`${alias}.vector`)} || array_to_tsvector(ARRAY['§' || ${alias}.space_id]))`;
}

/** The tsquery text of a query in some spaces only: any of the terms naming them, and the query. */
function inSpaces(tsquery: string, spaceIds: readonly string[] | undefined): string {
  if (spaceIds === undefined) return tsquery;
  const spaces = spaceIds.map((id) => `'§${id.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`);
  return `(${tsquery}) & (${spaces.join(' | ')})`;
}

/**
 * Whether a section's indexed terms match `tsquery` (text), in `spaceIds` only when given: the
 * condition an index of 0025 answers. The query text is one parameter, so the statement's text
 * is the same for one space and for several.
 */
export function termsMatch(
  part: TermsPart,
  alias: string,
  tsquery: string,
  spaceIds?: readonly string[],
): RawBuilder<unknown> {
  return sql`${sql.raw(indexedTerms(part, alias))} @@ ${inSpaces(tsquery, spaceIds)}::tsquery`;
}

/**
 * Whether a page's terms (`search_pages.terms`, every term of its sections) match `tsquery`, in
 * `spaceIds` only when given: the condition the index of migration 0026 answers.
 */
export function pageTermsMatch(
  alias: string,
  tsquery: string,
  spaceIds?: readonly string[],
): RawBuilder<unknown> {
  return sql`(${sql.raw(`${alias}.terms`)} || array_to_tsvector(ARRAY['§' || ${sql.raw(`${alias}.space_id`)}])) @@ ${inSpaces(tsquery, spaceIds)}::tsquery`;
}
