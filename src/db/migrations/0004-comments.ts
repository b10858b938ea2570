import type { Kysely } from 'kysely';

/** Comments on spaces and change requests, their replies, and emoji reactions on both. */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.references('change_requests.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('posted_by', 'text', (c) => c.notNull())
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('revision', 'text', (c) => c.notNull())
    .addColumn('target_page', 'text')
    .addColumn('target_node', 'text')
    .addColumn('target_record', 'text')
    .addColumn('target_definition', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('comments_thread')
    .on('comments')
    .columns(['space_id', 'change_request_id', 'seq', 'id'])
    .execute();
  await db.schema.createIndex('comments_change_request').on('comments').column('change_request_id').execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('posted_by', 'text', (c) => c.notNull())
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comment_replies_comment')
    .on('comment_replies')
    .columns(['comment_id', 'seq', 'id'])
    .execute();

  // `comment_id` is the thread the reacted-to comment or reply belongs to, so deleting a comment
  // takes every reaction of its thread with it.
  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('reacted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['subject_id', 'emoji', 'user_id'])
    .execute();
  await db.schema
    .createIndex('comment_reactions_comment')
    .on('comment_reactions')
    .column('comment_id')
    .execute();
}
