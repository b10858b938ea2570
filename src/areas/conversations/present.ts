import { countsText, weeklyPulse } from '../../conversations/index.js';
import type {
  ConversationClustersTable,
  ConversationIssuesTable,
  ConversationsTable,
} from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { ClusterStats, Conversation, ConversationIssue, IssuesCluster } from './schemas.js';

/** The icon every cluster shows (the contract wants one; Quire does not pick per topic). */
export const CLUSTER_ICON = 'circle-question';

const absoluteHttp = (value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

export function presentConversation(row: ConversationsTable, urls: Urls): Conversation {
  const metadata = JSON.parse(row.metadata) as { url?: unknown };
  const source = absoluteHttp(metadata.url);
  return {
    object: 'conversation',
    id: row.id,
    ...(row.subject !== null ? { subject: row.subject } : {}),
    createdAt: row.created_at,
    ...(row.processed_at ? { processedAt: row.processed_at } : {}),
    source: row.source,
    urls: {
      location: urls.api(`/orgs/${row.org_id}/conversations/${row.id}`),
      ...(source ? { source } : {}),
    },
  };
}

export function presentIssue(row: ConversationIssuesTable, urls: Urls): ConversationIssue {
  return {
    object: 'conversation-issue',
    id: row.id,
    title: row.title,
    summary: row.summary,
    createdAt: row.created_at,
    ingestedAt: row.ingested_at,
    conversation: row.conversation_id,
    ...(row.cluster_id ? { cluster: row.cluster_id } : {}),
    urls: { location: urls.api(`/orgs/${row.org_id}/conversations-issues/${row.id}`) },
  };
}

/** What a cluster's summary says when no page of the organization answers it. */
export const GAP_NOTE = 'No page of the documentation answers this yet: a documentation gap.';

/** The weekly pulse is counted at `now` from the members' dates, so it is never stale. */
export function presentCluster(
  row: ConversationClustersTable,
  stats: ClusterStats,
  urls: Urls,
  now: Date,
): IssuesCluster {
  const summary = [
    row.medoid_summary,
    countsText(row.issues, row.conversations),
    ...(row.gap ? [GAP_NOTE] : []),
  ];
  return {
    object: 'issues-cluster',
    id: row.id,
    label: row.label,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    icon: row.icon,
    summary: summary.join('\n\n'),
    weeklyPulse: weeklyPulse(JSON.parse(row.dates) as string[], now),
    sources: JSON.parse(row.sources) as Record<string, number>,
    stats,
    urls: {
      location: urls.api(`/orgs/${row.org_id}/conversations-clusters/${row.id}`),
      app: urls.app(`/o/${row.org_id}/conversations/${row.id}`),
    },
  };
}
