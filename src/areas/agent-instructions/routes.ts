import { STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { OrgParams } from '../orgs/schemas.js';
import { presentAgentInstructions } from './present.js';
import { AgentInstructions, UpdateAgentInstructionsBody } from './schemas.js';

export function agentInstructionRoutes(app: App): void {
  const { services, urls } = app.quire;
  const tags = ['organizations'];

  app.get(
    '/v1/orgs/:organizationId/agent-instructions',
    {
      schema: {
        operationId: 'getOrganizationAgentInstructions',
        tags,
        params: OrgParams,
        response: { 200: AgentInstructions, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentAgentInstructions(
        await services.agentInstructions.get(request.actor, request.params.organizationId),
        urls,
      ),
  );

  app.put(
    '/v1/orgs/:organizationId/agent-instructions',
    {
      schema: {
        operationId: 'updateOrganizationAgentInstructions',
        tags,
        params: OrgParams,
        body: UpdateAgentInstructionsBody,
        response: { 200: AgentInstructions, ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      presentAgentInstructions(
        await services.agentInstructions.update(
          request.actor,
          request.params.organizationId,
          request.body.instructions,
        ),
        urls,
      ),
  );
}
