import type { Kysely } from 'kysely';

/** Change requests, their reviews and reviewers, and the link index of each space's content. */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('revisions').addColumn('change_request_id', 'text').execute();
  await db.schema.alterTable('revisions').addColumn('merged_from', 'text').execute();
  await db.schema.alterTable('revisions').addColumn('git', 'text').execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('merged_by', 'text')
    .addColumn('merged_at', 'text')
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    .addColumn('revision', 'text', (c) => c.notNull())
    .addColumn('revision_merged_ancestor', 'text', (c) => c.notNull())
    .addColumn('revision_merged', 'text')
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('change_requests_number', ['space_id', 'number'])
    .execute();
  await db.schema
    .createIndex('change_requests_space')
    .on('change_requests')
    .columns(['space_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'text', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('revision', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('cr_reviewers_user').on('change_request_reviewers').column('user_id').execute();

  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_request_id', 'text', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('reviewer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revision', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cr_reviews_cr')
    .on('change_request_reviews')
    .columns(['change_request_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('change_request_contributors')
    .addColumn('change_request_id', 'text', (c) =>
      c.notNull().references('change_requests.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_contributors_pk', [
      'change_request_id',
      'user_id',
      'action_type',
    ])
    .execute();
  await db.schema
    .createIndex('cr_contributors_user')
    .on('change_request_contributors')
    .column('user_id')
    .execute();

  // Links written in the pages of each space's current content, kept up to date page by page.
  await db.schema
    .createTable('page_links')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('anchor', 'text')
    .addColumn('href', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_links_pk', ['space_id', 'page_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('page_links_target')
    .on('page_links')
    .columns(['space_id', 'target_kind', 'target'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'page_links',
    'change_request_contributors',
    'change_request_reviews',
    'change_request_reviewers',
    'change_requests',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ['git', 'merged_from', 'change_request_id']) {
    await db.schema.alterTable('revisions').dropColumn(column).execute();
  }
}
