import type { Db, Tx } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import {
  type EventUser,
  type FETCH_METHODS,
  fetchEvent,
  type IntegrationEvent,
  installationSetup,
  type PreviousSetup,
  spaceContentUpdated,
  spaceGitSyncCompleted,
  spaceGitSyncStarted,
  spaceInstallationSetup,
  spaceVisibilityUpdated,
} from '../../integrations/events.js';
import type { IntegrationRuntime } from '../../integrations/runtime/runtime.js';
import { type LogLine, ScriptFailure, type WorkerAnswer } from '../../integrations/runtime/worker-process.js';
import type { JobQueue } from '../../jobs/queue.js';
import { Lru } from '../../lru.js';
import type { HeadMoved, VisibilityChanged } from '../spaces/service.js';
import type { IntegrationEventLog } from './event-log.js';
import type { InstallationIdentities } from './identities.js';

const DELIVER = 'integrations.deliver';
const DELIVER_BATCH = 'integrations.deliver-batch';
/** A failing delivery is tried this many times (with the queue's backoff), then reported. */
const DELIVERY_ATTEMPTS = 4;

/** What delivery needs to know of an integration. */
export interface DeliveredIntegration {
  name: string;
  version: number;
  title: string;
  scopes: string[];
  script: string;
  secrets: Record<string, string>;
  /** The integration as the API presents it (`environment.integration`). */
  presented: object;
}

/** What delivery needs to know of an installation. */
export interface DeliveredInstallation {
  id: string;
  org_id: string;
  integration_name: string;
  presented: object;
}

export interface DeliveryNeeds {
  jobs: Pick<JobQueue, 'enqueue' | 'register'>;
  runtime: IntegrationRuntime;
  identities: InstallationIdentities;
  integrations: {
    /** The current version of an integration with its script and secrets; undefined when gone. */
    forDelivery(name: string): Promise<DeliveredIntegration | undefined>;
    /** What changes with each publish (`<version>:<updated_at>`); undefined when unpublished. */
    stampOf(name: string): Promise<string | undefined>;
    installationForDelivery(id: string): Promise<DeliveredInstallation | undefined>;
    /** Ids of the installations in the organization that hear of the space. */
    installationIdsForSpace(db: Db | Tx, orgId: string, spaceId: string): Promise<string[]>;
    /** The installation on the space as the API presents it, when there is one. */
    spaceInstallationForDelivery(installationId: string, spaceId: string): Promise<object | undefined>;
  };
  eventLog: Pick<IntegrationEventLog, 'record'>;
  /** Users as events carry them (the official User object), read in `db`. */
  presentUsers(db: Db | Tx, ids: string[]): Promise<EventUser[]>;
  /** A stable secret of the integration, for it to check requests that claim to come from Quire. */
  signingSecret(name: string): string;
  /** The organization of a space (for events about it). */
  orgOfSpace(db: Db | Tx, spaceId: string): Promise<string | undefined>;
}

/**
 * Delivers events to the scripts of installed integrations. Each delivery is a durable job,
 * enqueued in the transaction of what caused it (so an event exists only if its cause
 * committed), retried with backoff when the script fails, crashes or times out, and reported in
 * the log with the script's last output once its attempts are spent. A script that does not
 * handle an event type answers 406, which is a delivery done.
 */
export class IntegrationDelivery {
  private readonly published = new Lru<string, { stamp: string; integration: DeliveredIntegration }>(256);

  constructor(
    private readonly deps: Deps,
    private readonly needs: DeliveryNeeds,
  ) {}

  registerJobs(): void {
    this.needs.jobs.register(DELIVER, async (payload) => {
      const { installationId, event } = payload as { installationId: string; event: IntegrationEvent };
      await this.deliver(installationId, event);
    });
    // Many events of one installation at once (site views); a failure retries the batch.
    this.needs.jobs.register(DELIVER_BATCH, async (payload) => {
      const { installationId, events } = payload as { installationId: string; events: IntegrationEvent[] };
      for (const event of events) await this.deliver(installationId, event);
    });
  }

