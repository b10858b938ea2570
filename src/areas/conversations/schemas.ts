import { type Static, Type } from 'typebox';
import { PageQuery, Timestamp } from '../../http/schemas.js';
import { OrgParams } from '../orgs/schemas.js';

/** The conversation operations exist only in GitBook's 0.146 API; these are its shapes. */

const Uri = Type.String({ format: 'uri' });
/** A batch holds at most this many conversations; a conversation at most this many parts. */
export const MAX_BATCH = 100;
const MAX_PARTS = 500;

export const ConversationMetadata = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  attributes: Type.Optional(
    Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1000 }), { maxProperties: 50 }),
  ),
  createdAt: Type.Optional(Timestamp),
});
export type ConversationMetadata = Static<typeof ConversationMetadata>;

export const ConversationPart = Type.Object({
  type: Type.Literal('message'),
  role: Type.Enum(['user', 'assistant', 'team-member']),
  body: Type.String({ maxLength: 100_000 }),
});
export type ConversationPart = Static<typeof ConversationPart>;

export const ConversationInput = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  metadata: Type.Optional(ConversationMetadata),
  subject: Type.Optional(Type.String({ maxLength: 512 })),
  parts: Type.Array(ConversationPart, { maxItems: MAX_PARTS }),
});
export type ConversationInput = Static<typeof ConversationInput>;

export const IngestBody = Type.Union([
  ConversationInput,
  Type.Array(ConversationInput, { minItems: 1, maxItems: MAX_BATCH }),
]);

export const Conversation = Type.Object({
  object: Type.Literal('conversation'),
  id: Type.String(),
  subject: Type.Optional(Type.String()),
  createdAt: Timestamp,
  processedAt: Type.Optional(Timestamp),
  source: Type.String(),
  urls: Type.Object({ location: Uri, source: Type.Optional(Uri) }),
});
export type Conversation = Static<typeof Conversation>;

export const ConversationWithParts = Type.Object({
  conversation: Conversation,
  parts: Type.Array(ConversationPart),
  metadata: ConversationMetadata,
});

export const ConversationIssue = Type.Object({
  object: Type.Literal('conversation-issue'),
  id: Type.String(),
  title: Type.String(),
  summary: Type.String(),
  createdAt: Timestamp,
  ingestedAt: Timestamp,
  conversation: Type.String(),
  cluster: Type.Optional(Type.String()),
  urls: Type.Object({ location: Uri }),
});
export type ConversationIssue = Static<typeof ConversationIssue>;

export const IssueWithConversation = Type.Object({ issue: ConversationIssue, conversation: Conversation });

export const ClusterStats = Type.Object({
  issues: Type.Number(),
  conversations: Type.Number(),
  tasksTotal: Type.Number(),
  tasksBacklog: Type.Number(),
  tasksStarted: Type.Number(),
  tasksCompleted: Type.Number(),
  tasksCancelled: Type.Number(),
});
export type ClusterStats = Static<typeof ClusterStats>;

export const IssuesCluster = Type.Object({
  object: Type.Literal('issues-cluster'),
  id: Type.String(),
  label: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  icon: Type.String({ maxLength: 50 }),
  summary: Type.String(),
  weeklyPulse: Type.Array(Type.Number(), { minItems: 13, maxItems: 13 }),
  sources: Type.Record(Type.String(), Type.Number()),
  stats: ClusterStats,
  urls: Type.Object({ location: Uri, app: Uri }),
});
export type IssuesCluster = Static<typeof IssuesCluster>;

export const ListConversationsQuery = Type.Object({
  ...PageQuery,
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
});
export type ListConversationsQuery = Static<typeof ListConversationsQuery>;

export const ListIssuesQuery = Type.Object({
  ...PageQuery,
  cluster: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  conversation: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});
export type ListIssuesQuery = Static<typeof ListIssuesQuery>;

export const CLUSTER_ORDERS = [
  'updatedAt',
  'issues',
  'conversations',
  'tasksTotal',
  'tasksBacklog',
  'tasksStarted',
] as const;
export const ListClustersQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(Type.Enum(['asc', 'desc'])),
  orderBy: Type.Optional(Type.Enum([...CLUSTER_ORDERS])),
  status: Type.Optional(Type.Enum(['pending', 'analysing'])),
});
export type ListClustersQuery = Static<typeof ListClustersQuery>;

export const ConversationParams = Type.Object({
  ...OrgParams.properties,
  conversationId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const IssueParams = Type.Object({
  ...OrgParams.properties,
  issueId: Type.String({ minLength: 1, maxLength: 128 }),
});
export const ClusterParams = Type.Object({
  ...OrgParams.properties,
  clusterId: Type.String({ minLength: 1, maxLength: 128 }),
});
