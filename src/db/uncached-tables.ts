/**
 * Tables no cached read depends on (read-cache.ts: tokens, memberships, organizations, spaces,
 * sites, search statistics). A statement writing only one of them moves no generation, so it
 * empties no process's read cache, nor the front door's kept revalidations:
 * - the stored documents (areas/content/stored-documents.ts): derived, what converting a page's
 *   markdown gives, so their rows change no answer;
 * - the job queue's rows and schedules (jobs/queue.ts): bookkeeping of background work, read
 *   directly. Each job claimed and finished moved the generation twice; a merge queues two
 *   (search index, documents), and with several processes every one of them read its tokens,
 *   memberships and organizations again after each.
 * A read of one of these tables through the read cache would be served stale: read them directly.
 */
const UNCACHED_WRITE =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+"?(?:page_documents|page_document_fills|jobs|schedules)"?[\s(]/i;

/** Whether `sql` writes only to a table no cached read depends on (see above). */
export function writesUncached(sql: string): boolean {
  return UNCACHED_WRITE.test(sql);
}
