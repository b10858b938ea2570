import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { Db, Tx } from '../db/database.js';
import { keepPrepared } from '../db/pg-dialect.js';
import { documentTokens } from './analyzer.js';
import { digest } from './digest.js';
import { type PageRow, type RankCursor, type Ranking, storedPage } from './hits.js';
import { bucketsOf, orgTerm, type TermsScope, type TermsTable, termsMatch, withOrgTerm } from './pg-terms.js';
import { type QueryPlan, toTsQuery } from './query.js';
import { chunks, type IndexedPage, type SearchScope, SqlSearchIndex, visibleSql } from './search-index.js';

/**
 * PostgreSQL: each section's analysed terms as a tsvector (`search_sections.vector`, GIN
 * indexed) built here rather than by a text-search configuration, so both engines see the
 * same terms: the page title with weight A, the heading B, the text D; positions keep the
 * columns apart so a phrase never spans two of them. Ranked with ts_rank.
 */

/** A matched section as the ranking reads it: position, anchor, heading, body. */
type SectionJson = [number, string | null, string, string];

/**
 * Spaces a query names by their terms at most (see `fewSpaces`): past about 100 named spaces
 * PostgreSQL estimates the index scan dearer than reading the whole table and checking the long
 * query on every row (40,000 sections: 150 spaces, 110 ms; 50 spaces by the index, 0.5 ms).
 */
const MAX_SPACE_TERMS = 50;

/** The GIN indexes of migrations 0025, 0026 and 0029. */
const GIN_INDEXES = [
  'search_sections_terms',
  'search_pages_terms',
  'search_page_titles_terms',
  'search_section_headings_terms',
];

/** The tables whose rows hold the term naming their organization (0033), and their column of terms. */
const ORG_TERM_TABLES = [
  ['search_sections', 'vector'],
  ['search_page_titles', 'vector'],
  ['search_section_headings', 'vector'],
  ['search_pages', 'terms'],
] as const;

/** The tables of the title and heading tiers (0029), a page's rows deleted with its sections. */
const TIER_TABLES = ['search_page_titles', 'search_section_headings'] as const;

/** tsvector positions stop at 16383; a lexeme keeps at most 256 of them. */
const MAX_POSITION = 16383;
const MAX_POSITIONS_PER_LEXEME = 255;

