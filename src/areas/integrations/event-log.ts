import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { IntegrationEventsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import type { IntegrationEvent } from '../../integrations/events.js';
import type { LogLine } from '../../integrations/runtime/worker-process.js';
import type { ListEventsQuery } from './schemas.js';
import type { IntegrationsService } from './service.js';

/** Delivered events are kept this long, then purged. */
export const EVENT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Lines of a script's output kept with an event. */
const KEPT_LINES = 50;

export interface EventLogNeeds {
  integrations: Pick<IntegrationsService, 'requireOwnerAdmin'>;
}

/**
 * What became of the events delivered to integrations (`listIntegrationEvents`,
 * `getIntegrationEvent`): each event once, with the outcome of its latest attempt (`failed` while
 * retries may still come, or when they are spent) and what the script wrote while handling it.
 * This is how an integration's owner sees a script that throws, loops or runs out of memory.
 * Shown to the admins of the organization that owns the integration.
 */
export class IntegrationEventLog {
  constructor(
    private readonly deps: Deps,
    private readonly needs: EventLogNeeds,
  ) {}

  /** One attempt's outcome; the first attempt makes the row, later ones update it. */
  async record(
    integrationName: string,
    event: IntegrationEvent,
    status: IntegrationEventsTable['status'],
    lines: LogLine[],
  ): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    const logs = JSON.stringify(lines.slice(-KEPT_LINES));
    await this.deps.db
      .insertInto('integration_events')
      .values({
        id: event.eventId,
        integration_name: integrationName,
        installation_id: event.installationId || null,
        type: event.type,
        payload: JSON.stringify(event),
        status,
        logs,
        attempts: 1,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          status,
          logs,
          attempts: sql<number>`integration_events.attempts + 1`,
          updated_at: now,
        }),
      )
      .execute();
  }

  /** Newest first. */
  async list(actor: Actor, name: string, query: ListEventsQuery): Promise<Page<IntegrationEventsTable>> {
    await this.needs.integrations.requireOwnerAdmin(actor, name);
    const q = this.deps.db.selectFrom('integration_events').selectAll().where('integration_name', '=', name);
    return paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'desc', value: (r) => r.created_at },
        { ref: 'id', dir: 'desc', value: (r) => r.id },
      ],
      query,
      'integration-events',
    );
  }

  async get(actor: Actor, name: string, eventId: string): Promise<IntegrationEventsTable> {
    await this.needs.integrations.requireOwnerAdmin(actor, name);
    const row = await this.deps.db
      .selectFrom('integration_events')
      .selectAll()
      .where('id', '=', eventId)
      .where('integration_name', '=', name)
      .executeTakeFirst();
    if (!row) throw notFound(`Event "${eventId}" of integration "${name}" not found`);
    return row;
  }

  /** Drops events older than the retention (a scheduled job). */
  async purge(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - EVENT_RETENTION_MS).toISOString();
    const gone = await this.deps.db
      .deleteFrom('integration_events')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  }
}
