import type { Kysely } from 'kysely';

/**
 * Docs sites: sections and section groups, the spaces each publishes (site spaces), share
 * links, and per-site settings (customization, adaptive schema, visitor-auth key) as columns.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('basename', 'text')
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('proxy', 'text')
    .addColumn('adaptive_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agents_context', 'text', (c) => c.notNull().defaultTo('included'))
    .addColumn('customization', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('customization_updated_at', 'text')
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'text')
    .addColumn('auth_private_key', 'text', (c) => c.notNull())
    .addColumn('auth_fallback_url', 'text')
    .addColumn('share_secret', 'text', (c) => c.notNull())
    .addColumn('default_section_id', 'text')
    .addColumn('default_site_space_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_org').on('sites').columns(['org_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('site_section_groups.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_section_groups_site')
    .on('site_section_groups')
    .column('site_id')
    .execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('site_section_groups.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('icon', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('default_site_space_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_sections_path', ['site_id', 'path'])
    .execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('section_id', 'text', (c) => c.references('site_sections.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('condition', 'text')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('customization', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_spaces_site')
    .on('site_spaces')
    .columns(['site_id', 'section_id'])
    .execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').column('space_id').execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_share_links_site')
    .on('site_share_links')
    .columns(['site_id', 'created_at', 'id'])
    .execute();
}
