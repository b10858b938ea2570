import type { Kysely } from 'kysely';

/**
 * Translations (src/areas/translations): a space kept translated into another language.
 *
 * `translations`: one per (source space, language). `instructions` is the JSON document the API
 * takes; `target_space_id` and `result_revision_id` are set by the first run; `source_revision_id`
 * and `settings_digest` (instructions, languages, service) say what the result was made from, so
 * the next run looks only at what changed since. Stats are the
 * contract's (durations in seconds). `run_wanted` is set when a run is asked for while one is
 * going, so it runs again when done rather than twice at once.
 *
 * `translation_pages`: for each page of the target, the digest of the source text it was
 * translated from and whether that went through, so a run translates only what changed.
 *
 * `translation_memory`: translated segments by a digest of (organization, source text, source and
 * target language, instructions, provider): a one-word edit sends one segment, and a page moved
 * or copied sends nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('translations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('source_space_id', 'text', (c) => c.notNull())
    .addColumn('source_language', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('instructions', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('target_space_id', 'text')
    .addColumn('result_revision_id', 'text')
    .addColumn('source_revision_id', 'text')
    .addColumn('settings_digest', 'text')
    .addColumn('runs', 'integer', (c) => c.notNull())
    .addColumn('total_words', 'integer', (c) => c.notNull())
    .addColumn('total_pages', 'integer', (c) => c.notNull())
    .addColumn('total_duration', 'integer', (c) => c.notNull())
    .addColumn('latest_run_duration', 'integer', (c) => c.notNull())
    .addColumn('latest_pages', 'integer', (c) => c.notNull())
    .addColumn('latest_words', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('run_wanted', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('translations_pair')
    .on('translations')
    .columns(['source_space_id', 'language'])
    .unique()
    .execute();
  await db.schema
    .createIndex('translations_org')
    .on('translations')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('translation_pages')
    .addColumn('translation_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('source_digest', 'text', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_pages_pk', ['translation_id', 'page_id'])
    .execute();

  await db.schema
    .createTable('translation_memory')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('translation_memory').execute();
  await db.schema.dropTable('translation_pages').execute();
  await db.schema.dropTable('translations').execute();
}
