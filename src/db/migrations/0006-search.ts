import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The full-text search index (src/search): per space the revision it holds, per page its
 * place in the tree, per section its text; the terms go to an FTS5 table on SQLite and to a
 * tsvector column with a GIN index on PostgreSQL. `search_vocab` records the stem of every
 * indexed term per stemmer, for stemming by expansion.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('search_spaces')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('tree_hash', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('indexed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('search_pages')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('ancestors', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_pages_pk', ['space_id', 'page_id'])
    .execute();

  let sections = db.schema
    .createTable('search_sections')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('anchor', 'text')
    .addColumn('heading', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull());
  if (postgres) sections = sections.addColumn('vector', sql`tsvector`, (c) => c.notNull());
  await sections.execute();
  await db.schema
    .createIndex('search_sections_page')
    .on('search_sections')
    .columns(['space_id', 'page_id', 'position'])
    .execute();

  await db.schema
    .createTable('search_vocab')
    .addColumn('stemmer', 'text', (c) => c.notNull())
    .addColumn('stem', 'text', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_vocab_pk', ['stemmer', 'stem', 'term'])
    .execute();

  if (postgres) {
    await sql`CREATE INDEX search_sections_vector ON search_sections USING gin (vector)`.execute(db);
  } else {
    // Contentless: the text lives in search_sections; this holds the analysed terms only.
    await sql
      .raw(
        `CREATE VIRTUAL TABLE search_fts USING fts5(title, heading, body, content='', contentless_delete=1, prefix='2 3', tokenize="unicode61 remove_diacritics 0 categories 'L* N* Co M*'")`,
      )
      .execute(db);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!postgres) await sql`DROP TABLE IF EXISTS search_fts`.execute(db);
  for (const table of ['search_vocab', 'search_sections', 'search_pages', 'search_spaces'])
    await db.schema.dropTable(table).ifExists().execute();
}
