import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { OrgAction } from '../../auth/org-policy.js';
import type { BlobStore } from '../../content/blob-store.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { IntegrationInstallationsTable, IntegrationsTable } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { forbidden, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { PreviousSetup } from '../../integrations/events.js';
import type { SecretBox } from '../../secret-box.js';
import type { OrgView } from '../orgs/present.js';
import type { OrgsService } from '../orgs/service.js';
import { checkConfiguration } from './configuration.js';
import { isInstallationItself } from './identities.js';
import { checkManifest, type ImageType, sniffImage, unfurlHosts } from './manifest.js';
import type { InstallationView, IntegrationView } from './present.js';
import type {
  IntegrationConfigurations,
  ListInstallationsQuery,
  ListIntegrationsQuery,
  PublishIntegrationBody,
  UpdateInstallationBody,
} from './schemas.js';

/** The services the integrations area calls. */
export interface IntegrationsNeeds {
  authz: Pick<Authorizer, 'org' | 'membership' | 'requireOrg'>;
  orgs: Pick<OrgsService, 'findRow' | 'listForActor'>;
  blobs: Pick<BlobStore, 'get' | 'put'>;
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  /** Integration events: `installation_setup` goes out when an installation is made or updated. */
  events: { installed(tx: Tx, installationId: string, previous?: PreviousSetup): Promise<void> };
  /** Installations' own users leave their organizations when the installations go. */
  identities: { removed(tx: Tx, installationIds: string[]): Promise<void> };
  /** The runtime forgets an unpublished integration's process. */
  runtime: { forget(name: string): Promise<void> };
}

