import { type Static, Type } from 'typebox';
import { Timestamp } from '../../http/schemas.js';

/**
 * Documents are validated in the service (their schema is recursive); on the wire they are
 * declared open so the serializer passes the stored tree through unchanged.
 */
export const DocumentWire = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'Rich-text document (object: "document", data, nodes)',
});

export const AgentInstructions = Type.Object({
  object: Type.Literal('agent-instructions'),
  instructions: DocumentWire,
  updatedAt: Timestamp,
  updatedBy: Type.String(),
  urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
});
export type AgentInstructions = Static<typeof AgentInstructions>;

export const UpdateAgentInstructionsBody = Type.Object({ instructions: DocumentWire });
