import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { ConversationIssuesTable, ConversationsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ConversationInput, ListConversationsQuery, ListIssuesQuery } from './schemas.js';

export const ANALYZE_JOB = 'conversations.analyze';

export interface ConversationsNeeds {
  authz: Pick<Authorizer, 'org' | 'membership' | 'requireOrg'>;
  jobs: Pick<JobQueue, 'enqueue'>;
  /** The integration and installation an installation token acts for, when it is one. */
  installationOf(actor: Actor): Promise<{ integration: string; installation: string } | undefined>;
}

/**
 * Conversations (API.md 4.11, GitBook 0.146): support conversations sent in by an organization's
 * admins or by its installed integrations (`conversations:ingest`), kept per source and external
 * id (a re-ingest replaces one, never duplicates it), and read by the organization's members.
 * Ingesting answers at once; the analysis (analysis.ts) runs as a job.
 */
export class ConversationsService {
  constructor(
    private readonly deps: Deps,
    private readonly needs: ConversationsNeeds,
  ) {}

  async ingest(actor: Actor, orgId: string, inputs: ConversationInput[]): Promise<void> {
    const source = await this.sourceOf(actor, orgId);
    const now = this.deps.clock.now().toISOString();
    await this.deps.db.transaction().execute(async (tx) => {
      for (const input of inputs) {
        const existing = await tx
          .selectFrom('conversations')
          .select('id')
          .where('org_id', '=', orgId)
          .where('source', '=', source)
          .where('external_id', '=', input.id)
          .executeTakeFirst();
        const row: ConversationsTable = {
          id: existing?.id ?? newId(),
          org_id: orgId,
          source,
          external_id: input.id,
          subject: input.subject ?? null,
          metadata: JSON.stringify(input.metadata ?? {}),
          parts: JSON.stringify(input.parts),
          created_at: input.metadata?.createdAt ?? now,
          ingested_at: now,
          processed_at: null,
        };
        if (existing) {
          await tx.updateTable('conversations').set(row).where('id', '=', existing.id).execute();
          // Its issues come again from the new parts.
          await tx.deleteFrom('conversation_issues').where('conversation_id', '=', existing.id).execute();
        } else {
          await tx.insertInto('conversations').values(row).execute();
        }
      }
      await this.queueAnalysis(tx, orgId);
    });
  }

  async listConversations(
    actor: Actor,
    orgId: string,
    query: ListConversationsQuery,
  ): Promise<Page<ConversationsTable>> {
    await this.needs.authz.org(actor, orgId, 'access');
    let q = this.deps.db.selectFrom('conversations').selectAll().where('org_id', '=', orgId);
    if (query.source) q = q.where('source', '=', query.source);
    return paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'desc', value: (r) => r.created_at },
        { ref: 'id', dir: 'desc', value: (r) => r.id },
      ],
      query,
      'conversations',
    );
  }

  async getConversation(actor: Actor, orgId: string, id: string): Promise<ConversationsTable> {
    await this.needs.authz.org(actor, orgId, 'access');
    const row = await this.conversation(this.deps.db, orgId, id);
    if (!row) throw notFound(`Conversation "${id}" not found`);
    return row;
  }

  async listIssues(
    actor: Actor,
    orgId: string,
    query: ListIssuesQuery,
  ): Promise<Page<{ issue: ConversationIssuesTable; conversation: ConversationsTable }>> {
    await this.needs.authz.org(actor, orgId, 'access');
    let q = this.deps.db.selectFrom('conversation_issues').selectAll().where('org_id', '=', orgId);
    if (query.cluster) q = q.where('cluster_id', '=', query.cluster);
    if (query.conversation) q = q.where('conversation_id', '=', query.conversation);
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'desc', value: (r) => r.created_at },
        { ref: 'id', dir: 'desc', value: (r) => r.id },
      ],
      query,
      'conversation-issues',
    );
    return { ...page, items: await this.withConversations(page.items) };
  }

  async getIssue(
    actor: Actor,
    orgId: string,
    id: string,
  ): Promise<{ issue: ConversationIssuesTable; conversation: ConversationsTable }> {
    await this.needs.authz.org(actor, orgId, 'access');
    const issue = await this.deps.db
      .selectFrom('conversation_issues')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const [found] = issue ? await this.withConversations([issue]) : [];
    if (!found) throw notFound(`Conversation issue "${id}" not found`);
    return found;
  }

  /**
   * One analysis queued per organization: ingests while it waits join it. Read in the
   * ingesting transaction, so two at once on SQLite serialize; on PostgreSQL two may each queue
   * one, and the second finds nothing left to do.
   */
  private async queueAnalysis(tx: Tx, orgId: string): Promise<void> {
    const payload = JSON.stringify({ orgId });
    const queued = await tx
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', ANALYZE_JOB)
      .where('status', '=', 'queued')
      .where('payload', '=', payload)
      .executeTakeFirst();
    if (!queued) await this.needs.jobs.enqueue(ANALYZE_JOB, { orgId }, { tx });
  }

  /**
   * Who sent it: an integration's installation (`integration:<name>:<installation>`, the form
   * GitBook gives), or an admin through the API (`integration:api:<user>`, which keeps that form).
   */
  private async sourceOf(actor: Actor, orgId: string): Promise<string> {
    if (actor.scopes) {
      const membership = await this.needs.authz.membership(actor, orgId);
      const installation = membership && (await this.needs.installationOf(actor));
      if (!installation) throw notFound(`Organization "${orgId}" not found`);
      if (!actor.scopes.includes('conversations:ingest'))
        throw forbidden('Ingesting conversations needs the integration scope conversations:ingest');
      return `integration:${installation.integration}:${installation.installation}`;
    }
    await this.needs.authz.org(actor, orgId, 'ingestConversations');
    return `integration:api:${actor.userId}`;
  }

  private conversation(db: Db | Tx, orgId: string, id: string) {
    return db
      .selectFrom('conversations')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  private async withConversations(issues: ConversationIssuesTable[]) {
    const ids = [...new Set(issues.map((i) => i.conversation_id))];
    const rows = ids.length
      ? await this.deps.db.selectFrom('conversations').selectAll().where('id', 'in', ids).execute()
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return issues.flatMap((issue) => {
      const conversation = byId.get(issue.conversation_id);
      return conversation ? [{ issue, conversation }] : [];
    });
  }
}