/** An installation as the runtime reads it. */
export interface InstallationRecord {
  id: string;
  integrationName: string;
  orgId: string;
  status: 'active';
  configuration: Record<string, unknown>;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** The organizations a caller belongs to, by id (none for anonymous callers). */
type Memberships = Map<string, OrgView>;

const notFoundNamed = (name: string) => notFound(`Integration "${name}" not found`);

/** `%text%` for LIKE, with LIKE's own characters taken literally (`escape '\'`). */
function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
const escaped = (pattern: string) => sql<string>`${pattern} escape '\\'`;

function record(row: IntegrationInstallationsTable): InstallationRecord {
  return {
    id: row.id,
    integrationName: row.integration_name,
    orgId: row.org_id,
    status: row.status,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Integrations (API.md 4.13): publishing a manifest and its script, reading them as visibility
 * allows, installing them in organizations. Names are global; the organization that first
 * publishes a name owns it, and only its admins publish new versions or unpublish it.
 *
 * Visibility: `public` ones are listed to everyone; `unlisted` ones are read by name by anyone
 * and listed to the owner's members only; `private` ones exist only for the owner's members, and
 * install only there. Anyone else is answered 404.
 */
export class IntegrationsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: IntegrationsNeeds,
  ) {}

  // Queries.

  async list(actor: Actor | undefined, query: ListIntegrationsQuery): Promise<Page<IntegrationView>> {
    const memberships = await this.memberships(actor);
    const memberOrgs = [...memberships.keys()];
    let q = this.deps.db
      .selectFrom('integrations')
      .selectAll()
      .where((eb) =>
        memberOrgs.length === 0
          ? eb('visibility', '=', 'public')
          : eb.or([eb('visibility', '=', 'public'), eb('owner_org_id', 'in', memberOrgs)]),
      );
    if (query.search) {
      const pattern = escaped(containing(query.search));
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(name)`, 'like', pattern),
          eb(sql`lower(title)`, 'like', pattern),
          eb(sql`lower(description)`, 'like', pattern),
        ]),
      );
    }
    // Arrays are stored as JSON text: a quoted value is one whole element.
    if (query.category) q = q.where('categories', 'like', escaped(containing(`"${query.category}"`)));
    if (query.scope) q = q.where('scopes', 'like', escaped(containing(`"${query.scope}"`)));
    if (query.target) q = q.where('target', '=', query.target);
    if (query.owner) q = q.where('owner_org_id', '=', query.owner);
    if (query.blocks !== undefined) q = q.where('blocks', query.blocks ? '<>' : '=', '[]');
    if (query.contentSources !== undefined) {
      q = q.where('content_sources', query.contentSources ? '<>' : '=', '[]');
    }
    if (query.blockDomain) {
      const domain = query.blockDomain.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
      q = q.where((eb) =>
        eb.or([
          eb('unfurl_hosts', 'like', escaped(`%|${domain}|%`)),
          eb('unfurl_hosts', 'like', escaped(`%.${domain}|%`)),
        ]),
      );
    }
    const page = await paginate(
      this.deps.db,
      q,
      [{ ref: 'name', dir: 'asc', value: (r) => r.name }],
      query,
      'integrations',
    );
    return { ...page, items: await this.views(page.items, memberships) };
  }

  async get(actor: Actor | undefined, name: string): Promise<IntegrationView> {
    const memberships = await this.memberships(actor);
    const row = await this.find(this.deps.db, name);
    if (!row || (row.visibility === 'private' && !memberships.has(row.owner_org_id))) {
      throw notFoundNamed(name);
    }
    const [view] = await this.views([row], memberships);
    if (!view) throw notFoundNamed(name);
    return view;
  }

  /**
   * The icon or a preview image of an integration, by blob hash: only the hashes it names, so the
   * route serves no other blob of the store. Public, as images in pages are fetched without a
   * token; the hashes are known only to those who could read the integration.
   */
  async asset(name: string, hash: string): Promise<{ data: Buffer; type: ImageType } | undefined> {
    const row = await this.find(this.deps.db, name);
    if (!row) return undefined;
    const hashes = [row.icon, ...(JSON.parse(row.preview_images) as string[])];
    if (!hashes.includes(hash)) return undefined;
    const data = await this.services.blobs.get(hash);
    const type = data && sniffImage(data);
    return data && type ? { data, type } : undefined;
  }

  // Commands.

  /**
   * Publishes a version: the first publish creates the integration (version 1) in `organization`,
   * each later one by its owner replaces the manifest and adds one to the version. Omitted
   * `visibility` and `target` keep their values (a manifest that never says them does not flip
   * them back to the defaults); omitted `secrets` keep the stored ones, `{}` clears them.
   * Made private, it is uninstalled from every other organization.
   */
  async publish(actor: Actor, name: string, body: PublishIntegrationBody): Promise<IntegrationView> {
    const { org } = await this.orgAs(actor, body.organization, 'admin');
    const images = checkManifest(body);
    const existing = await this.find(this.deps.db, name);
    if (existing && existing.owner_org_id !== org.row.id) throw this.nameTaken(name);
    // Blobs before the transaction: an unrecorded blob is harmless, a row without its blob is not.
    const { blobs } = this.services;
    const script = await blobs.put(Buffer.from(body.script, 'utf8'));
    const icon = images.icon ? (await blobs.put(images.icon)).hash : null;
    const previews: string[] = [];
    for (const image of images.previewImages) previews.push((await blobs.put(image)).hash);

    const attempt = () =>
      this.deps.db.transaction().execute(async (tx) => {
        const current = await this.find(tx, name, true);
        if (current && current.owner_org_id !== org.row.id) throw this.nameTaken(name);
        const now = this.deps.clock.now().toISOString();
        const row: IntegrationsTable = {
          name,
          owner_org_id: org.row.id,
          version: (current?.version ?? 0) + 1,
          title: body.title,
          description: body.description,
          summary: body.summary ?? null,
          visibility: body.visibility ?? current?.visibility ?? 'private',
          target: body.target ?? current?.target ?? 'all',
          runtime: body.runtime ?? 'v1',
          scopes: JSON.stringify([...new Set(body.scopes)]),
          categories: JSON.stringify([...new Set(body.categories ?? [])]),
          blocks: JSON.stringify(body.blocks ?? []),
          content_sources: JSON.stringify(body.contentSources ?? []),
          configurations: JSON.stringify(body.configurations ?? {}),
          external_links: JSON.stringify(body.externalLinks ?? []),
          content_security_policy:
            body.contentSecurityPolicy === undefined ? null : JSON.stringify(body.contentSecurityPolicy),
          unfurl_hosts: unfurlHosts(body.blocks ?? []),
          icon,
          preview_images: JSON.stringify(previews),
          script_sha: script.hash,
          secrets: this.sealedSecrets(name, body.secrets, current),
          created_at: current?.created_at ?? now,
          updated_at: now,
        };
        if (current) await tx.updateTable('integrations').set(row).where('name', '=', name).execute();
        else await tx.insertInto('integrations').values(row).execute();
        if (row.visibility === 'private') {
          const elsewhere = await tx
            .deleteFrom('integration_installations')
            .where('integration_name', '=', name)
            .where('org_id', '<>', row.owner_org_id)
            .returning('id')
            .execute();
          await this.dropSpaceInstallations(
            tx,
            elsewhere.map((r) => r.id),
          );
          await this.services.identities.removed(
            tx,
            elsewhere.map((r) => r.id),
          );
        }
        return row;
      });
    let row: IntegrationsTable;
    try {
      row = await attempt();
    } catch (error) {
      // The same name published for the first time by another request: this one is then an update.
      if (!isUniqueViolation(error)) throw error;
      row = await attempt();
    }
    return { row, owner: org };
  }

  /** Deletes the integration and its installations (owner admins); 204 whether or not it existed. */
  async unpublish(actor: Actor, name: string): Promise<void> {
    const row = await this.find(this.deps.db, name);
    if (!row) return;
    await this.ownerAdmin(actor, row);
    await this.deps.db.transaction().execute(async (tx) => {
      // The integration first: an install holding its row (FOR UPDATE) commits before this
      // delete goes on, and its installation is then deleted below rather than left behind.
      await tx.deleteFrom('integrations').where('name', '=', name).execute();
      const gone = await tx
        .deleteFrom('integration_installations')
        .where('integration_name', '=', name)
        .returning('id')
        .execute();
      await this.dropSpaceInstallations(
        tx,
        gone.map((r) => r.id),
      );
      await this.services.identities.removed(
        tx,
        gone.map((r) => r.id),
      );
    });
    await this.services.runtime.forget(name);
  }

  /**
   * Installs the integration in `organization` (its admins). Installing it again answers the
   * installation there is (one per organization).
   */
  async install(actor: Actor, name: string, organization: string): Promise<InstallationView> {
    const { org, memberships } = await this.orgAs(actor, organization, 'installIntegration');
    const attempt = () =>
      this.deps.db.transaction().execute(async (tx) => {
        const integration = await this.find(tx, name, true);
        if (
          !integration ||
          (integration.visibility === 'private' && !memberships.has(integration.owner_org_id))
        ) {
          throw notFoundNamed(name);
        }
        if (integration.visibility === 'private' && integration.owner_org_id !== org.row.id) {
          throw forbidden(
            `Integration "${name}" is private: it installs only in the organization that publishes it`,
          );
        }
        const existing = await this.installationIn(tx, name, org.row.id);
        if (existing) return { integration, installation: existing };
        const now = this.deps.clock.now().toISOString();
        const installation: IntegrationInstallationsTable = {
          id: newId(),
          integration_name: name,
          org_id: org.row.id,
          status: 'active',
          configuration: '{}',
          space_selection: 'all',
          external_ids: '[]',
          created_by: actor.userId,
          created_at: now,
          updated_at: now,
        };
        await tx.insertInto('integration_installations').values(installation).execute();
        await this.services.events.installed(tx, installation.id);
        return { integration, installation };
      });
    let result: { integration: IntegrationsTable; installation: IntegrationInstallationsTable };
    try {
      result = await attempt();
    } catch (error) {
      // Installed by another request at the same moment: this one answers that installation.
      if (!isUniqueViolation(error)) throw error;
      result = await attempt();
    }
    const [integration] = await this.views([result.integration], memberships);
    if (!integration) throw notFoundNamed(name);
    const spaces = (await this.spaceCounts([result.installation.id])).get(result.installation.id) ?? 0;
    return { row: result.installation, integration, spaces };
  }

  /** One installation (`getIntegrationInstallationById`), for admins of the organization it is in. */
  async getInstallation(
    actor: Actor,
    name: string,
    installationId: string,
  ): Promise<{ row: IntegrationInstallationsTable; spaces: number }> {
    const row = await this.manageable(actor, name, installationId);
    return { row, spaces: (await this.spaceCounts([row.id])).get(row.id) ?? 0 };
  }

  /**
   * An installation its caller may manage: admins of its organization, and the installation
   * itself (its script keeps its settings there, as GitBook integrations do after an OAuth
   * flow). 404 for anyone outside that organization, or when the installation is not one of
   * integration `name`.
   */
  async manageable(
    actor: Actor,
    name: string,
    installationId: string,
  ): Promise<IntegrationInstallationsTable> {
    const row = await this.installationRow(installationId);
    if (row?.integration_name === name && isInstallationItself(actor, row.id)) return row;
    const membership =
      row?.integration_name === name && (await this.services.authz.membership(actor, row.org_id));
    if (!row || !membership)
      throw notFound(`Installation "${installationId}" of integration "${name}" not found`);
    this.services.authz.requireOrg(membership, row.org_id, 'installIntegration');
    return row;
  }

  /** The configuration forms of an integration's manifest ({} when it has none, or is gone). */
  async configurationForms(name: string, db: Db | Tx = this.deps.db): Promise<IntegrationConfigurations> {
    const row = await db
      .selectFrom('integrations')
      .select('configurations')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? (JSON.parse(row.configurations) as IntegrationConfigurations) : {};
  }

  /**
   * `updateIntegrationInstallation`: its configuration (checked against the manifest's account
   * form), external ids and space selection. A new configuration sends `installation_setup`
   * with the previous one, as GitBook does, so the script can act on it.
   */
  async updateInstallation(
    actor: Actor,
    name: string,
    installationId: string,
    body: UpdateInstallationBody,
  ): Promise<InstallationView> {
    const row = await this.manageable(actor, name, installationId);
    const forms = await this.configurationForms(name);
    if (body.configuration) checkConfiguration(forms.account, body.configuration, 'body.configuration');
    const updated = await this.deps.db.transaction().execute(async (tx) => {
      const current = await tx
        .selectFrom('integration_installations')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirst();
      if (!current) throw notFound(`Installation "${installationId}" of integration "${name}" not found`);
      const next: IntegrationInstallationsTable = {
        ...current,
        configuration: body.configuration ? JSON.stringify(body.configuration) : current.configuration,
        external_ids: body.externalIds ? JSON.stringify(body.externalIds) : current.external_ids,
        space_selection: body.space_selection ?? current.space_selection,
        updated_at: this.deps.clock.now().toISOString(),
      };
      await tx.updateTable('integration_installations').set(next).where('id', '=', row.id).execute();
      if (body.configuration) {
        await this.services.events.installed(tx, row.id, {
          status: current.status,
          configuration: JSON.parse(current.configuration) as Record<string, unknown>,
        });
      }
      return next;
    });
    const view = await this.get(actor, name);
    return { row: updated, integration: view, spaces: (await this.spaceCounts([row.id])).get(row.id) ?? 0 };
  }

  /**
   * `uninstallIntegration`: the installation, its space installations and its user's membership
   * go in one transaction. False when there was no such installation (204); 404 for an
   * installation of an organization the caller is not in.
   */
  async uninstall(actor: Actor, name: string, installationId: string): Promise<boolean> {
    const existing = await this.installationRow(installationId);
    if (existing?.integration_name !== name) return false;
    await this.manageable(actor, name, installationId);
    return this.deps.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('integration_space_installations')
        .where('installation_id', '=', installationId)
        .execute();
      const gone = await tx
        .deleteFrom('integration_installations')
        .where('id', '=', installationId)
        .returning('id')
        .execute();
      await this.services.identities.removed(
        tx,
        gone.map((r) => r.id),
      );
      return gone.length > 0;
    });
  }

  /** Admins of the organization that owns integration `name` pass; 404 for everyone outside it. */
  async requireOwnerAdmin(actor: Actor, name: string): Promise<void> {
    const row = await this.find(this.deps.db, name);
    if (!row) throw notFoundNamed(name);
    await this.ownerAdmin(actor, row);
  }

  /** How many spaces each installation is installed on (absent: none). */
  async spaceCounts(installationIds: string[]): Promise<Map<string, number>> {
    if (installationIds.length === 0) return new Map();
    const rows = await this.deps.db
      .selectFrom('integration_space_installations')
      .select(['installation_id', (eb) => eb.fn.countAll<string | number>().as('n')])
      .where('installation_id', 'in', installationIds)
      .groupBy('installation_id')
      .execute();
    return new Map(rows.map((r) => [r.installation_id, Number(r.n)]));
  }

  /** The installations of an organization, by integration name (`search`: in names and titles). */
  async listInstallations(
    actor: Actor,
    orgId: string,
    query: ListInstallationsQuery,
  ): Promise<Page<InstallationView>> {
    await this.services.authz.org(actor, orgId, 'listInstallations');
    const { db } = this.deps;
    let q = db.selectFrom('integration_installations').selectAll().where('org_id', '=', orgId);
    if (query.search) {
      const pattern = escaped(containing(query.search));
      q = q.where('integration_name', 'in', (eb) =>
        eb
          .selectFrom('integrations')
          .select('name')
          .where((w) => w.or([w(sql`lower(name)`, 'like', pattern), w(sql`lower(title)`, 'like', pattern)])),
      );
    }
    const page = await paginate(
      db,
      q,
      [{ ref: 'integration_name', dir: 'asc', value: (r) => r.integration_name }],
      query,
      'integration-installations',
    );
    const names = page.items.map((row) => row.integration_name);
    const rows = names.length
      ? await db.selectFrom('integrations').selectAll().where('name', 'in', names).execute()
      : [];
    const views = new Map(
      (await this.views(rows, await this.memberships(actor))).map((view) => [view.row.name, view]),
    );
    const counts = await this.spaceCounts(page.items.map((row) => row.id));
    const items = page.items.flatMap((row) => {
      const integration = views.get(row.integration_name);
      return integration ? [{ row, integration, spaces: counts.get(row.id) ?? 0 }] : [];
    });
    return { ...page, items };
  }

  // What the integration runtime reads (no caller: the runtime decides what runs).

  /** The integration as anyone would see it (no caller: the owner's permissions are not given). */
  async viewOf(name: string): Promise<IntegrationView | undefined> {
    const row = await this.find(this.deps.db, name);
    return row && (await this.views([row], new Map()))[0];
  }

  /** What changes with each publish, read from the row alone; undefined when unpublished. */
  async stampOf(name: string): Promise<string | undefined> {
    const row = await this.deps.db
      .selectFrom('integrations')
      .select(['version', 'updated_at'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row && `${row.version}:${row.updated_at}`;
  }

  /** Everything the runtime needs to run the current version; undefined when unpublished. */
  async forDelivery(
    name: string,
  ): Promise<{ view: IntegrationView; script: string; secrets: Record<string, string> } | undefined> {
    const view = await this.viewOf(name);
    const script = view && (await this.scriptOf(name));
    if (!view || !script) return undefined;
    return { view, script: script.script, secrets: await this.secretsOf(name) };
  }

  async installationRow(id: string): Promise<IntegrationInstallationsTable | undefined> {
    return this.deps.db
      .selectFrom('integration_installations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The current version's script, as published (the bundle `gitbook publish` built). */
  async scriptOf(name: string): Promise<{ version: number; script: string } | undefined> {
    const row = await this.find(this.deps.db, name);
    if (!row) return undefined;
    const data = await this.services.blobs.get(row.script_sha);
    if (!data)
      throw new Error(`The script of integration "${name}" (blob ${row.script_sha}) is missing from storage`);
    return { version: row.version, script: data.toString('utf8') };
  }

  /** The integration's secrets, decrypted ({} when it has none or does not exist). */
  async secretsOf(name: string): Promise<Record<string, string>> {
    const row = await this.find(this.deps.db, name);
    if (!row?.secrets) return {};
    return JSON.parse(this.services.secrets.open(row.secrets, name)) as Record<string, string>;
  }

  async installation(id: string): Promise<InstallationRecord | undefined> {
    const row = await this.deps.db
      .selectFrom('integration_installations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && record(row);
  }

  /** Every installation of an integration, oldest first. */
  async installationsOf(name: string): Promise<InstallationRecord[]> {
    const rows = await this.deps.db
      .selectFrom('integration_installations')
      .selectAll()
      .where('integration_name', '=', name)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(record);
  }

  /** The installations of any of `orgIds` (ids and organizations only). */
  async installationIdsInOrgs(
    orgIds: string[],
    db: Db | Tx = this.deps.db,
  ): Promise<Array<{ id: string; org_id: string }>> {
    if (orgIds.length === 0) return [];
    return db
      .selectFrom('integration_installations')
      .select(['id', 'org_id'])
      .where('org_id', 'in', orgIds)
      .orderBy('id')
      .execute();
  }

  /** Every installation in an organization, by integration name (`db`: read inside a transaction). */
  async installationsInOrg(orgId: string, db: Db | Tx = this.deps.db): Promise<InstallationRecord[]> {
    const rows = await db
      .selectFrom('integration_installations')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('integration_name')
      .execute();
    return rows.map(record);
  }

  /**
   * The installations in `orgId` that hear of space `spaceId`: those selecting every space, and
   * those installed on it (`db`: read inside the transaction of the event's cause).
   */
  async installationIdsForSpace(db: Db | Tx, orgId: string, spaceId: string): Promise<string[]> {
    const rows = await db
      .selectFrom('integration_installations')
      .select('id')
      .where('org_id', '=', orgId)
      .where((eb) =>
        eb.or([
          eb('space_selection', '=', 'all'),
          eb(
            'id',
            'in',
            eb
              .selectFrom('integration_space_installations')
              .select('installation_id')
              .where('space_id', '=', spaceId),
          ),
        ]),
      )
      .orderBy('integration_name')
      .execute();
    return rows.map((r) => r.id);
  }

  // Helpers.

  private async dropSpaceInstallations(tx: Tx, installationIds: string[]): Promise<void> {
    if (installationIds.length === 0) return;
    await tx
      .deleteFrom('integration_space_installations')
      .where('installation_id', 'in', installationIds)
      .execute();
  }

  private async find(db: Db | Tx, name: string, lock = false): Promise<IntegrationsTable | undefined> {
    let query = db.selectFrom('integrations').selectAll().where('name', '=', name);
    if (lock && this.deps.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  private installationIn(db: Db | Tx, name: string, orgId: string) {
    return db
      .selectFrom('integration_installations')
      .selectAll()
      .where('integration_name', '=', name)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  /** Names are global: refused to every organization but the owner, without changing anything. */
  private nameTaken(name: string) {
    return notFound(
      `Integration "${name}" not found in this organization: the name belongs to another organization; choose another name`,
    );
  }

  private sealedSecrets(
    name: string,
    secrets: Record<string, string> | undefined,
    current: IntegrationsTable | undefined,
  ): string | null {
    if (secrets === undefined) return current?.secrets ?? null;
    if (Object.keys(secrets).length === 0) return null;
    return this.services.secrets.seal(JSON.stringify(secrets), name);
  }

  /**
   * The caller's organizations, by id. Read through the organizations' own list (pages of 1000):
   * one query for the usual person in a few organizations.
   */
  private async memberships(actor: Actor | undefined): Promise<Memberships> {
    const found: Memberships = new Map();
    if (!actor) return found;
    let page: string | undefined;
    do {
      const result = await this.services.orgs.listForActor(actor, { limit: 1000, page });
      for (const view of result.items) found.set(view.row.id, view);
      page = result.next?.page;
    } while (page);
    return found;
  }

  /**
   * The organization an `organization` field names (its id or its hostname) among the caller's,
   * checked for `action`: 404 when the caller is not in it, 403 when their role is too low.
   */
  private async orgAs(
    actor: Actor,
    ref: string,
    action: OrgAction,
  ): Promise<{ org: OrgView; memberships: Memberships }> {
    const memberships = await this.memberships(actor);
    const view =
      memberships.get(ref) ?? [...memberships.values()].find((candidate) => candidate.row.hostname === ref);
    if (!view) throw notFound(`Organization "${ref}" not found`);
    const { role } = await this.services.authz.org(actor, view.row.id, action);
    return { org: { row: view.row, role }, memberships };
  }

  /** 404 for anyone outside the owner organization (whatever the visibility), 403 below admin. */
  private async ownerAdmin(actor: Actor, row: IntegrationsTable): Promise<void> {
    const membership = await this.services.authz.membership(actor, row.owner_org_id);
    if (!membership) throw notFoundNamed(row.name);
    this.services.authz.requireOrg(membership, row.owner_org_id, 'admin');
  }

  /** Rows with their owner organizations as the caller sees them (each owner read once). */
  private async views(rows: IntegrationsTable[], memberships: Memberships): Promise<IntegrationView[]> {
    const owners = new Map<string, OrgView | undefined>();
    for (const { owner_org_id: id } of rows) {
      if (owners.has(id)) continue;
      const member = memberships.get(id);
      const row = member ? undefined : await this.services.orgs.findRow(id);
      owners.set(id, member ?? (row && { row, role: undefined }));
    }
    return rows.flatMap((row) => {
      const owner = owners.get(row.owner_org_id);
      return owner ? [{ row, owner }] : [];
    });
  }
}