  /** Several events for one installation, as one job (see site-views.ts). */
  async enqueueBatch(tx: Tx, installationId: string, events: IntegrationEvent[]): Promise<void> {
    await this.needs.jobs.enqueue(
      DELIVER_BATCH,
      { installationId, events },
      { tx, maxAttempts: DELIVERY_ATTEMPTS },
    );
  }

  /** `installation_setup`, when an integration is installed in an organization or updated there. */
  async installed(tx: Tx, installationId: string, previous?: PreviousSetup): Promise<void> {
    await this.enqueue(tx, installationSetup(installationId, previous));
  }

  /** `space_installation_setup`, when an integration is installed on a space or updated there. */
  async spaceInstalled(
    tx: Tx,
    installationId: string,
    spaceId: string,
    previous?: PreviousSetup,
  ): Promise<void> {
    await this.enqueue(tx, spaceInstallationSetup(installationId, spaceId, previous));
  }

  /** `space_content_updated`, to the installations that hear of the space. */
  readonly headMoved = async (tx: Tx, moved: HeadMoved): Promise<void> => {
    const orgId = await this.needs.orgOfSpace(tx, moved.spaceId);
    if (!orgId) return;
    const installations = await this.needs.integrations.installationIdsForSpace(tx, orgId, moved.spaceId);
    if (installations.length === 0) return;
    // Read in the transaction: on SQLite a read beside it would wait for it to end.
    const updatedBy = moved.by ? await this.needs.presentUsers(tx, [moved.by]) : [];
    for (const id of installations) {
      await this.enqueue(tx, spaceContentUpdated(id, moved.spaceId, moved.revisionId, updatedBy));
    }
  };

  /** `space_gitsync_started` and `space_gitsync_completed`, to the installations that hear of the space. */
  readonly gitSync = {
    started: (spaceId: string, revisionId: string, commitId: string) =>
      this.toSpaceOrg(spaceId, (id) => spaceGitSyncStarted(id, spaceId, revisionId, commitId)),
    completed: (spaceId: string, revisionId: string, commitId: string, state: 'success' | 'failure') =>
      this.toSpaceOrg(spaceId, (id) => spaceGitSyncCompleted(id, spaceId, revisionId, commitId, state)),
  };

  private async toSpaceOrg(spaceId: string, build: (installationId: string) => IntegrationEvent) {
    await this.deps.db.transaction().execute(async (tx) => {
      const orgId = await this.needs.orgOfSpace(tx, spaceId);
      if (!orgId) return;
      for (const id of await this.needs.integrations.installationIdsForSpace(tx, orgId, spaceId)) {
        await this.enqueue(tx, build(id));
      }
    });
  }

  /** `space_visibility_updated`, to the installations that hear of the space. */
  readonly visibilityChanged = async (tx: Tx, changed: VisibilityChanged): Promise<void> => {
    const { integrations } = this.needs;
    for (const id of await integrations.installationIdsForSpace(tx, changed.orgId, changed.spaceId)) {
      await this.enqueue(
        tx,
        spaceVisibilityUpdated(id, changed.spaceId, changed.previous, changed.visibility),
      );
    }
  };

  private async enqueue(tx: Tx, event: IntegrationEvent): Promise<void> {
    await this.needs.jobs.enqueue(
      DELIVER,
      { installationId: event.installationId, event },
      { tx, maxAttempts: DELIVERY_ATTEMPTS },
    );
  }

