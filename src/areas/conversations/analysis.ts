import {
  type Analysis,
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
   * The organization's pages that best match `terms` (all of them), searched with Quire's own
   * search over every space of the organization; empty when none does.
   */
  matchingPages(orgId: string, terms: string[]): Promise<PageMatch[]>;
}

/**
 * The analysis of an organization's conversations (a job, queued by each ingest): an issue is
 * extracted from each new conversation, then the issues are clustered, by a batch run over the
 * most recent ones (stable cluster ids) or, while the new ones are few, by placing each in the
 * nearest cluster; last, each changed cluster is looked up in the organization's content, and
 * one that no page answers is marked as a documentation gap in its summary.
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
    const { fresh, replaced } = await this.extract(orgId);
    const { db } = this.deps;
    const rows = await db
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
      .where('i.org_id', '=', orgId)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(BATCH_ISSUES)
      .execute();
    const issues: Issue[] = rows.map((r) => ({
      id: r.id,
      conversation: r.conversation_id,
      source: r.source,
      title: r.title,
      summary: r.summary,
      createdAt: r.created_at,
      language: r.language,
    }));
    const now = this.deps.clock.now();
    const stored = await db
      .selectFrom('conversation_analyses')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    const model = stored ? (JSON.parse(stored.model) as Model) : undefined;
    const clustered = model ? model.clusters.reduce((n, c) => n + c.size, 0) : 0;
    const unplaced = new Set(rows.filter((r) => r.cluster_id === null).map((r) => r.id));
    let clusters: Cluster[];
    let next: Model;
    // A replaced conversation took issues out of clusters: only a batch describes them again.
    const incremental =
      model && !replaced && unplaced.size > 0 && unplaced.size < clustered * INCREMENTAL_SHARE;
    if (incremental) {
      ({ clusters, model: next } = this.place(issues, rows, unplaced, model, now));
    } else if (unplaced.size > 0 || fresh > 0 || !model) {
      const previous = new Map<string, string[]>();
      for (const r of rows)
        if (r.cluster_id) previous.set(r.cluster_id, [...(previous.get(r.cluster_id) ?? []), r.id]);
      const analysis: Analysis = analyze(issues, { previous, newId: () => newId(), now });
      clusters = analysis.clusters;
      next = analysis.model;
    } else {
      return;
    }
    const matches = new Map<string, PageMatch[]>();
    for (const cluster of clusters)
      matches.set(cluster.id, await this.needs.matchingPages(orgId, topTerms(cluster, next)));
    await this.write(orgId, { clusters, model: next, batch: !incremental }, matches, now);
  }

  /** Issues from conversations not read yet (their earlier issues were dropped at re-ingest). */
  private async extract(orgId: string): Promise<{ fresh: number; replaced: boolean }> {
    const { db } = this.deps;
    const pending = await db
      .selectFrom('conversations')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('processed_at', 'is', null)
      .execute();
    if (pending.length === 0) return { fresh: 0, replaced: false };
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
        const issue = extractIssue(input);
        // Replaced since it was read? Its issues go with its old parts.
        const dropped = await tx
          .deleteFrom('conversation_issues')
          .where('conversation_id', '=', conversation.id)
          .executeTakeFirst();
        if (Number(dropped.numDeletedRows) > 0) replaced = true;
        if (issue) {
          const row: ConversationIssuesTable = {
            id: newId(),
            org_id: orgId,
            conversation_id: conversation.id,
            title: issue.title,
            summary: issue.summary,
            language: issue.language,
            cluster_id: null,
            created_at: conversation.created_at,
            ingested_at: conversation.ingested_at,
          };
          await tx.insertInto('conversation_issues').values(row).execute();
        }
        await tx
          .updateTable('conversations')
          .set({ processed_at: now })
          .where('id', '=', conversation.id)
          .where('ingested_at', '=', conversation.ingested_at)
          .execute();
      }
    });
    return { fresh: pending.length, replaced };
  }

  /** New issues placed in the nearest cluster (or a new one); the clusters they joined described again. */
  private place(
    issues: Issue[],
    rows: Array<{ id: string; cluster_id: string | null }>,
    unplaced: Set<string>,
    model: Model,
    now: Date,
  ): { clusters: Cluster[]; model: Model } {
    const clusterOf = new Map(rows.map((r) => [r.id, r.cluster_id]));
    const touched = new Set<string>();
    let current = model;
    for (const issue of [...issues].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (!unplaced.has(issue.id)) continue;
      const placed = assign(issue, current, { newId: () => newId() });
      current = placed.model;
      clusterOf.set(issue.id, placed.clusterId);
      touched.add(placed.clusterId);
    }
    const members = new Map<string, Issue[]>();
    for (const issue of issues) {
      const id = clusterOf.get(issue.id);
      if (id && touched.has(id)) members.set(id, [...(members.get(id) ?? []), issue]);
    }
    const clusters = [...members].map(([id, list]) => describeMembers(id, list, current.vocabulary, now));
    return { clusters, model: current };
  }

  /**
   * Clusters, issue memberships and the model in one transaction. A batch run's clusters replace
   * all of the organization's; placed issues touch only the clusters they joined.
   */
  private async write(
    orgId: string,
    { clusters, model, batch }: { clusters: Cluster[]; model: Model; batch: boolean },
    matches: Map<string, PageMatch[]>,
    now: Date,
  ): Promise<void> {
    const at = now.toISOString();
    await this.deps.db.transaction().execute(async (tx) => {
      const existing = new Map(
        (await tx.selectFrom('conversation_clusters').selectAll().where('org_id', '=', orgId).execute()).map(
          (r) => [r.id, r],
        ),
      );
      const kept = new Set<string>();
      for (const cluster of clusters) {
        kept.add(cluster.id);
        const pages = matches.get(cluster.id) ?? [];
        const gap = pages.length === 0;
        const row: ConversationClustersTable = {
          id: cluster.id,
          org_id: orgId,
          label: cluster.label,
          summary: gap
            ? `${cluster.summary}\n\nNo page of the documentation answers this yet: a documentation gap.`
            : cluster.summary,
          icon: CLUSTER_ICON,
          weekly_pulse: JSON.stringify(cluster.weeklyPulse),
          sources: JSON.stringify(cluster.sources),
          issues: cluster.issues,
          conversations: cluster.conversations,
          pages: JSON.stringify(pages),
          gap: gap ? 1 : 0,
          created_at: existing.get(cluster.id)?.created_at ?? at,
          updated_at: at,
        };
        const before = existing.get(cluster.id);
        if (before) {
          // Unchanged clusters keep their date: `updatedAt` orders the list by what moved.
          const same = sameContent(before, row);
          await tx
            .updateTable('conversation_clusters')
            .set(same ? { ...row, updated_at: before.updated_at } : row)
            .where('id', '=', cluster.id)
            .execute();
        } else {
          await tx.insertInto('conversation_clusters').values(row).execute();
        }
        await setMembers(tx, orgId, cluster);
      }
      if (batch) {
        const gone = [...existing.keys()].filter((id) => !kept.has(id));
        if (gone.length) await tx.deleteFrom('conversation_clusters').where('id', 'in', gone).execute();
      }
      await tx
        .insertInto('conversation_analyses')
        .values({ org_id: orgId, model: JSON.stringify(model), clustered_at: at })
        .onConflict((oc) =>
          oc.column('org_id').doUpdateSet({ model: JSON.stringify(model), clustered_at: at }),
        )
        .execute();
    });
  }
}

async function setMembers(tx: Tx, orgId: string, cluster: Cluster): Promise<void> {
  for (let i = 0; i < cluster.members.length; i += 500) {
    await tx
      .updateTable('conversation_issues')
      .set({ cluster_id: cluster.id })
      .where('org_id', '=', orgId)
      .where('id', 'in', cluster.members.slice(i, i + 500))
      .execute();
  }
}

function sameContent(a: ConversationClustersTable, b: ConversationClustersTable): boolean {
  const { updated_at: _a, created_at: _c, ...restA } = a;
  const { updated_at: _b, created_at: _d, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
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
