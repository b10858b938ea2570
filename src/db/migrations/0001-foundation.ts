import type { Kysely } from 'kysely';

// Migrations use the schema builder only, so one definition serves SQLite and PostgreSQL.
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_tokens_lookup').on('api_tokens').column('lookup').execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('email_domains', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('use_case', 'text')
    .addColumn('community_type', 'text')
    .addColumn('default_role', 'text')
    .addColumn('default_content', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addColumn('ai', 'integer', (c) => c.notNull())
    .addColumn('invite_links', 'integer', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('merge_rules', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('organizations_created')
    .on('organizations')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('org_email_domains')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('org_email_domains_pk', ['domain', 'org_id'])
    .execute();

  await db.schema
    .createTable('members')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text')
    .addColumn('disabled', 'integer', (c) => c.notNull())
    .addColumn('sso', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('members_pk', ['org_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').columns(['user_id', 'org_id']).execute();
  await db.schema
    .createIndex('members_joined')
    .on('members')
    .columns(['org_id', 'joined_at', 'user_id'])
    .execute();

  await db.schema
    .createTable('email_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('email_invites_org_email', ['org_id', 'email'])
    .execute();
  await db.schema.createIndex('email_invites_email').on('email_invites').column('email').execute();

  await db.schema
    .createTable('link_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('link_invites_org')
    .on('link_invites')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('agent_instructions')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('instructions', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'agent_instructions',
    'link_invites',
    'email_invites',
    'members',
    'org_email_domains',
    'organizations',
    'api_tokens',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
