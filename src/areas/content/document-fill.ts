import type { Profile } from '../../content/markdown/containers.js';
import { findRevision } from '../../content/revisions.js';
import type { ContentStore, Snapshot } from '../../content/store.js';
import type { PageNode, RevisionContent } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { RepoLayout } from '../../git/repo-layout.js';
import type { JobQueue } from '../../jobs/queue.js';
import { TimeSlices } from '../../time-slices.js';
import { answersAgain, convertProfiles } from './conversion.js';
import { PageIndex } from './page-index.js';
import { pageLinks } from './page-links.js';
import type { StoredDocuments, StoredRow } from './stored-documents.js';

/**
 * The profiles a space's pages are converted for ahead of their readers: the API's for callers
 * other than the official client, the official client's, and the published site's.
 */
export const FILLED_PROFILES: readonly Profile[] = ['v0146', 'v0202', 'render'];

/** Pages converted and written a transaction at a time. */
const PAGES_A_STEP = 100;

const JOB = 'content.documents';
const RECONCILE_JOB = 'content.documents.reconcile';
/** A reconcile job's run, after which it queues the rest: other jobs are not kept waiting. */
const RECONCILE_BUDGET_MS = 30_000;

export interface DocumentFillNeeds {
  store: Pick<ContentStore, 'snapshot' | 'diff' | 'readBodies'>;
  stored: StoredDocuments;
  jobs: Pick<JobQueue, 'enqueue' | 'register'>;
}

/**
 * Converts the pages a space's current revision changed, in the background, and keeps their
 * documents in the database (stored-documents.ts): a page's first reader, in any process, reads
 * its document rather than converting its markdown. The rows follow the current revision; a
 * document whose links answer otherwise in the tree read is converted by that read.
 */
