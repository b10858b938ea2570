import type { Kysely } from 'kysely';

/**
 * Collections, spaces (with the minimal revision store they point at), teams, grants, and the
 * durable job queue.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('collections.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text')
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('collections_org')
    .on('collections')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('collections_parent')
    .on('collections')
    .columns(['parent_id', 'position', 'id'])
    .execute();

  await db.schema
    .createTable('objects')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('collections.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text')
    .addColumn('icon_url', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('edit_mode', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('default_level', 'text')
    .addColumn('merge_rules', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('spaces_org').on('spaces').columns(['org_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('spaces_parent')
    .on('spaces')
    .columns(['parent_id', 'position', 'id'])
    .execute();
  await db.schema.createIndex('spaces_deleted').on('spaces').column('deleted_at').execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('tree_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('revisions_space')
    .on('revisions')
    .columns(['space_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_org').on('teams').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('team_members_user')
    .on('team_members')
    .columns(['user_id', 'org_id'])
    .execute();

  // Who was given which role on which space or collection, directly or through a team.
  await db.schema
    .createTable('grants')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('principal_type', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('grants_pk', ['target_id', 'principal_type', 'principal_id'])
    .execute();
  await db.schema.createIndex('grants_principal').on('grants').columns(['principal_id', 'org_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();

  // Invite links may also give a level on one space or collection.
  await db.schema.alterTable('link_invites').addColumn('level', 'text').execute();
  await db.schema.alterTable('link_invites').addColumn('target_type', 'text').execute();
  await db.schema.alterTable('link_invites').addColumn('target_id', 'text').execute();

  await db.schema
    .createTable('schedules')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('interval_ms', 'bigint', (c) => c.notNull())
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['target_id', 'target_type', 'level']) {
    await db.schema.alterTable('link_invites').dropColumn(column).execute();
  }
  for (const table of [
    'schedules',
    'jobs',
    'grants',
    'team_members',
    'teams',
    'revisions',
    'spaces',
    'objects',
    'collections',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
