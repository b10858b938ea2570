import {
  analyze,
  assign,
  type Cluster,
  describeMembers,
  extractIssue,
  type Issue,
  type Model,
} from '../../conversations/index.js';
import type { Tx } from '../../db/database.js';
import type { ConversationClustersTable, ConversationIssuesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import { CLUSTER_ICON } from './present.js';
import type { ConversationInput } from './schemas.js';
import { ANALYZE_JOB } from './service.js';

/** Issues a batch clusters: the organization's most recent ones. */
const BATCH_ISSUES = 5000;
/** New issues are placed in the clusters as they are while they are fewer than this share of the clustered ones. */
const INCREMENTAL_SHARE = 0.2;

/** A page of the organization's content that matches a cluster. */
export interface PageMatch {
  spaceId: string;
  pageId: string;
  title: string;
  score: number;
}

export interface AnalysisNeeds {
  jobs: Pick<JobQueue, 'register'>;
  /**
   * The organization's pages that best match `terms`, searched with Quire's own search over
   * every space of the organization; empty when none does.
   */
  matchingPages(orgId: string, terms: string[]): Promise<PageMatch[]>;
}

/** What the analysis reads of an issue: the engine's view of it. */
type IssueRow = Pick<
  ConversationIssuesTable,
  'id' | 'conversation_id' | 'title' | 'summary' | 'language' | 'created_at' | 'cluster_id'
> & { source: string };

/**
 * The analysis of an organization's conversations (a job, queued by each ingest): an issue is
 * extracted from each new conversation; then either a batch run clusters the most recent issues
 * again (ids kept where clusters persist), or, while the new issues are few, each is placed in
 * the nearest cluster, which costs in proportion to the new issues alone. Clusters made or
 * remade are looked up in the organization's content; one that no page answers is a
 * documentation gap.
 */
export class ConversationAnalysis {
  constructor(
    private readonly deps: Deps,
    private readonly needs: AnalysisNeeds,
  ) {}

  registerJobs(): void {
    this.needs.jobs.register(ANALYZE_JOB, async (payload) => {
      await this.run((payload as { orgId: string }).orgId);
    });
  }

  async run(orgId: string): Promise<void> {
    const { replaced } = await this.extract(orgId);
    const { db } = this.deps;
    const unplaced = await this.issues(orgId, 'unplaced');
    const stored = await db
      .selectFrom('conversation_analyses')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const model = stored ? (JSON.parse(stored.model) as Model) : undefined;
    const clustered = model ? model.clusters.reduce((n, c) => n + c.size, 0) : 0;
    // A conversation sent again took issues out of clusters: only a batch describes them again.
    if (model && !replaced && unplaced.length < clustered * INCREMENTAL_SHARE) {
      if (unplaced.length > 0) await this.place(orgId, unplaced, model);
      return;
    }
    if (!model && unplaced.length === 0 && !replaced) return;
    await this.batch(orgId);
  }

  /** Every recent issue clustered again; clusters that persist keep their ids. */
  private async batch(orgId: string): Promise<void> {
    const rows = await this.issues(orgId, 'recent');
    const issues = rows.map(issueOf);
    const previous = new Map<string, string[]>();
    for (const r of rows)
      if (r.cluster_id) previous.set(r.cluster_id, [...(previous.get(r.cluster_id) ?? []), r.id]);
    const now = this.deps.clock.now();
    const { clusters, model } = analyze(issues, { previous, newId: () => newId(), now });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const matches = await this.matches(orgId, clusters, model);
    const at = now.toISOString();
    await this.deps.db.transaction().execute(async (tx) => {
      const existing = new Map(
        (await tx.selectFrom('conversation_clusters').selectAll().where('org_id', '=', orgId).execute()).map(
          (r) => [r.id, r],
        ),
      );
      for (const cluster of clusters) {
        const members = cluster.members.map((id) => byId.get(id)!);
        const row = clusterRow(
          orgId,
          cluster,
          members,
          byId.get(cluster.medoid)!,
          matches.get(cluster.id)!,
          at,
        );
        await this.save(tx, row, existing.get(cluster.id));
        await setMembers(tx, orgId, cluster.id, cluster.members);
      }
      const kept = new Set(clusters.map((c) => c.id));
      const gone = [...existing.keys()].filter((id) => !kept.has(id));
      for (let i = 0; i < gone.length; i += 500)
        await tx
          .deleteFrom('conversation_clusters')
          .where('id', 'in', gone.slice(i, i + 500))
          .execute();
      // Older issues than the batch takes are seen too: they are not new at the next run.
      await tx
        .updateTable('conversation_issues')
        .set({ analysed: 1 })
        .where('org_id', '=', orgId)
        .where('analysed', '=', 0)
        .execute();
      await saveModel(tx, orgId, model, at);
    });
  }

  /**
   * New issues placed in the nearest cluster (or one of their own) between batches. Only the
   * clusters they join are touched, and only by what the new issues add (counts, sources,
   * dates); their label stays until the next batch.
   */
  private async place(orgId: string, unplaced: IssueRow[], model: Model): Promise<void> {
    const now = this.deps.clock.now();
    let current = model;
    const joined = new Map<string, IssueRow[]>();
    const created = new Set<string>();
    for (const row of [...unplaced].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const placed = assign(issueOf(row), current, { newId: () => newId() });
      current = placed.model;
      joined.set(placed.clusterId, [...(joined.get(placed.clusterId) ?? []), row]);
      if (placed.created) created.add(placed.clusterId);
    }
    const fresh = [...created].map((id) =>
      describeMembers(id, joined.get(id)!.map(issueOf), current.vocabulary, now),
    );
    const matches = await this.matches(orgId, fresh, current);
    const at = now.toISOString();
    await this.deps.db.transaction().execute(async (tx) => {
      for (const cluster of fresh) {
        const members = joined.get(cluster.id)!;
        const medoid = members.find((m) => m.id === cluster.medoid)!;
        await this.save(
          tx,
          clusterRow(orgId, cluster, members, medoid, matches.get(cluster.id)!, at),
          undefined,
        );
      }
      const grown = [...joined.keys()].filter((id) => !created.has(id));
      const rows = grown.length
        ? await tx.selectFrom('conversation_clusters').selectAll().where('id', 'in', grown).execute()
        : [];
      for (const row of rows) {
        const added = joined.get(row.id)!;
        const sources = JSON.parse(row.sources) as Record<string, number>;
        for (const issue of added) sources[issue.source] = (sources[issue.source] ?? 0) + 1;
        const dates = [...(JSON.parse(row.dates) as string[]), ...added.map((i) => i.created_at)].sort();
        await tx
          .updateTable('conversation_clusters')
          .set({
            issues: row.issues + added.length,
            conversations: row.conversations + new Set(added.map((i) => i.conversation_id)).size,
            sources: JSON.stringify(sortedKeys(sources)),
            dates: JSON.stringify(dates),
            updated_at: at,
          })
          .where('id', '=', row.id)
          .execute();
      }
      for (const [id, members] of joined)
        await setMembers(
          tx,
          orgId,
          id,
          members.map((m) => m.id),
        );
      await saveModel(tx, orgId, current, at);
    });
  }

  /** Issues from conversations not read yet (a conversation sent again loses its earlier ones). */
  private async extract(orgId: string): Promise<{ replaced: boolean }> {
    const { db } = this.deps;
    const pending = await db
      .selectFrom('conversations')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('processed_at', 'is', null)
      .execute();
    if (pending.length === 0) return { replaced: false };
    let replaced = false;
    const now = this.deps.clock.now().toISOString();
    await db.transaction().execute(async (tx) => {
      for (const conversation of pending) {
        const input: ConversationInput = {
          id: conversation.external_id,
          ...(conversation.subject !== null ? { subject: conversation.subject } : {}),
          metadata: JSON.parse(conversation.metadata),
          parts: JSON.parse(conversation.parts),
        };
        const dropped = await tx
          .deleteFrom('conversation_issues')
          .where('conversation_id', '=', conversation.id)
          .executeTakeFirst();
        if (Number(dropped.numDeletedRows) > 0) replaced = true;
        const issue = extractIssue(input);
        if (issue) {
          await tx
            .insertInto('conversation_issues')
            .values({
              id: newId(),
              org_id: orgId,
              conversation_id: conversation.id,
              title: issue.title,
              summary: issue.summary,
              language: issue.language,
              cluster_id: null,
              analysed: 0,
              created_at: conversation.created_at,
              ingested_at: conversation.ingested_at,
            })
            .execute();
        }
        // Sent again meanwhile? Then it stays unread for the next run.
        await tx
          .updateTable('conversations')
          .set({ processed_at: now })
          .where('id', '=', conversation.id)
          .where('ingested_at', '=', conversation.ingested_at)
          .execute();
      }
    });
    return { replaced };
  }

  private async issues(orgId: string, which: 'unplaced' | 'recent'): Promise<IssueRow[]> {
    let query = this.deps.db
      .selectFrom('conversation_issues as i')
      .innerJoin('conversations as c', 'c.id', 'i.conversation_id')
      .select([
        'i.id',
        'i.conversation_id',
        'i.title',
        'i.summary',
        'i.language',
        'i.created_at',
        'i.cluster_id',
        'c.source',
      ])
      .where('i.org_id', '=', orgId);
    if (which === 'unplaced') query = query.where('i.analysed', '=', 0);
    else query = query.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(BATCH_ISSUES);
    return query.execute();
  }

  private async matches(orgId: string, clusters: Cluster[], model: Model): Promise<Map<string, PageMatch[]>> {
    const found = new Map<string, PageMatch[]>();
    for (const cluster of clusters)
      found.set(cluster.id, await this.needs.matchingPages(orgId, topTerms(cluster, model)));
    return found;
  }

  /** Unchanged clusters keep their date: `updatedAt` orders the list by what moved. */
  private async save(tx: Tx, row: ConversationClustersTable, before: ConversationClustersTable | undefined) {
    if (!before) {
      await tx.insertInto('conversation_clusters').values(row).execute();
      return;
    }
    const same = sameContent(before, row);
    await tx
      .updateTable('conversation_clusters')
      .set({ ...row, created_at: before.created_at, updated_at: same ? before.updated_at : row.updated_at })
      .where('id', '=', row.id)
      .execute();
  }
}

function issueOf(row: IssueRow): Issue {
  return {
    id: row.id,
    conversation: row.conversation_id,
    source: row.source,
    title: row.title,
    summary: row.summary,
    createdAt: row.created_at,
    language: row.language,
  };
}

function clusterRow(
  orgId: string,
  cluster: Cluster,
  members: IssueRow[],
  medoid: IssueRow,
  pages: PageMatch[],
  at: string,
): ConversationClustersTable {
  return {
    id: cluster.id,
    org_id: orgId,
    label: cluster.label,
    medoid_summary: medoid.summary,
    icon: CLUSTER_ICON,
    dates: JSON.stringify(members.map((m) => m.created_at).sort()),
    sources: JSON.stringify(cluster.sources),
    issues: cluster.issues,
    conversations: cluster.conversations,
    pages: JSON.stringify(pages),
    gap: pages.length === 0 ? 1 : 0,
    created_at: at,
    updated_at: at,
  };
}

async function setMembers(tx: Tx, orgId: string, clusterId: string, members: string[]): Promise<void> {
  for (let i = 0; i < members.length; i += 500) {
    await tx
      .updateTable('conversation_issues')
      .set({ cluster_id: clusterId, analysed: 1 })
      .where('org_id', '=', orgId)
      .where('id', 'in', members.slice(i, i + 500))
      .execute();
  }
}

async function saveModel(tx: Tx, orgId: string, model: Model, at: string): Promise<void> {
  const json = JSON.stringify(model);
  await tx
    .insertInto('conversation_analyses')
    .values({ org_id: orgId, model: json, clustered_at: at })
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ model: json, clustered_at: at }))
    .execute();
}

function sameContent(a: ConversationClustersTable, b: ConversationClustersTable): boolean {
  const { updated_at: _a, created_at: _c, ...restA } = a;
  const { updated_at: _b, created_at: _d, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

function sortedKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The cluster's heaviest terms: what its issues share most. */
function topTerms(cluster: Cluster, model: Model, count = 3): string[] {
  const { terms, weights } = cluster.centroid;
  return terms
    .map((term, i) => ({ term: model.vocabulary.terms[term]!, weight: weights[i]! }))
    .sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
    .slice(0, count)
    .map((t) => t.term);
}
