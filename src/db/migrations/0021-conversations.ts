import type { Kysely } from 'kysely';

/**
 * Conversations (src/areas/conversations): support conversations sent to the organization,
 * the documentation issues found in them, and the clusters those issues fall into.
 *
 * `conversations`: one per (organization, source, external id); a re-ingest replaces it in place.
 * `parts` and `metadata` are JSON. `processed_at` is set when the analysis has read it.
 *
 * `conversation_issues`: what the analysis extracted from a conversation (replaced on re-ingest),
 * with the cluster it belongs to; `analysed` once a clustering has seen it (a batch clusters only
 * the most recent issues: older ones stay without a cluster, but are not new).
 *
 * `conversation_clusters`: the clusters, with what the analysis computed (the label and summary
 * of the issue nearest the centre, the members' dates, from which the weekly pulse is counted
 * when read, `sources`, counts, the best matching `pages` of the organization's content and
 * whether the cluster is a documentation gap). Their ids are kept across re-clusterings.
 *
 * `conversation_analyses`: per organization, the model of its last batch clustering (vocabulary and
 * centroids, JSON), which places new issues until the next batch.
 *
 * `change_requests.conversations_cluster_id`: the cluster a change request was opened for (its
 * `conversationsIssuesCluster`), counted in the cluster's task stats.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('parts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ingested_at', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text')
    .execute();
  await db.schema
    .createIndex('conversations_external')
    .on('conversations')
    .columns(['org_id', 'source', 'external_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('conversations_org')
    .on('conversations')
    .columns(['org_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('conversation_issues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('cluster_id', 'text')
    .addColumn('analysed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ingested_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_issues_org')
    .on('conversation_issues')
    .columns(['org_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('conversation_issues_cluster')
    .on('conversation_issues')
    .columns(['cluster_id'])
    .execute();
  await db.schema
    .createIndex('conversation_issues_new')
    .on('conversation_issues')
    .columns(['org_id', 'analysed'])
    .execute();
  await db.schema
    .createIndex('conversation_issues_conversation')
    .on('conversation_issues')
    .columns(['conversation_id'])
    .execute();

  await db.schema
    .createTable('conversation_clusters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('medoid_summary', 'text', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull())
    .addColumn('dates', 'text', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('issues', 'integer', (c) => c.notNull())
    .addColumn('conversations', 'integer', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('gap', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_clusters_org')
    .on('conversation_clusters')
    .columns(['org_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('conversation_analyses')
    .addColumn('org_id', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('clustered_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('change_requests').addColumn('conversations_cluster_id', 'text').execute();
  await db.schema
    .createIndex('change_requests_cluster')
    .on('change_requests')
    .columns(['conversations_cluster_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('change_requests_cluster').execute();
  await db.schema.alterTable('change_requests').dropColumn('conversations_cluster_id').execute();
  await db.schema.dropTable('conversation_analyses').execute();
  await db.schema.dropTable('conversation_clusters').execute();
  await db.schema.dropTable('conversation_issues').execute();
  await db.schema.dropTable('conversations').execute();
}
