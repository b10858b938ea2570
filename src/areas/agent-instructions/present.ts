import type { AgentInstructionsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { AgentInstructions } from './schemas.js';

export function presentAgentInstructions(row: AgentInstructionsTable, urls: Urls): AgentInstructions {
  return {
    object: 'agent-instructions',
    instructions: JSON.parse(row.instructions) as Record<string, unknown>,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    urls: { location: urls.api(`/orgs/${row.org_id}/agent-instructions`) },
  };
}
