import type { GitSyncsTable } from '../../db/tables.js';
import type { GitSyncState } from './schemas.js';

/** A space's git sync row -> GitSyncState. The stored URL never holds credentials. */
export function presentGitSync(row: GitSyncsTable): GitSyncState {
  const state: GitSyncState = {
    installationId: row.installation_id,
    installationProvider: row.provider as GitSyncState['installationProvider'],
    installationStatus: 'active',
    integration: 'git-sync',
    repoName: repoName(row.url),
    url: row.tree_url ?? row.url,
    updatedAt: row.updated_at,
  };
  if (row.op_state && row.op_direction && row.op_started_at) {
    state.operation = {
      state: row.op_state as 'running' | 'failure' | 'success',
      direction: row.op_direction as 'import' | 'export',
      startedAt: row.op_started_at,
    };
    if (row.op_ended_at) state.operation.endedAt = row.op_ended_at;
    if (row.op_error) state.operation.error = row.op_error;
    const warnings = row.op_warnings ? (JSON.parse(row.op_warnings) as string[]) : [];
    if (warnings.length > 0) state.operation.warnings = warnings;
  }
  return state;
}

function repoName(url: string): string {
  try {
    const parts = new URL(url).pathname
      .replace(/\.git\/?$/, '')
      .split('/')
      .filter(Boolean);
    return parts.slice(-2).join('/');
  } catch {
    return url;
  }
}
