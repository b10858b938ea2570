import { Type } from 'typebox';
import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentCluster, presentConversation, presentIssue } from './present.js';
import {
  ClusterParams,
  Conversation,
  type ConversationInput,
  ConversationParams,
  ConversationWithParts,
  IngestBody,
  IssueParams,
  IssuesCluster,
  IssueWithConversation,
  ListClustersQuery,
  ListConversationsQuery,
  ListIssuesQuery,
} from './schemas.js';

const ORG = '/v1/orgs/:organizationId';

/** Conversations, their issues and clusters (API.md 4.11; GitBook 0.146 only). */
export function conversationRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['conversations'];

  app.post(
    `${ORG}/conversations`,
    {
      schema: {
        operationId: 'ingestConversation',
        tags,
        params: OrgParams,
        body: IngestBody,
        response: { 204: Type.Null(), ...STANDARD_ERRORS },
      },
    },
    async (request, reply) => {
      const body = request.body as ConversationInput | ConversationInput[];
      await services.conversations.ingest(
        request.actor,
        request.params.organizationId,
        Array.isArray(body) ? body : [body],
      );
      return reply.code(204).send(null);
    },
  );

  app.get(
    `${ORG}/conversations`,
    {
      schema: {
        operationId: 'listConversations',
        tags,
        params: OrgParams,
        querystring: ListConversationsQuery,
        response: { 200: listOf(Conversation), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.conversations.listConversations(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return { ...page, items: page.items.map((row) => presentConversation(row, urls)) };
    },
  );

  app.get(
    `${ORG}/conversations/:conversationId`,
    {
      schema: {
        operationId: 'getConversationById',
        tags,
        params: ConversationParams,
        response: { 200: ConversationWithParts, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, conversationId } = request.params;
      const row = await services.conversations.getConversation(request.actor, organizationId, conversationId);
      return {
        conversation: presentConversation(row, urls),
        parts: JSON.parse(row.parts),
        metadata: JSON.parse(row.metadata),
      };
    },
  );

  app.get(
    `${ORG}/conversations-issues`,
    {
      schema: {
        operationId: 'listConversationsIssues',
        tags,
        params: OrgParams,
        querystring: ListIssuesQuery,
        response: { 200: listOf(IssueWithConversation), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.conversations.listIssues(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map(({ issue, conversation }) => ({
          issue: presentIssue(issue, urls),
          conversation: presentConversation(conversation, urls),
        })),
      };
    },
  );

  app.get(
    `${ORG}/conversations-issues/:issueId`,
    {
      schema: {
        operationId: 'getConversationIssueById',
        tags,
        params: IssueParams,
        response: { 200: IssueWithConversation, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, issueId } = request.params;
      const { issue, conversation } = await services.conversations.getIssue(
        request.actor,
        organizationId,
        issueId,
      );
      return { issue: presentIssue(issue, urls), conversation: presentConversation(conversation, urls) };
    },
  );

  app.get(
    `${ORG}/conversations-clusters`,
    {
      schema: {
        operationId: 'listConversationsIssuesClusters',
        tags,
        params: OrgParams,
        querystring: ListClustersQuery,
        response: { 200: listOf(IssuesCluster), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.conversationClusters.list(
        request.actor,
        request.params.organizationId,
        request.query,
      );
      return {
        ...page,
        items: page.items.map((view) =>
          presentCluster(view.row, view.stats, urls, app.quire.deps.clock.now()),
        ),
      };
    },
  );

  app.get(
    `${ORG}/conversations-clusters/:clusterId`,
    {
      schema: {
        operationId: 'getConversationsIssuesCluster',
        tags,
        params: ClusterParams,
        response: { 200: IssuesCluster, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { organizationId, clusterId } = request.params;
      const view = await services.conversationClusters.get(request.actor, organizationId, clusterId);
      return presentCluster(view.row, view.stats, urls, app.quire.deps.clock.now());
    },
  );
}