export class DocumentFill {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'log'>,
    private readonly needs: DocumentFillNeeds,
  ) {}

  registerJobs(): void {
    this.needs.jobs.register(JOB, async (payload, context) => {
      const { spaceId } = payload as { spaceId?: unknown };
      if (typeof spaceId === 'string') await this.fill(spaceId, context.signal);
    });
    this.needs.jobs.register(RECONCILE_JOB, async (payload, context) => {
      const { after } = payload as { after?: unknown };
      const left = await this.reconcile(typeof after === 'string' ? after : '', context.signal);
      if (left !== undefined) await this.needs.jobs.enqueue(RECONCILE_JOB, { after: left });
    });
  }

  /**
   * At start-up: fill the spaces whose rows are behind their current revision, or were converted
   * by another release of Quire (converter-stamp.ts), or were never filled (spaces from before
   * documents were kept), since no head move will queue them.
   */
  async started(): Promise<void> {
    await this.needs.jobs.enqueue(RECONCILE_JOB, { after: '' });
  }

  /**
   * Fills the spaces behind, in id order from after `after`, for RECONCILE_BUDGET_MS; answers
   * the last space filled when some may be left. A space whose fill fails is logged and passed.
   */
  async reconcile(after: string, signal?: AbortSignal): Promise<string | undefined> {
    const started = Date.now();
    const converter = await this.needs.stored.converter();
    for (;;) {
      const behind = await this.deps.db
        .selectFrom('spaces as s')
        .innerJoin('revisions as r', 'r.id', 's.revision_id')
        .leftJoin('page_document_fills as f', 'f.space_id', 's.id')
        .select('s.id')
        .where('s.deleted_at', 'is', null)
        .where('s.id', '>', after)
        .where((eb) =>
          eb.or([
            eb('f.space_id', 'is', null),
            eb('f.tree_hash', '<>', eb.ref('r.tree_hash')),
            eb('f.converter', '<>', converter),
          ]),
        )
        .orderBy('s.id')
        .limit(100)
        .execute();
      if (behind.length === 0) return undefined;
      for (const { id } of behind) {
        if (signal?.aborted) return undefined; // stopping: the next start-up reconciles
        try {
          await this.fill(id, signal);
        } catch (error) {
          this.deps.log.error({ err: error, spaceId: id }, 'filling converted documents failed');
        }
        after = id;
        if (Date.now() - started > RECONCILE_BUDGET_MS) return after;
      }
    }
  }

  /** The space's current revision moved: its new pages are converted once `tx` commits. */
  async spaceChanged(tx: Tx, spaceId: string): Promise<void> {
    await this.needs.jobs.enqueue(JOB, { spaceId }, { tx });
  }

  /**
   * Brings the space's rows to its current revision: the pages whose markdown changed since the
   * revision filled last (every page, the first time), and those whose links answer otherwise,
   * are converted for each profile; rows of pages gone, or holding no markdown, are removed.
   * Answers how many pages were converted.
   */
  async fill(spaceId: string, signal?: AbortSignal): Promise<number> {
    const { db } = this.deps;
    const { store, stored } = this.needs;
    const space = await db
      .selectFrom('spaces')
      .select(['revision_id', 'deleted_at'])
      .where('id', '=', spaceId)
      .executeTakeFirst();
    if (!space?.revision_id || space.deleted_at !== null) return 0;
    const revision = await findRevision(db, spaceId, space.revision_id);
    if (!revision) return 0;
    const converter = await stored.converter();
    const filled = await db
      .selectFrom('page_document_fills')
      .select(['tree_hash', 'converter'])
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
    if (filled?.tree_hash === revision.tree_hash && filled.converter === converter) return 0;
    const next = await store.snapshot(db, revision.tree_hash);
    let previous: Snapshot | undefined;
    try {
      // Rows of another converter are all converted again, as if none were kept.
      previous = filled?.converter === converter ? await store.snapshot(db, filled.tree_hash) : undefined;
    } catch {
      previous = undefined; // the tree filled last is gone: fill every page
    }
    const content = next.content;
    const diff = previous ? await store.diff(db, previous, next) : undefined;
    const changed = diff ? diff.pages : await stored.pagesOf(db, spaceId);
    if (!previous) for (const id of content.pages.keys()) changed.add(id);
    const gone: string[] = [];
    const converting = new Map<string, PageNode>();
    for (const id of changed) {
      const page = content.pages.get(id);
      if (page?.type !== 'document' || !page.body) gone.push(id);
      else if (previous?.content.pages.get(id)?.body !== page.body) converting.set(id, page);
    }
    const index = PageIndex.of(content);
    // Converting is a quarter of a millisecond to milliseconds a page: in slices (time-slices.ts).
    const slices = new TimeSlices();
    // Where pages, files or reusable contents moved, a link of a page whose markdown did not
    // change may answer otherwise: its rows are asked again, and converted where one does not.
    if (
      previous &&
      diff &&
      !RepoLayout.keepsLayout(previous.content, content, {
        pages: diff.pages,
        files: diff.files.size > 0,
        reusable: reusableMoved(previous.content, content),
      })
    ) {
      for (const row of await stored.linkedRows(db, spaceId)) {
        const page = content.pages.get(row.pageId);
        if (slices.due()) await slices.next();
        if (page?.type !== 'document' || !page.body || page.body !== row.body || converting.has(page.id))
          continue;
        if (!answersAgain(row.asked, pageLinks(content, index, { page: page.id })))
          converting.set(page.id, page);
      }
    }
    const pages = [...converting.values()];

    for (let start = 0; start < pages.length; start += PAGES_A_STEP) {
      if (signal?.aborted) return start;
      const step = pages.slice(start, start + PAGES_A_STEP);
      const bodies = await store.readBodies(db, [...new Set(step.map((page) => page.body!))]);
      const rows: StoredRow[] = [];
      for (const page of step) {
        const links = pageLinks(content, index, { page: page.id });
        const markdown = bodies.get(page.body!) ?? '';
        if (slices.due()) await slices.next();
        const converted = convertProfiles(markdown, links, FILLED_PROFILES);
        for (const [i, profile] of FILLED_PROFILES.entries())
          rows.push({ spaceId, pageId: page.id, profile, body: page.body!, ...converted[i]! });
      }
      await db.transaction().execute((tx) => stored.write(tx, rows));
    }
    if (signal?.aborted) return pages.length;
    await db.transaction().execute(async (tx) => {
      await stored.remove(tx, spaceId, gone);
      await tx
        .insertInto('page_document_fills')
        .values({ space_id: spaceId, tree_hash: revision.tree_hash, converter })
        .onConflict((conflict) =>
          conflict.column('space_id').doUpdateSet({ tree_hash: revision.tree_hash, converter }),
        )
        .execute();
    });
    this.deps.log.debug({ spaceId, converted: pages.length, removed: gone.length }, 'documents filled');
    return pages.length;
  }
}

/** Whether a reusable content was added, removed or moved to another file (links find them by file). */
function reusableMoved(before: RevisionContent, after: RevisionContent): boolean {
  if (before.reusableContents.size !== after.reusableContents.size) return true;
  for (const [id, node] of after.reusableContents)
    if (before.reusableContents.get(id)?.git?.path !== node.git?.path || !before.reusableContents.has(id))
      return true;
  return false;
}
