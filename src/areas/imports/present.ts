import type { ImportRunsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { ContentImportRun } from './schemas.js';
import { type ImportedPage, STALE_MS, type StoredSource } from './service.js';

/** An import run row -> ContentImportRun. A run in progress that stopped reporting reads as failed. */
export function presentImportRun(row: ImportRunsTable, urls: Urls, now: Date): ContentImportRun {
  const source = JSON.parse(row.source) as StoredSource;
  const pages = row.pages ? (JSON.parse(row.pages) as ImportedPage[]) : [];
  const stale = row.status === 'in-progress' && new Date(row.updated_at).getTime() < now.getTime() - STALE_MS;
  const run: ContentImportRun = {
    object: 'import-run',
    id: row.id,
    status: stale ? 'failed' : row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    source: { type: source.type, files: source.files },
    target: {
      space: row.space_id,
      ...(row.change_request_id ? { changeRequest: row.change_request_id } : {}),
      ...(row.page_id ? { page: row.page_id } : {}),
    },
    createdBy: row.created_by,
    urls: { location: urls.api(`/org/${row.org_id}/imports/${row.id}`) },
    pages: pages.map((page) => ({
      id: page.id,
      sourceURL: page.sourceURL,
      type: 'page',
      status: 'complete',
    })),
  };
  if (stale)
    run.reason = 'the import stopped without reporting back (the server may have restarted); start it again';
  else if (row.reason) run.reason = row.reason;
  if (row.started_at) run.startedAt = row.started_at;
  if (row.completed_at) run.completedAt = row.completed_at;
  if (row.written_change_request_id) run.changeRequest = row.written_change_request_id;
  return run;
}
