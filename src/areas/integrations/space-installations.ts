import type { Actor } from '../../auth/actor.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import type {
  IntegrationInstallationsTable,
  IntegrationSpaceInstallationsTable,
  SpacesTable,
} from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import type { PreviousSetup } from '../../integrations/events.js';
import { checkConfiguration } from './configuration.js';
import type { ListSpaceInstallationsQuery, UpdateSpaceInstallationBody } from './schemas.js';
import type { IntegrationsService } from './service.js';

export interface SpaceInstallationsNeeds {
  installations: Pick<IntegrationsService, 'manageable' | 'configurationForms'>;
  spaces: { findLiveIn(db: Db | Tx, orgId: string, spaceId: string): Promise<SpacesTable | undefined> };
  /** `space_installation_setup` goes out when an integration is installed on a space or updated there. */
  events: {
    spaceInstalled(tx: Tx, installationId: string, spaceId: string, previous?: PreviousSetup): Promise<void>;
  };
}

/**
 * An organization's installation of an integration, installed on some of its spaces. An
 * installation whose `space_selection` is `selected` hears only of those spaces; one selecting
 * `all` hears of every space, and a space installation then gives that space a configuration of
 * its own (the manifest's `configurations.space` form). Managed by the admins of the
 * installation's organization, on that organization's live spaces only.
 */
export class SpaceInstallationsService {
  constructor(
    private readonly deps: Deps,
    private readonly needs: SpaceInstallationsNeeds,
  ) {}

  /** `installIntegrationOnSpace`: installing again answers the space installation there is. */
  async install(
    actor: Actor,
    name: string,
    installationId: string,
    spaceId: string,
  ): Promise<IntegrationSpaceInstallationsTable> {
    const installation = await this.needs.installations.manageable(actor, name, installationId);
    const attempt = () =>
      this.deps.db.transaction().execute(async (tx) => {
        await this.liveSpace(tx, installation, spaceId);
        const existing = await this.row(tx, installationId, spaceId);
        if (existing) return existing;
        const now = this.deps.clock.now().toISOString();
        const row: IntegrationSpaceInstallationsTable = {
          installation_id: installationId,
          space_id: spaceId,
          status: 'active',
          configuration: '{}',
          external_ids: '[]',
          created_at: now,
          updated_at: now,
        };
        await tx.insertInto('integration_space_installations').values(row).execute();
        await this.needs.events.spaceInstalled(tx, installationId, spaceId);
        return row;
      });
    try {
      return await attempt();
    } catch (error) {
      // Installed by another request at the same moment: this one answers that one.
      if (!isUniqueViolation(error)) throw error;
      return attempt();
    }
  }

  async list(
    actor: Actor,
    name: string,
    installationId: string,
    query: ListSpaceInstallationsQuery,
  ): Promise<Page<IntegrationSpaceInstallationsTable>> {
    await this.needs.installations.manageable(actor, name, installationId);
    const q = this.deps.db
      .selectFrom('integration_space_installations')
      .selectAll()
      .where('installation_id', '=', installationId);
    return paginate(
      this.deps.db,
      q,
      [{ ref: 'space_id', dir: 'asc', value: (r) => r.space_id }],
      query,
      'integration-space-installations',
    );
  }

  async get(
    actor: Actor,
    name: string,
    installationId: string,
    spaceId: string,
  ): Promise<IntegrationSpaceInstallationsTable> {
    await this.needs.installations.manageable(actor, name, installationId);
    const row = await this.row(this.deps.db, installationId, spaceId);
    if (!row) throw this.notInstalled(name, spaceId);
    return row;
  }

  /** A new configuration (checked against the manifest's space form) sends the setup event again. */
  async update(
    actor: Actor,
    name: string,
    installationId: string,
    spaceId: string,
    body: UpdateSpaceInstallationBody,
  ): Promise<IntegrationSpaceInstallationsTable> {
    await this.needs.installations.manageable(actor, name, installationId);
    if (body.configuration) {
      const forms = await this.needs.installations.configurationForms(name);
      checkConfiguration(forms.space, body.configuration, 'body.configuration');
    }
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await this.row(tx, installationId, spaceId);
      if (!current) throw this.notInstalled(name, spaceId);
      const next: IntegrationSpaceInstallationsTable = {
        ...current,
        configuration: body.configuration ? JSON.stringify(body.configuration) : current.configuration,
        external_ids: body.externalIds ? JSON.stringify(body.externalIds) : current.external_ids,
        updated_at: this.deps.clock.now().toISOString(),
      };
      await tx
        .updateTable('integration_space_installations')
        .set(next)
        .where('installation_id', '=', installationId)
        .where('space_id', '=', spaceId)
        .execute();
      if (body.configuration) {
        await this.needs.events.spaceInstalled(tx, installationId, spaceId, {
          status: current.status,
          configuration: JSON.parse(current.configuration) as Record<string, unknown>,
        });
      }
      return next;
    });
  }

  /** `uninstallIntegrationFromSpace`: false when it was not installed there (204). */
  async uninstall(actor: Actor, name: string, installationId: string, spaceId: string): Promise<boolean> {
    await this.needs.installations.manageable(actor, name, installationId);
    const gone = await this.deps.db
      .deleteFrom('integration_space_installations')
      .where('installation_id', '=', installationId)
      .where('space_id', '=', spaceId)
      .returning('space_id')
      .execute();
    return gone.length > 0;
  }

  /** The space installation events about `spaceId` carry for `installationId`, if any. */
  async forDelivery(
    installationId: string,
    spaceId: string,
  ): Promise<IntegrationSpaceInstallationsTable | undefined> {
    return this.row(this.deps.db, installationId, spaceId);
  }

  private row(db: Db | Tx, installationId: string, spaceId: string) {
    return db
      .selectFrom('integration_space_installations')
      .selectAll()
      .where('installation_id', '=', installationId)
      .where('space_id', '=', spaceId)
      .executeTakeFirst();
  }

  /** Only live spaces of the installation's own organization; any other is not found. */
  private async liveSpace(
    tx: Tx,
    installation: IntegrationInstallationsTable,
    spaceId: string,
  ): Promise<void> {
    const space = await this.needs.spaces.findLiveIn(tx, installation.org_id, spaceId);
    if (!space) throw notFound(`Space "${spaceId}" not found in the installation's organization`);
  }

  private notInstalled(name: string, spaceId: string) {
    return notFound(`Integration "${name}" is not installed on space "${spaceId}"`);
  }
}
