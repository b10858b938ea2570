import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { emptyDocument, type JsonDocument } from '../../content/document-schema.js';
import { validateDocument } from '../../content/validate-document.js';
import type { AgentInstructionsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import type { OrgsService } from '../orgs/service.js';

/** The services agent instructions call. */
export interface AgentInstructionsNeeds {
  authz: Pick<Authorizer, 'org'>;
  orgs: Pick<OrgsService, 'requireRow'>;
}

export class AgentInstructionsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: AgentInstructionsNeeds,
  ) {}

  /** Organizations that never wrote instructions have an empty document, dated from their creation. */
  async get(actor: Actor, orgId: string): Promise<AgentInstructionsTable> {
    await this.services.authz.org(actor, orgId, 'access');
    const row = await this.deps.db
      .selectFrom('agent_instructions')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (row) return row;
    const org = await this.services.orgs.requireRow(orgId);
    return {
      org_id: orgId,
      instructions: JSON.stringify(emptyDocument()),
      updated_at: org.created_at,
      updated_by: org.created_by,
    };
  }

  async update(actor: Actor, orgId: string, instructions: unknown): Promise<AgentInstructionsTable> {
    await this.services.authz.org(actor, orgId, 'editAgentInstructions');
    validateDocument(instructions, 'body.instructions');
    const row: AgentInstructionsTable = {
      org_id: orgId,
      instructions: JSON.stringify(instructions satisfies JsonDocument),
      updated_at: this.deps.clock.now().toISOString(),
      updated_by: actor.userId,
    };
    await this.deps.db
      .insertInto('agent_instructions')
      .values(row)
      .onConflict((oc) =>
        oc.column('org_id').doUpdateSet({
          instructions: row.instructions,
          updated_at: row.updated_at,
          updated_by: row.updated_by,
        }),
      )
      .execute();
    return row;
  }
}