  /**
   * Runs one event in the installation's script; throws (so the job retries) when it fails. Each
   * attempt's outcome and the script's output are recorded in the event log.
   */
  async deliver(installationId: string, event: IntegrationEvent): Promise<void> {
    const installation = await this.needs.integrations.installationForDelivery(installationId);
    // Uninstalled or unpublished since: nobody is left to tell.
    if (!installation) return;
    const integration = await this.current(installation.integration_name);
    if (!integration) return;
    const log = this.deps.log.child({ integration: integration.name, installationId, event: event.type });
    const { eventLog, runtime } = this.needs;
    const unavailable = runtime.unavailable;
    if (unavailable) {
      log.warn({ reason: unavailable }, 'integration event not delivered: scripts do not run on this server');
      await eventLog.record(integration.name, event, 'failed', [
        this.line(`not delivered: integration scripts do not run on this server (${unavailable})`),
      ]);
      return;
    }
    const spaceId = typeof event.spaceId === 'string' ? event.spaceId : undefined;
    const environment = await this.environment(integration, installation, spaceId);
    const trace: LogLine[] = [];
    let answer: WorkerAnswer;
    try {
      answer = await runtime.dispatch(integration, event, environment, undefined, trace);
    } catch (error) {
      if (!(error instanceof ScriptFailure)) throw error;
      log.warn({ reason: error.reason, output: runtime.recentLog(integration.name) }, error.message);
      await eventLog.record(integration.name, event, 'failed', [...trace, this.line(error.message)]);
      throw error;
    }
    if (answer.status >= 300 && answer.status !== 406) {
      const detail = answer.body.toString('utf8').slice(0, 500);
      log.warn({ status: answer.status, detail }, 'integration script failed on an event');
      await eventLog.record(integration.name, event, 'failed', [
        ...trace,
        this.line(`the script answered ${answer.status}: ${detail}`),
      ]);
      throw new Error(`the script of ${integration.name} answered ${answer.status}: ${detail}`);
    }
    // 406: the script has no handler for this type, which is a delivery done.
    await eventLog.record(integration.name, event, 'success', trace);
  }

  private line(message: string): LogLine {
    return { message, timestamp: this.deps.clock.now().toISOString(), level: 'error' };
  }

  /**
   * A request to the integration's public endpoint, answered by its `fetch` handler at once
   * (webhooks from other services wait for their answer).
   */
  async fetch(
    name: string,
    installationId: string | undefined,
    request: { url: string; method: string; headers: Record<string, string>; body: Buffer | undefined },
  ): Promise<WorkerAnswer | undefined> {
    const integration = await this.current(name);
    if (!integration) return undefined;
    let installation: DeliveredInstallation | undefined;
    if (installationId !== undefined) {
      installation = await this.needs.integrations.installationForDelivery(installationId);
      if (installation?.integration_name !== name) return undefined;
    }
    const method = request.method.toLowerCase() as (typeof FETCH_METHODS)[number];
    const event = fetchEvent({ url: request.url, method, headers: request.headers }, installationId);
    const environment = await this.environment(integration, installation);
    return this.needs.runtime.dispatch(integration, event, environment, request.body);
  }

  /**
   * The integration as published now. What a delivery needs (script, secrets, presented
   * integration) is read once per publish: each event then checks one indexed row, not the
   * script's blob and the sealed secrets again.
   */
  private async current(name: string): Promise<DeliveredIntegration | undefined> {
    const stamp = await this.needs.integrations.stampOf(name);
    if (stamp === undefined) return undefined;
    const kept = this.published.get(name);
    if (kept?.stamp === stamp) return kept.integration;
    const integration = await this.needs.integrations.forDelivery(name);
    if (integration) this.published.set(name, { stamp, integration });
    return integration;
  }

  /** The `environment` form field: what `@gitbook/runtime` builds its context from. */
  private async environment(
    integration: DeliveredIntegration,
    installation: DeliveredInstallation | undefined,
    spaceId?: string,
  ): Promise<Record<string, unknown>> {
    const { identities } = this.needs;
    const integrationToken = await identities.integrationToken(integration);
    const installationToken = installation
      ? await identities.installationToken(installation, integration)
      : undefined;
    // What the script reads its space configuration from (`context.environment.spaceInstallation`).
    const spaceInstallation =
      installation && spaceId
        ? await this.needs.integrations.spaceInstallationForDelivery(installation.id, spaceId)
        : undefined;
    return {
      apiEndpoint: this.deps.config.publicUrl,
      apiTokens: {
        integration: integrationToken,
        ...(installationToken ? { installation: installationToken } : {}),
      },
      integration: integration.presented,
      ...(installation ? { installation: installation.presented } : {}),
      ...(spaceInstallation ? { spaceInstallation } : {}),
      secrets: integration.secrets,
      signingSecrets: { integration: this.needs.signingSecret(integration.name) },
    };
  }
}
