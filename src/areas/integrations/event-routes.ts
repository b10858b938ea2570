import { listOf, STANDARD_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { presentEvent } from './present.js';
import {
  EventParams,
  IntegrationEvent,
  IntegrationEventWithTrace,
  IntegrationParams,
  ListEventsQuery,
} from './schemas.js';

/**
 * The events delivered to an integration and what became of them (newest first), with the
 * script's output while it handled each: for the admins of the organization that owns it.
 */
export function integrationEventRoutes(app: App): void {
  const { services } = app.quire;
  const tags = ['integrations'];

  app.get(
    '/v1/integrations/:integrationName/events',
    {
      schema: {
        operationId: 'listIntegrationEvents',
        tags,
        params: IntegrationParams,
        querystring: ListEventsQuery,
        response: { 200: listOf(IntegrationEvent), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = await services.integrationEvents.list(
        request.actor,
        request.params.integrationName,
        request.query,
      );
      return { ...page, items: page.items.map(presentEvent) };
    },
  );

  app.get(
    '/v1/integrations/:integrationName/events/:eventId',
    {
      schema: {
        operationId: 'getIntegrationEvent',
        tags,
        params: EventParams,
        response: { 200: IntegrationEventWithTrace, ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const { integrationName, eventId } = request.params;
      const row = await services.integrationEvents.get(request.actor, integrationName, eventId);
      return { event: presentEvent(row), trace: { logs: JSON.parse(row.logs) } };
    },
  );
}
