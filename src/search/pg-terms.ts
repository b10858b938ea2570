import { type RawBuilder, sql } from 'kysely';

/**
 * PostgreSQL's search indexes hold each section's terms together with one term naming its
 * space, which no analysed word can be (`§` is neither a letter nor a digit). A search in one
 * space then finds its matches inside the index: otherwise every space's matches of a word are
 * read from the table and most dropped (a common word in a 100-page space beside a 100,000-page
 * one: 65,000 rows read for 60 kept). Migration 0025 indexes these very expressions, and a query
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

/** The tsquery text of the term naming a space, for a query that searches that space alone. */
function spaceTermQuery(spaceId: string): string {
  return `'§${spaceId.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * Whether a section's indexed terms match `tsquery` (text), in `spaceId` alone when given: the
 * condition an index of 0025 answers. The query text is one parameter, so the statement's text
 * is the same for one space and for several.
 */
export function termsMatch(
  part: TermsPart,
  alias: string,
  tsquery: string,
  spaceId?: string,
): RawBuilder<unknown> {
  const text = spaceId === undefined ? tsquery : `(${tsquery}) & ${spaceTermQuery(spaceId)}`;
  return sql`${sql.raw(indexedTerms(part, alias))} @@ ${text}::tsquery`;
}

/**
 * Whether a page's terms (`search_pages.terms`, every term of its sections) match `tsquery`, in
 * `spaceId` alone when given: the condition the index of migration 0026 answers.
 */
export function pageTermsMatch(alias: string, tsquery: string, spaceId?: string): RawBuilder<unknown> {
  const text = spaceId === undefined ? tsquery : `(${tsquery}) & ${spaceTermQuery(spaceId)}`;
  return sql`(${sql.raw(`${alias}.terms`)} || array_to_tsvector(ARRAY['§' || ${sql.raw(`${alias}.space_id`)}])) @@ ${text}::tsquery`;
}
