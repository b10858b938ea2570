import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: each row of the search tables holds, beside its words, a term naming its space's
 * organization (`§§` and the organization's id; search/pg-terms.ts), so the GIN indexes of 0025,
 * 0026 and 0029 find an organization's matches themselves. An organization's search used to read
 * every organization's matches of a word and keep its own by a set of its spaces listed in each
 * statement: a 100-space organization beside one of 10,000 read the 10,100 sections of a common
 * word to keep 100, and listing the 10,000 spaces took each part of their search 10 ms. The
 * term goes in the stored vectors, not in the indexed expressions, which stay as they are. So
 * does a term naming the space's bucket (`§h` and the last character of its id modulo 8; see
 * bucketOf in search/pg-terms.ts): a search read in parts takes some buckets a part, and each
 * part reads only its own matches, where each read all of them and dropped the other parts'.
 */
const TABLES = [
  ['search_sections', 'vector'],
  ['search_page_titles', 'vector'],
  ['search_section_headings', 'vector'],
  ['search_pages', 'terms'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, column] of TABLES) {
    await sql`UPDATE ${sql.id(table)} x SET ${sql.id(column)} = x.${sql.id(column)}
        || array_to_tsvector(ARRAY['§§' || s.org_id, '§h' || (ascii(right(x.space_id, 1)) % 8)])
      FROM spaces s WHERE s.id = x.space_id`.execute(db);
  }
  // The updates left their entries in the indexes' pending lists, which every search reads.
  for (const index of [
    'search_sections_terms',
    'search_pages_terms',
    'search_page_titles_terms',
    'search_section_headings_terms',
  ])
    await sql`SELECT gin_clean_pending_list(${index}::text::regclass)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [table, column] of TABLES)
    await sql`UPDATE ${sql.id(table)} x SET ${sql.id(column)} = ts_delete(x.${sql.id(column)},
        ARRAY['§§' || s.org_id, '§h' || (ascii(right(x.space_id, 1)) % 8)])
      FROM spaces s WHERE s.id = x.space_id`.execute(db);
}
