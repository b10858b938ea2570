import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * SQLite: every term of a page's sections in an FTS5 table of its own (rowid = page key), rowids
 * only (`detail=none`), so the pages matching a query of one word are counted without reading
 * and de-duplicating its sections: a common word of a 100,000-page space (65,000 sections of
 * 54,908 pages) took 15 ms to count from the sections. PostgreSQL keeps the same terms on its
 * page rows (0026). A contentless table cannot be filled from the others: every space is marked
 * for indexing again, which the reconciliation does in the background (a search of a space not
 * yet indexed again indexes it first).
 *
 * Its vocabulary (`search_page_vocab`, FTS5's own view of the table's terms) expands the prefix
 * of a word being typed into the terms it begins: FTS5 merges a prefix longer than its prefix
 * indexes across every space before it looks at the rowids asked for (a search of a 100-page
 * space beside a 100,000-page one: 8 ms for "configuration*", 0.05 ms for its terms).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql
    .raw(
      `CREATE VIRTUAL TABLE search_page_terms USING fts5(terms, content='', contentless_delete=1, detail=none, prefix='2 3', tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'")`,
    )
    .execute(db);
  await sql`CREATE VIRTUAL TABLE search_page_vocab USING fts5vocab(search_page_terms, 'row')`.execute(db);
  await sql`UPDATE search_spaces SET version = 0`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`DROP TABLE IF EXISTS search_page_vocab`.execute(db);
  await sql`DROP TABLE IF EXISTS search_page_terms`.execute(db);
}
