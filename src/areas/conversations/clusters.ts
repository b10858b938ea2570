import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { type Page, pageOfList } from '../../db/keyset.js';
import type { ChangeRequestStatus, ConversationClustersTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import type { ClusterStats, ListClustersQuery } from './schemas.js';
import { ANALYZE_JOB } from './service.js';

export interface ClusterView {
  row: ConversationClustersTable;
  stats: ClusterStats;
}

/** Which change requests count as which task state (AREAS-2 §4.2). */
const TASK_STATE: Record<
  ChangeRequestStatus,
  'tasksBacklog' | 'tasksStarted' | 'tasksCompleted' | 'tasksCancelled'
> = {
  draft: 'tasksBacklog',
  open: 'tasksStarted',
  merged: 'tasksCompleted',
  archived: 'tasksCancelled',
};

/**
 * An organization's issue clusters, with their task stats (the change requests opened for
 * each), sorted and filtered as the contract says. An organization keeps a few hundred
 * clusters, so a list is sorted in memory and paged by a sort key.
 */
export class ClustersService {
  constructor(
    private readonly deps: Deps,
    private readonly needs: { authz: Pick<Authorizer, 'org'> },
  ) {}

  async list(actor: Actor, orgId: string, query: ListClustersQuery): Promise<Page<ClusterView>> {
    await this.needs.authz.org(actor, orgId, 'access');
    // `pending`: an analysis is queued for the organization; `analysing`: one is running. Its
    // clusters are then about to change; otherwise none is in either state.
    if (query.status && (await this.analysisState(orgId)) !== query.status) {
      return { items: [], count: 0 };
    }
    const rows = await this.deps.db
      .selectFrom('conversation_clusters')
      .selectAll()
      .where('org_id', '=', orgId)
      .execute();
    const views = await this.withStats(rows);
    const orderBy = query.orderBy ?? 'updatedAt';
    const descending = (query.order ?? 'desc') === 'desc';
    const value = (view: ClusterView) =>
      orderBy === 'updatedAt'
        ? view.row.updated_at
        : String(orderBy in view.stats ? view.stats[orderBy as keyof ClusterStats] : 0).padStart(12, '0');
    // One string key per ordering, ascending as the pager reads it: descending values are inverted.
    const key = (view: ClusterView) => `${descending ? invert(value(view)) : value(view)}|${view.row.id}`;
    const sorted = [...views].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return pageOfList(sorted, key, query, `conversation-clusters:${orderBy}:${descending ? 'desc' : 'asc'}`);
  }

  async get(actor: Actor, orgId: string, id: string): Promise<ClusterView> {
    await this.needs.authz.org(actor, orgId, 'access');
    const row = await this.deps.db
      .selectFrom('conversation_clusters')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (!row) throw notFound(`Conversations issues cluster "${id}" not found`);
    const [view] = await this.withStats([row]);
    return view!;
  }

  /** Whether `clusterId` is a cluster of the organization (a change request may name it). */
  async exists(orgId: string, clusterId: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('conversation_clusters')
      .select('id')
      .where('id', '=', clusterId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row !== undefined;
  }

  private async analysisState(orgId: string): Promise<'pending' | 'analysing' | undefined> {
    const job = await this.deps.db
      .selectFrom('jobs')
      .select('status')
      .where('kind', '=', ANALYZE_JOB)
      .where('payload', '=', JSON.stringify({ orgId }))
      .where('status', 'in', ['queued', 'running'])
      .orderBy('status', 'desc')
      .executeTakeFirst();
    return job?.status === 'running' ? 'analysing' : job?.status === 'queued' ? 'pending' : undefined;
  }

  private async withStats(rows: ConversationClustersTable[]): Promise<ClusterView[]> {
    const ids = rows.map((r) => r.id);
    const counts = new Map<string, ClusterStats>();
    for (const row of rows) {
      counts.set(row.id, {
        issues: row.issues,
        conversations: row.conversations,
        tasksTotal: 0,
        tasksBacklog: 0,
        tasksStarted: 0,
        tasksCompleted: 0,
        tasksCancelled: 0,
      });
    }
    for (let i = 0; i < ids.length; i += 500) {
      const tasks = await this.deps.db
        .selectFrom('change_requests')
        .select(['conversations_cluster_id', 'status', (eb) => eb.fn.countAll<string | number>().as('n')])
        .where('conversations_cluster_id', 'in', ids.slice(i, i + 500))
        .groupBy(['conversations_cluster_id', 'status'])
        .execute();
      for (const task of tasks) {
        const stats = counts.get(task.conversations_cluster_id!)!;
        const n = Number(task.n);
        stats.tasksTotal += n;
        stats[TASK_STATE[task.status]] += n;
      }
    }
    return rows.map((row) => ({ row, stats: counts.get(row.id)! }));
  }
}

/** A string that sorts in the reverse order of `value` among strings of the same length. */
function invert(value: string): string {
  return [...value].map((c) => String.fromCharCode(0xffff - c.charCodeAt(0))).join('');
}
