import type { GitBookAPI } from '@gitbook/api';

/** Small helpers for tests that write content through change requests. */

export interface Change {
  operation: string;
  [key: string]: unknown;
}

export async function newChangeRequest(api: GitBookAPI, spaceId: string, subject = 'Edits'): Promise<string> {
  return (await api.spaces.createChangeRequest(spaceId, { subject })).data.id;
}

/** Applies changes and answers what each did (the non-compat answer). */
export async function write(api: GitBookAPI, spaceId: string, crId: string, changes: Change[]) {
  const { data } = await api.spaces.updateChangeRequestContent(spaceId, crId, { changes } as never, {
    compat: false,
  });
  return data as unknown as {
    changeRequest: { revision: string };
    changes: Array<{ object: string; page: { id: string } | string; ref?: string }>;
    insertedFiles: Array<{ id: string; name: string; downloadURL: string; size: number }>;
  };
}

export function insert(title: string, markdown: string, extra: Record<string, unknown> = {}): Change {
  return { operation: 'insert_page', title, document: { markdown }, ...extra };
}

/** Writes pages into a new change request and merges it; answers page ids by title. */
export async function seed(api: GitBookAPI, spaceId: string, pages: Change[]): Promise<Map<string, string>> {
  const crId = await newChangeRequest(api, spaceId, 'Seed');
  const result = await write(api, spaceId, crId, pages);
  const merged = await api.spaces.mergeChangeRequest(spaceId, crId);
  if (merged.data.result !== 'merge') throw new Error(`seed merge gave ${merged.data.result}`);
  const ids = new Map<string, string>();
  result.changes.forEach((change, i) => {
    const title = pages[i]?.title as string | undefined;
    if (title && typeof change.page === 'object') ids.set(title, change.page.id);
  });
  return ids;
}

export async function markdownOf(
  api: GitBookAPI,
  spaceId: string,
  pageId: string,
  crId?: string,
): Promise<string> {
  const { data } = crId
    ? await api.spaces.getPageInChangeRequestById(spaceId, crId, pageId, { format: 'markdown' } as never)
    : await api.spaces.getPageById(spaceId, pageId, { format: 'markdown' } as never);
  return (data as { markdown?: string }).markdown ?? '';
}
