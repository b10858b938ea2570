import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Converted documents kept in the database (areas/content/stored-documents.ts): a page's document
 * for each profile, made from its markdown `body` (hash), with the questions its conversion asked
 * of the tree's links and their answers, the document as deflated JSON. One row a page and
 * profile: the latest body written replaces the one before. A page read for the first time by a
 * process converted its markdown (0.25 ms for a bench/scale page, 4 ms for a page of the GitBook
 * fixtures); a row is read and inflated in tens of microseconds, and serves every process and
 * restart. `page_document_fills` holds the tree each space's rows were last filled for.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = sql.raw(postgres ? 'bytea' : 'blob');
  const withoutRowid = sql.raw(postgres ? '' : ' WITHOUT ROWID');
  await sql`CREATE TABLE page_documents (
      space_id text NOT NULL, page_id text NOT NULL, profile text NOT NULL,
      body text NOT NULL, asked text NOT NULL, document ${blob} NOT NULL,
      PRIMARY KEY (space_id, page_id, profile))${withoutRowid}`.execute(db);
  await sql`CREATE TABLE page_document_fills (
      space_id text PRIMARY KEY, tree_hash text NOT NULL)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['page_documents', 'page_document_fills'])
    await sql`DROP TABLE IF EXISTS ${sql.id(table)}`.execute(db);
}
