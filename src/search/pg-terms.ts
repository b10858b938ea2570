import { type RawBuilder, sql } from 'kysely';

/**
 * PostgreSQL's search indexes hold a row's terms together with one term naming its space, which
 * no analysed word can be (`§` is neither a letter nor a digit). A search in one space then finds
 * its matches inside the index: otherwise every space's matches of a word are read from the
 * table and most dropped (a common word in a 100-page space beside a 100,000-page one: 65,000
 * rows read for 60 kept). A search of a few spaces names each of them so; an organization's
 * search names the organization, whose term every row's stored terms hold (0033). Migrations 0025
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

const quoted = (term: string) => `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/**
 * Where a query looks: some spaces (any of the terms naming them), or one organization's spaces
 * (the term naming it, which every row's stored terms hold since 0033), of some buckets only.
 */
export interface TermsScope {
  spaceIds?: readonly string[] | undefined;
  orgId?: string | undefined;
  buckets?: readonly number[] | undefined;
}

/**
 * Spaces fall in BUCKETS buckets by the last character of their id, and each row's stored terms
 * name its space's bucket (0033): a search read in parts takes some buckets a part, and the
 * index hands each part its own matches only. The same rule is SQL in 0033.
 */
export const BUCKETS = 8;

export function bucketOf(spaceId: string): number {
  return spaceId.charCodeAt(spaceId.length - 1) % BUCKETS;
}

/** The buckets of part `part` of `parts`. */
export function bucketsOf(part: number, parts: number): number[] {
  return Array.from({ length: BUCKETS }, (_, bucket) => bucket).filter((bucket) => bucket % parts === part);
}

/** The tsquery text of a query within a scope: the query, and the terms naming the scope. */
function within(tsquery: string, scope: TermsScope | undefined): string {
  const terms: string[] = [];
  if (scope?.spaceIds !== undefined)
    terms.push(`(${scope.spaceIds.map((id) => quoted(`§${id}`)).join(' | ')})`);
  if (scope?.orgId !== undefined) terms.push(quoted(orgTerm(scope.orgId)));
  if (scope?.buckets !== undefined) terms.push(`(${scope.buckets.map((b) => quoted(`§h${b}`)).join(' | ')})`);
  return terms.length === 0 ? tsquery : `(${tsquery}) & ${terms.join(' & ')}`;
}

/** The term naming an organization in the stored terms of its spaces' rows. */
export function orgTerm(orgId: string): string {
  return `§§${orgId}`;
}

/**
 * The stored terms of a row of the space `spaceId` (a tsvector literal) with the terms naming its
 * bucket and its organization, read in the statement that writes the row (a space moved to
 * another organization has the term changed in the transaction that moves it: spacesMoving).
 */
export function withOrgTerm(vector: string, spaceId: string): RawBuilder<unknown> {
  const terms = `${vector} ${quoted(`§h${bucketOf(spaceId)}`)}`;
  return sql`(${terms}::tsvector || array_to_tsvector(ARRAY[${'§§'} || COALESCE((SELECT o.org_id FROM spaces o WHERE o.id = ${spaceId}), '')]))`;
}

/**
 * Whether the terms of a row of `table` under `alias` match `tsquery` (text), within `scope`
 * when given: the condition its index answers. The query text is one parameter, so the
 * statement's text is the same for one space, for several and for an organization.
 */
export function termsMatch(
  table: TermsTable,
  alias: string,
  tsquery: string,
  scope?: TermsScope,
): RawBuilder<unknown> {
  const indexed = `(${alias}.${TERMS[table]} || array_to_tsvector(ARRAY['§' || ${alias}.space_id]))`;
  return sql`${sql.raw(indexed)} @@ ${within(tsquery, scope)}::tsquery`;
}
