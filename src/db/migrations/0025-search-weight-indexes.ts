import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * PostgreSQL: the search indexes hold each section's terms with a term naming its space (see
 * search/pg-terms.ts, whose queries must name these very expressions: a test checks they use
 * them), so a search of one space reads only its own matches; and the terms of
 * sections' titles (weight A) and headings (weight B) are indexed alone, so a search's tiers come
 * from them instead of checking the weights in every matching vector (a common word in a
 * 100,000-page space: 65,000 vectors). They replace the index of 0006. SQLite has rowid ranges
 * per space (0011) and its own title and heading indexes (0012).
 */
const SPACE_TERM = `array_to_tsvector(ARRAY['§' || space_id])`;
const INDEXES: Array<[string, string]> = [
  ['search_sections_terms', `(vector || ${SPACE_TERM})`],
  ['search_sections_titles', `(ts_filter(vector, '{a}') || ${SPACE_TERM})`],
  ['search_sections_headings', `(ts_filter(vector, '{b}') || ${SPACE_TERM})`],
];

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const [name, terms] of INDEXES)
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(name)} ON search_sections USING gin (${sql.raw(terms)})`.execute(
      db,
    );
  await sql`DROP INDEX IF EXISTS search_sections_vector`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE INDEX IF NOT EXISTS search_sections_vector ON search_sections USING gin (vector)`.execute(
    db,
  );
  for (const [name] of INDEXES) await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
}