const lexeme = (term: string) => `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** A section's terms with their weighted positions, as its tsvector holds them. */
function sectionTerms(title: string, heading: string, body: string): Map<string, string[]> {
  const positions = new Map<string, string[]>();
  let position = 1;
  for (const [text, weight] of [
    [title, 'A'],
    [heading, 'B'],
    [body, 'D'],
  ] as const) {
    for (const token of documentTokens(text)) {
      if (position > MAX_POSITION) break;
      const list = positions.get(token.term) ?? [];
      if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(`${position}${weight === 'D' ? '' : weight}`);
      positions.set(token.term, list);
      position++;
    }
    position++;
  }
  return positions;
}

/** The tsvector literal of a section. */
export function vectorOf(title: string, heading: string, body: string): string {
  return [...sectionTerms(title, heading, body)]
    .map(([term, list]) => `${lexeme(term)}:${list.join(',')}`)
    .join(' ');
}

/**
 * The tsvector literal of every term of a page's sections, without positions: a page has a term
 * exactly when one of its sections does, so a query of one word (its forms and prefix) matches
 * the page exactly when it matches one of its sections (see `rankPass`).
 */
export function pageTermsOf(page: IndexedPage): string {
  const terms = new Set<string>();
  for (const section of page.sections)
    for (const term of sectionTerms(page.title, section.heading, section.text).keys()) terms.add(term);
  return [...terms].map(lexeme).join(' ');
}

/**
 * The order of ids among pages of one score, as the statements sort them (COLLATE "C", whatever
 * the database's locale): the order parts of a search are merged in, and a cursor resumes from.
 */
const codeOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A part's ranking (see `rankPart`): its count is null when the count beside it is the answer's. */
type PartRanking = Omit<Ranking, 'total'> & { total: number | null };

/** A query of one word (its forms and prefix; no phrase to leave out), whose pages are counted from their own terms (0026). */
const isOneWord = (plan: QueryPlan) =>
  plan.must.length === 1 && plan.must[0]!.kind === 'any' && plan.not.every((n) => n.kind === 'any');

/** An organization of this many spaces and more is searched in parts (see `partsOf`). */
const SPLIT_SPACES = 1_000;

/** Beyond this many of an organization's spaces out of a search's scope, its spaces are listed (see `leftOut`). */
const LEFT_OUT_MAX = 1_000;

/** Where a ranking's statements look: the terms the indexes narrow by, and the spaces they leave out. */
interface Where {
  terms: TermsScope | undefined;
  /** An organization's spaces out of the scope (see `leftOut`); undefined: its spaces are listed. */
  leftOut: string[] | undefined;
}

export class PostgresSearchIndex extends SqlSearchIndex {
  /** Rankings running in this process (see `partsOf`). */
  private ranking = 0;

  constructor(
    db: Db,
    postingsPages?: number,
    /** From how many spaces an organization's search is read in parts (see `partsOf`). */
    private readonly splitSpaces = SPLIT_SPACES,
    /** How many of an organization's spaces its search may leave out by id (see `leftOut`). */
    private readonly leftOutMax = LEFT_OUT_MAX,
  ) {
    // Other requests run on other connections while a write's transaction gives turns away.
    super(db, postingsPages, undefined, true);
  }

  /** A section's terms are a column of its row and go with it; its title's and headings' are rows of their own. */
  protected async deleteTerms(tx: Tx, spaceId: string, pageIds: string[]): Promise<void> {
    for (const table of TIER_TABLES)
      await sql`DELETE FROM ${sql.id(table)} WHERE space_id = ${spaceId} AND page_id IN (${sql.join(pageIds)})`.execute(
        tx,
      );
  }

  protected async deleteAllTerms(tx: Tx, spaceId: string): Promise<void> {
    for (const table of TIER_TABLES)
      await sql`DELETE FROM ${sql.id(table)} WHERE space_id = ${spaceId}`.execute(tx);
  }

  /**
   * A page's terms (see pageTermsOf) and its organization's (0033) go in its row: written after
   * it, the GIN index held both.
   */
  protected override pageColumns(page: IndexedPage, spaceId: string): Record<string, unknown> {
    return { terms: withOrgTerm(pageTermsOf(page), spaceId) };
  }

  /**
   * The term naming the spaces' organization (0033) becomes the new one's in each of their rows,
   * before the spaces' own rows change (the old term is read from them), in the transaction that
   * moves them: no search of the old organization finds them once it commits.
   */
  override async spacesMoving(tx: Tx, spaceIds: string[], orgId: string): Promise<void> {
    await super.spacesMoving(tx, spaceIds, orgId);
    for (const [table, column] of ORG_TERM_TABLES)
      await sql`UPDATE ${sql.id(table)} x SET ${sql.id(column)} = ts_delete(x.${sql.id(column)}, '§§' || s.org_id)
          || array_to_tsvector(ARRAY[${orgTerm(orgId)}])
        FROM spaces s WHERE s.id = x.space_id AND x.space_id = ANY(${spaceIds}::text[])`.execute(tx);
  }

  protected async insertSections(tx: Tx, spaceId: string, pages: IndexedPage[]): Promise<void> {
    const rows = pages.flatMap((page) => page.sections.map((section) => ({ page, section })));
    for (const batch of chunks(rows, 200)) {
      await tx
        .insertInto('search_sections')
        .values(
          batch.map(({ page, section }) => ({
            space_id: spaceId,
            page_id: page.pageId,
            position: section.position,
            anchor: section.anchor,
            heading: section.heading,
            body: section.text,
            vector: withOrgTerm(vectorOf(page.title, section.heading, section.text), spaceId),
          })) as never,
        )
        .execute();
    }
    // The tiers' own rows (0029): a page's title, and each heading that has terms.
    for (const batch of chunks(pages, 200))
      await sql`INSERT INTO search_page_titles (space_id, page_id, vector) VALUES ${sql.join(
        batch.map(
          (page) => sql`(${spaceId}, ${page.pageId}, ${withOrgTerm(vectorOf(page.title, '', ''), spaceId)})`,
        ),
      )}`.execute(tx);
    const headings = rows
      .map(({ page, section }) => ({ page, section, vector: vectorOf('', section.heading, '') }))
      .filter((row) => row.vector !== '');
    for (const batch of chunks(headings, 200))
      await sql`INSERT INTO search_section_headings (space_id, page_id, position, vector) VALUES ${sql.join(
        batch.map(
          ({ page, section, vector }) =>
            sql`(${spaceId}, ${page.pageId}, ${section.position}, ${withOrgTerm(vector, spaceId)})`,
        ),
      )}`.execute(tx);
  }

  /**
   * After a large write: statistics for the planner, and the GIN indexes' pending entries merged.
   * Until autovacuum analyses the tables (up to a minute or more after a bulk load), the planner
   * assumes a space has a few dozen pages and checks the vector of every section of the space
   * one by one instead of using the GIN index (measured after indexing 10,000 pages: 74 ms for a
   * rare word instead of 9). GIN keeps new entries in a pending list, up to 4 MB, that every
   * search reads whole until it is merged: right after indexing 100,000 pages, a search of a
   * 100-page space took 20 ms instead of 10.
   */
  async optimize(): Promise<void> {
    for (const table of ['search_pages', 'search_sections', 'search_vocab', ...TIER_TABLES])
      await sql`ANALYZE ${sql.id(table)}`.execute(this.db);
    for (const index of GIN_INDEXES)
      await sql`SELECT gin_clean_pending_list(${index}::text::regclass)`.execute(this.db);
  }

  /**
   * One ranking statement (see `SqlSearchIndex.rank`). A page scores its best tier (a title
   * match 4, a heading 2, the words together 1) plus a relevance below 1, the tiers' from their
   * own narrow rows (0029), as SQLite's come from its own title and heading indexes: a title
   * match takes its title's ts_rank, plus its best heading's weight or 1 when the title has the
   * words together; a heading match its heading's (3 when the heading has the words together);
   * any other page its best section's, plus 1 when the section has the words together. When the
   * title and heading tiers hold more pages than the answer, they alone are ranked, without
   * reading a match's vector (a common word of a 100,000-page space: 8,800 section vectors,
   * 45 of 77 ms, before 0029). What is left for the other matches is counting their pages: from
   * the pages' own terms (0026) for a query of one word, else by reading the matching sections.
   * Both passes give a page the same score, so a cursor from one is understood by the other.
   */
  protected async rankPass(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
  ): Promise<Ranking | undefined> {
    const fixed = scope.org === undefined && scope.spaceIds !== undefined;
    // Spaces matched inside the indexes, by their terms (see pg-terms.ts): a few listed ones, or
    // an organization's when it has few. Otherwise every space's matches are read and filtered.
    const named = fixed
      ? scope.spaceIds!.length <= MAX_SPACE_TERMS
        ? scope.spaceIds
        : undefined
      : await this.fewSpaces(scope);
    if (named?.length === 0) return { pages: [], more: false, total: 0 };
    // An organization's matches are found by the term naming it (0033); its spaces are listed
    // only when more than a few of its indexed spaces are out of the scope (see `leftOut`).
    const where: Where = named
      ? { terms: { spaceIds: named }, leftOut: undefined }
      : scope.org
        ? { terms: { orgId: scope.org.orgId }, leftOut: await this.leftOut(scope.org) }
        : { terms: undefined, leftOut: undefined };
    const parts = named === undefined && scope.org ? await this.partsOf(scope.org.orgId) : 1;
    // A query of one word is counted beside the ranking, once for the whole scope.
    const counting = tiered && isOneWord(plan) ? this.countOneWord(plan, scope, count, where) : undefined;
    counting?.catch(() => undefined);
    this.ranking++;
    let answers: Array<PartRanking | undefined>;
    try {
      answers = await Promise.all(
        Array.from({ length: parts }, (_, part) =>
          this.rankPart(plan, scope, cursor, count, tiered, where, parts > 1 ? { part, parts } : undefined),
        ),
      );
    } finally {
      this.ranking--;
    }
    // A part whose title and heading pages ran out: every part is ranked again in full.
    if (answers.includes(undefined)) return undefined;
    const ranked = answers as PartRanking[];
    // The parts' spaces are apart: their best pages, in the statement's order, are the answer's,
    // and their counts add up, unless one was left to the count beside them.
    const pages =
      ranked.length === 1
        ? ranked[0]!.pages
        : ranked
            .flatMap((answer) => answer.pages)
            .sort(
              (a, b) => b.score - a.score || codeOrder(a.spaceId, b.spaceId) || codeOrder(a.pageId, b.pageId),
            );
    const totals = ranked.map((answer) => answer.total);
    return {
      pages: pages.slice(0, count),
      more: pages.length > count || ranked.some((answer) => answer.more),
      total: totals.includes(null)
        ? ((await counting) ?? 0)
        : totals.reduce<number>((sum, total) => sum + total!, 0),
    };
  }

  /**
   * How many parts an organization's search reads, side by side on connections of their own: a
   * part is some buckets of its spaces (see bucketOf), whose matches the GIN index finds by their
   * terms; when the organization's spaces are listed, the spaces whose id hashes to it, and each
   * part reads every match but ranks and groups only its own ("configuration" in 10,000 spaces:
   * 46 ms in one statement, 32 in two side by side; "search index" 48 and 25). Only an organization of
   * SPLIT_SPACES spaces and more, and while this process ranks nothing else: each part pays the
   * index's reading, and under load the other core is not free.
   */
  private async partsOf(orgId: string): Promise<number> {
    if (this.ranking > 0) return 1;
    const spaces = await this.kept(`search-org-spaces:${orgId}`, async () => {
      const { rows } = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM spaces s
        WHERE s.org_id = ${orgId} AND s.deleted_at IS NULL`.execute(this.db);
      return Number(rows[0]?.n ?? 0);
    });
    return spaces >= this.splitSpaces ? 2 : 1;
  }

  /** One statement of `rankPass`, over the spaces of one part when the search is read in parts. */
  private async rankPart(
    plan: QueryPlan,
    scope: SearchScope,
    cursor: RankCursor | undefined,
    count: number,
    tiered: boolean,
    where: Where,
    part: { part: number; parts: number } | undefined,
  ): Promise<PartRanking | undefined> {
    const query = sql`${toTsQuery(plan.must)}::tsquery`;
    const filter = toTsQuery(plan.must, { lean: true });
    const notQuery = plan.not.length > 0 ? toTsQuery(plan.not, { any: true, lean: true }) : undefined;
    const { fixed, spaces, spaceIn } = this.scopeOf(scope, part, where.leftOut);
    // A part of an organization's search found by its term reads the matches of its buckets only.
    const terms: TermsScope | undefined =
      part && where.leftOut && where.terms
        ? { ...where.terms, buckets: bucketsOf(part.part, part.parts) }
        : where.terms;
    // The rows of `table` under `alias` that match, in scope, without a word left out. ts_rank
    // and the words-together check are taken where a row's vector is read, so no vector travels
    // through a join.
    const matches = (table: TermsTable, alias: string, when: RawBuilder<unknown> = sql`true`) => {
      const vector = sql.ref(`${alias}.vector`);
      return sql`SELECT ${sql.ref(`${alias}.space_id`)} AS space_id, ${sql.ref(`${alias}.page_id`)} AS page_id,
          ts_rank(${vector}, ${query})::float8 AS r,
          ${plan.together ? sql`${vector} @@ ${toTsQuery([plan.together])}::tsquery` : sql`false`} AS g
        FROM ${sql.id(table)} ${sql.id(alias)}
        WHERE ${when} AND ${termsMatch(table, alias, filter, terms)} AND ${spaceIn(sql.ref(`${alias}.space_id`))}
        ${excluded(alias)}`;
    };
    const excluded = (alias: string) =>
      notQuery
        ? sql`AND (${sql.ref(`${alias}.space_id`)}, ${sql.ref(`${alias}.page_id`)}) NOT IN (
            SELECT e.space_id, e.page_id FROM search_sections e WHERE ${termsMatch('search_sections', 'e', notQuery, terms)})`
        : sql``;
    // Hidden pages of the scope (few) are taken out of the matches as a set: joining every
    // match to its page row cost more than the match itself (a rare word: 4 of 5 ms).
    const hidden = (alias: string) =>
      scope.includeHidden
        ? sql``
        : sql`AND (${sql.ref(`${alias}.space_id`)}, ${sql.ref(`${alias}.page_id`)}) NOT IN (
          SELECT p.space_id, p.page_id FROM search_pages p WHERE ${spaceIn(sql`p.space_id`)} AND p.hidden = 1)`;
    // Whether only the title and heading tiers are scored: more pages have one than the answer
    // holds (computed once). They outrank every other page, words together or not, and no other
    // match is read. Otherwise every match is read, once, with its relevance and whether it has
    // the words together (a tier of its own, 1): when those pages with the title and heading
    // ones fill the answer, the rest are counted but not grouped and ranked ("install package"
    // in a 100,000-page space: 13 title and heading pages, 119 sections with the words
    // together, 13,541 matches, whose grouping took 14 of 73 ms). Deciding by the words together
    // before reading the matches would take a pass over them of its own, and a second one when
    // it did not restrict (a search of 10,000 spaces: 72 ms with one pass, 117 with two).
    // More title rows than the answer holds decide it alone: then the union of the title and
    // heading pages (cp, gp) is never built (a word in the title of each of 10,000 spaces: 20,000
    // title and 20,000 heading rows, 20 ms of unions and counts a statement).
    const restricting = tiered
      ? sql`((SELECT COUNT(*) FROM (SELECT 1 FROM tm LIMIT ${sql.lit(count + 1)}) l) > ${sql.lit(count)}
          OR (SELECT COUNT(*) FROM cp) > ${sql.lit(count)})`
      : sql`false`;
    // When the tiers restrict, every match outside them is left out (r is empty): gp is cp.
    const restrictingTogether = tiered
      ? sql`(${restricting} OR (SELECT COUNT(*) FROM gp) > ${sql.lit(count)})`
      : sql`false`;
    const rel = (r: RawBuilder<unknown>) => sql`${r} / (1.0 + ${r})`;
    // A page's best (see above), grouped from its tier rows and, when every match is ranked, its
    // sections' (r): only a title row has a trel, w is a tier's weight, gw the words together in
    // a section. A section adds nothing to a page with a tier, so both passes score such a page
    // alike. Three aggregates a row, not five: a weight is whole and a relevance below 1, so a
    // page's best weight is the whole part of its best w + rel (as on SQLite; a word in every
    // title of 10,000 spaces: 59.5 -> 56.8 and 63.7 -> 60.2 ms a part, same rows).
    const ranked = sql`
      sp AS MATERIALIZED (SELECT s.id FROM spaces s WHERE ${spaces}),
      tm AS MATERIALIZED (${matches('search_page_titles', 't')}),
      hm AS MATERIALIZED (${matches('search_section_headings', 'h')}),
      cp AS MATERIALIZED (SELECT space_id, page_id FROM tm UNION SELECT space_id, page_id FROM hm),
      m AS MATERIALIZED (
        SELECT x.space_id, x.page_id FROM search_sections x
        WHERE ${termsMatch('search_sections', 'x', filter, terms)} AND ${spaceIn(sql`x.space_id`)} ${excluded('x')}
      ),
      r AS MATERIALIZED (${matches('search_sections', 'x', sql`NOT ${restricting}`)}),
      gp AS MATERIALIZED (SELECT space_id, page_id FROM cp UNION SELECT space_id, page_id FROM r WHERE g),
      ranked AS MATERIALIZED (
        SELECT u.space_id, u.page_id, (CASE WHEN MAX(u.trel) IS NOT NULL THEN 4 + FLOOR(MAX(u.w + u.rel)) + MAX(u.trel)
            WHEN MAX(u.w + u.rel) >= 1 THEN MAX(u.w + u.rel) ELSE MAX(u.gw + u.rel) END)::float8 AS score
        FROM (
          SELECT space_id, page_id, CASE WHEN g THEN 1 ELSE 0 END AS w, ${rel(sql`r`)} AS trel,
            0::float8 AS rel, 0 AS gw FROM tm
          UNION ALL SELECT space_id, page_id, CASE WHEN g THEN 3 ELSE 2 END, NULL::float8, ${rel(sql`r`)}, 0 FROM hm
          UNION ALL SELECT space_id, page_id, 0, NULL::float8, ${rel(sql`r`)}, CASE WHEN g THEN 1 ELSE 0 END FROM r
            WHERE g OR NOT ${restrictingTogether}
        ) u WHERE true ${hidden('u')} GROUP BY u.space_id, u.page_id
      ),
      top AS MATERIALIZED (
        SELECT space_id, page_id, score FROM ranked WHERE ${this.cursorSql(cursor)}
        ORDER BY score DESC, space_id COLLATE "C", page_id COLLATE "C"
        LIMIT ${count + 1}
      )`;
    // Every matched page is counted, scored or not. When every match was scored, they are the
    // ranked pages. Otherwise a query of one word (its forms and prefix; no phrase to leave out)
    // matches a page exactly when the page's terms do (0026): its pages are counted from their
    // own rows, in a statement of its own on another connection while this one ranks (one after
    // the other they took 30-50 and 45 ms: a common word, 100,000 pages). Any other query is
    // counted from its matches (a CTE is read when first used).
    const oneWord = isOneWord(plan);
    const counted = oneWord
      ? sql`NULL::bigint`
      : sql`(SELECT COUNT(*) FROM (SELECT DISTINCT m.space_id, m.page_id FROM m WHERE true ${hidden('m')}) d)`;
    const total = sql`(CASE WHEN ${restricting} THEN ${counted}
      WHEN ${restrictingTogether} THEN (SELECT COUNT(*) FROM (SELECT DISTINCT r.space_id, r.page_id FROM r WHERE true ${hidden('r')}) d)
      ELSE (SELECT COUNT(*) FROM ranked) END)`;
    // One statement: the count, the returned pages and their matched sections, both read by index
    // for those pages only (OFFSET 0 keeps the planner from joining every page row instead); one
    // page more than asked tells whether more follow. The count's row comes back even when no
    // page does. It starts with SELECT: the driver takes any other statement for a write.
    const statement = sql<
      Partial<PageRow> & { score: number; total: number; restricted: boolean; sections: SectionJson[] | null }
    >`
      SELECT * FROM (WITH ${ranked}
        SELECT c.total, c.restricted, t.* FROM (SELECT ${total} AS total, ${restrictingTogether} AS restricted) c
        LEFT JOIN LATERAL (
          SELECT top.space_id, top.page_id, top.score, p.title, p.description, p.path, p.ancestors,
            (SELECT json_agg(json_build_array(y.position, y.anchor, y.heading, y.body) ORDER BY y.position)
              FROM search_sections y WHERE y.space_id = top.space_id AND y.page_id = top.page_id
              AND y.vector @@ ${filter}::tsquery) AS sections
          FROM top CROSS JOIN LATERAL (
            SELECT p.title, p.description, p.path, p.ancestors FROM search_pages p
            WHERE p.space_id = top.space_id AND p.page_id = top.page_id OFFSET 0) p
        ) t ON true
      ) answer
      ORDER BY score DESC, space_id COLLATE "C", page_id COLLATE "C"`.compile(this.db);
    // Planning this statement takes 1.5 ms, as long as running it for a rare word. Its generic
    // plan, which a prepared statement settles on, is the one wanted for every query: matches by
    // the GIN index, however many.
    const { rows } = await this.db.executeQuery(this.prepared(fixed, statement));
    const found = rows.filter((r): r is PageRow & typeof r => r.page_id != null);
    // Fewer pages than asked from the tiers only: they ran out, so every match is ranked.
    if (tiered && found.length <= count && rows[0]?.restricted === true) return undefined;
    return {
      pages: found.slice(0, count).map((row) => ({
        spaceId: row.space_id,
        pageId: row.page_id,
        score: Number(row.score),
        page: storedPage(row),
        sections: (row.sections ?? []).map(([position, anchor, heading, body]) => ({
          spaceId: row.space_id,
          pageId: row.page_id,
          position,
          anchor,
          heading,
          body,
        })),
      })),
      more: found.length > count,
      total: rows[0]?.total == null ? null : Number(rows[0].total),
    };
  }

  /**
   * The scope's spaces as a condition on \`spaces s\` (of one part when the search is read in
   * parts), and whether a space id is one of them once they are the CTE \`sp\`.
   */
  private scopeOf(
    scope: SearchScope,
    part: { part: number; parts: number } | undefined,
    leftOut: string[] | undefined,
  ) {
    const fixed = scope.org === undefined && scope.spaceIds !== undefined;
    // A list of spaces is one parameter, so the statement's text depends only on the query's
    // shape; an organization's visibility rules are lists of any length.
    const spaces = fixed
      ? sql`s.deleted_at IS NULL AND s.id = ANY(${scope.spaceIds}::text[])`
      : sql`${this.scopeSql({ ...scope, includeHidden: true }, sql`s.id`)}${
          part
            ? sql` AND (hashtext(s.id) & 2147483647) % ${sql.lit(part.parts)} = ${sql.lit(part.part)}`
            : sql``
        }`;
    // A few spaces are one array to compare with; an organization's thousands are a hashed set
    // (an array parameter is compared element by element: 10,000 spaces, 171 ms a search). The
    // set must stay a filter on the matches the GIN index finds: as a top-level IN, PostgreSQL
    // turns it into a join and reads every space's sections by space (it takes a CTE for 200
    // rows), 10,000 index probes that checked each vector (111 ms to count 10,000 matches
    // instead of 12). Under an OR it is not joined but hashed; the OR itself folds away later.
    // An organization's matches, which its term finds (0033), less the few spaces left out: no
    // space is listed (a part's buckets are terms of its query: see rankPart).
    const spaceIn = (column: RawBuilder<unknown>) =>
      leftOut
        ? leftOut.length > 0
          ? sql`${column} <> ALL(${leftOut}::text[])`
          : sql`true`
        : fixed
          ? sql`${column} = ANY(ARRAY(SELECT id FROM sp))`
          : sql`(${column} IN (SELECT id FROM sp) OR false)`;
    return { fixed, spaces, spaceIn };
  }

  /**
   * The pages a query of one word matches in the whole scope, counted from the pages' own terms
   * (0026), or null when the ranking will count them itself; started beside the ranking, once
   * however many parts it reads (each part's count read every page row the word matches: a
   * word in every title of 10,000 spaces, 36 ms of counting a part).
   */
  private countOneWord(
    plan: QueryPlan,
    scope: SearchScope,
    count: number,
    where: Where,
  ): Promise<number | null> {
    const { fixed, spaces, spaceIn } = this.scopeOf(scope, undefined, where.leftOut);
    const filter = toTsQuery(plan.must, { lean: true });
    const notQuery = plan.not.length > 0 ? toTsQuery(plan.not, { any: true, lean: true }) : undefined;
    // It counts only when the title and heading rows in scope are more than the answer holds:
    // with fewer, their pages cannot be (the ranking's `restricting` counts such pages, without
    // the words left out), so every match is ranked and counted by the ranking itself. Counting
    // anyway took the other core from the ranking: "configuration", in no title or heading of an
    // organization of 10,000 spaces, 14 ms of counting beside 36 of ranking. The rows of the whole
    // database are looked at first: when they are few, so are the scope's, and the scope's spaces
    // are never listed (`sp`, 10 ms for 10,000 spaces, again beside each part of the ranking).
    return this.db
      .executeQuery(
        this.prepared(
          fixed,
          sql<{
            n: number | null;
          }>`SELECT * FROM (WITH sp AS MATERIALIZED (SELECT s.id FROM spaces s WHERE ${spaces}),
                anywhere AS (
                  SELECT 1 FROM search_page_titles t WHERE ${termsMatch('search_page_titles', 't', filter, where.terms)}
                  UNION ALL SELECT 1 FROM search_section_headings h WHERE ${termsMatch('search_section_headings', 'h', filter, where.terms)}
                  LIMIT ${sql.lit(count + 1)}
                ),
                tiers AS (
                  SELECT 1 FROM search_page_titles t WHERE ${termsMatch('search_page_titles', 't', filter, where.terms)}
                    AND ${spaceIn(sql`t.space_id`)}
                  UNION ALL SELECT 1 FROM search_section_headings h WHERE ${termsMatch('search_section_headings', 'h', filter, where.terms)}
                    AND ${spaceIn(sql`h.space_id`)}
                  LIMIT ${sql.lit(count + 1)}
                )
                SELECT CASE WHEN (SELECT COUNT(*) FROM anywhere) <= ${sql.lit(count)} THEN NULL
                  WHEN (SELECT COUNT(*) FROM tiers) > ${sql.lit(count)} THEN (
                  SELECT COUNT(*) FROM search_pages p WHERE ${termsMatch('search_pages', 'p', filter, where.terms)}
                  AND ${spaceIn(sql`p.space_id`)} ${scope.includeHidden ? sql`` : sql`AND p.hidden = 0`}
                  ${notQuery ? sql`AND NOT (${termsMatch('search_pages', 'p', notQuery)})` : sql``}
                ) END AS n) c`.compile(this.db),
        ),
      )
      .then(({ rows }) => (rows[0]?.n == null ? null : Number(rows[0].n)));
  }

  /**
   * The organization's spaces a caller's search leaves out, those in the trash and those the
   * visibility rules close to the caller (none, often), kept per set of rules while the database
   * is unchanged; undefined when there are more than LEFT_OUT_MAX. The organization's own term
   * finds its matches (0033), so its spaces need not be listed: listing 10,000 spaces in each
   * part of a search took 10 ms of it, and the set 8 ms more to check 10,000 matches against.
   * Another organization's space is never in its term, nor is a space moved from it (its rows are
   * written again: SearchEngine.spacesMoved).
   */
  private async leftOut(org: NonNullable<SearchScope['org']>): Promise<string[] | undefined> {
    const rules = org.visibility.all ? 'all' : digest(JSON.stringify(org.visibility));
    const ids = await this.kept(`search-org-left-out:${org.orgId}:${rules}`, async () => {
      // NOT would let a rule that is NULL for a space (no default level) open it here.
      const { rows } = await sql<{ id: string }>`SELECT s.id FROM spaces s
        WHERE s.org_id = ${org.orgId} AND (s.deleted_at IS NOT NULL OR ${visibleSql(org.visibility)} IS NOT TRUE)
        LIMIT ${sql.lit(this.leftOutMax + 1)}`.execute(this.db);
      return rows.map((row) => row.id);
    });
    return ids.length > this.leftOutMax ? undefined : ids;
  }

  /**
   * The spaces of an organization's scope when they are few enough to be named in the query
   * (MAX_SPACE_TERMS), else undefined: otherwise the search reads the matches of every other
   * organization too, to keep its own (an organization of 100 spaces beside one of 10,000: 10 ms,
   * where naming them took 1.4).
   */
  private async fewSpaces(scope: SearchScope): Promise<string[] | undefined> {
    const { rows } = await sql<{ id: string }>`SELECT s.id FROM spaces s
      WHERE ${this.scopeSql({ ...scope, includeHidden: true }, sql`s.id`)}
      LIMIT ${sql.lit(MAX_SPACE_TERMS + 1)}`.execute(this.db);
    return rows.length <= MAX_SPACE_TERMS ? rows.map((row) => row.id) : undefined;
  }

  protected keyList(keys: number[]): RawBuilder<unknown> {
    return sql`unnest(${keys}::bigint[]) AS w(key)`;
  }

  protected override keepPrepared<T>(statement: CompiledQuery<T>): CompiledQuery<T> {
    return this.prepared(true, statement);
  }

  /** A statement kept prepared by name when its text depends only on the query's shape. */
  private prepared<T>(fixed: boolean, statement: CompiledQuery<T>): CompiledQuery<T> {
    if (fixed) keepPrepared(statement.sql);
    return statement;
  }

  private cursorSql(cursor: RankCursor | undefined): RawBuilder<unknown> {
    if (!cursor) return sql`1 = 1`;
    const { score, spaceId, pageId } = cursor;
    return sql`(score < ${score} OR (score = ${score} AND (space_id COLLATE "C" > ${spaceId} OR (space_id = ${spaceId} AND page_id COLLATE "C" > ${pageId}))))`;
  }
}
