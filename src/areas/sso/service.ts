import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { SamlProvidersTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { OrgsService } from '../orgs/service.js';
import type { TeamsService } from '../teams/service.js';
import type { SamlProviderView } from './present.js';
import { certificatePem, isActive, serviceUrls } from './saml.js';
import type { CreateSamlProviderBody, UpdateSamlProviderBody } from './schemas.js';

/** The services SAML providers call. */
export interface SamlProvidersNeeds {
  authz: Pick<Authorizer, 'org'>;
  orgs: Pick<OrgsService, 'findRow'>;
  teams: Pick<TeamsService, 'among' | 'views'>;
}

export interface SsoLogin {
  id: string;
  label: string;
  startURL: string;
}

/** An organization's SAML identity providers (API.md 4.9). */
export class SamlProvidersService {
  constructor(
    private readonly deps: Deps,
    private readonly services: SamlProvidersNeeds,
  ) {}

  /** A provider by id, without a permission check (for the sign-in endpoints). */
  async find(providerId: string): Promise<SamlProvidersTable | undefined> {
    return this.deps.db
      .selectFrom('saml_providers')
      .selectAll()
      .where('id', '=', providerId)
      .executeTakeFirst();
  }

  async list(actor: Actor, orgId: string, page: PageRequest): Promise<Page<SamlProviderView>> {
    await this.services.authz.org(actor, orgId, 'viewSamlProviders');
    const q = this.deps.db.selectFrom('saml_providers').selectAll().where('org_id', '=', orgId);
    const result = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'saml-providers',
    );
    return { ...result, items: await this.views(actor, orgId, result.items) };
  }

  async get(actor: Actor, orgId: string, providerId: string): Promise<SamlProviderView> {
    await this.services.authz.org(actor, orgId, 'viewSamlProviders');
    return (await this.views(actor, orgId, [await this.require(orgId, providerId)]))[0]!;
  }

  async create(actor: Actor, orgId: string, input: CreateSamlProviderBody): Promise<SamlProviderView> {
    await this.services.authz.org(actor, orgId, 'manageSamlProviders');
    const now = this.deps.clock.now().toISOString();
    const row: SamlProvidersTable = {
      id: newId(),
      org_id: orgId,
      label: input.label.trim() || input.label,
      entity_id: '',
      certificate: '',
      sso_url: null,
      default_team_id: null,
      default_role: null,
      created_at: now,
      updated_at: now,
    };
    Object.assign(row, await this.changes(orgId, input));
    await this.deps.db.insertInto('saml_providers').values(row).execute();
    return (await this.views(actor, orgId, [row]))[0]!;
  }

  async update(
    actor: Actor,
    orgId: string,
    providerId: string,
    input: UpdateSamlProviderBody,
  ): Promise<SamlProviderView> {
    await this.services.authz.org(actor, orgId, 'manageSamlProviders');
    const current = await this.require(orgId, providerId);
    const changes = {
      ...(await this.changes(orgId, input)),
      updated_at: this.deps.clock.now().toISOString(),
    };
    await this.deps.db.updateTable('saml_providers').set(changes).where('id', '=', providerId).execute();
    return (await this.views(actor, orgId, [{ ...current, ...changes }]))[0]!;
  }

  /** Deletes the provider (its pending sign-ins with it); 204 whether or not it existed. */
  async delete(actor: Actor, orgId: string, providerId: string): Promise<void> {
    await this.services.authz.org(actor, orgId, 'manageSamlProviders');
    await this.deps.db.transaction().execute(async (tx) => {
      const gone = await tx
        .deleteFrom('saml_providers')
        .where('id', '=', providerId)
        .where('org_id', '=', orgId)
        .executeTakeFirst();
      if (Number(gone.numDeletedRows) > 0)
        await tx.deleteFrom('saml_requests').where('provider_id', '=', providerId).execute();
    });
  }

  /** The active providers a person may sign in with (public: the sign-in page lists them). */
  async logins(orgId: string): Promise<SsoLogin[]> {
    if (!(await this.services.orgs.findRow(orgId))) throw notFound(`Organization "${orgId}" not found`);
    return this.activeLogins(orgId);
  }

  /** The same list for the sign-in page: none for an organization that does not exist. */
  async activeLogins(orgId: string): Promise<SsoLogin[]> {
    const rows = await this.deps.db
      .selectFrom('saml_providers')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.filter(isActive).map((row) => ({
      id: row.id,
      label: row.label,
      startURL: serviceUrls(this.deps.urls.base, row.id).startURL,
    }));
  }

  private async require(orgId: string, providerId: string): Promise<SamlProvidersTable> {
    const row = await this.find(providerId);
    if (!row || row.org_id !== orgId) throw notFound(`SAML provider "${providerId}" not found`);
    return row;
  }

  /** The columns a create or update body sets, each checked (400 naming the field). */
  private async changes(orgId: string, input: UpdateSamlProviderBody): Promise<Partial<SamlProvidersTable>> {
    const out: Partial<SamlProvidersTable> = {};
    if (input.label !== undefined) {
      const label = input.label.trim();
      if (label === '') throw invalidField('body.label', 'must not be blank');
      out.label = label;
    }
    if (input.entityID !== undefined) out.entity_id = input.entityID.trim();
    if (input.certificate !== undefined) {
      const text = input.certificate.trim();
      if (text !== '' && certificatePem(text) === null) {
        throw invalidField(
          'body.certificate',
          'is not an X.509 certificate (PEM, with or without its BEGIN/END lines)',
        );
      }
      out.certificate = text;
    }
    if (input.ssoURL !== undefined) {
      let url: URL | undefined;
      try {
        url = new URL(input.ssoURL);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
        throw invalidField('body.ssoURL', 'must be an http(s) URL of the identity provider');
      }
      out.sso_url = input.ssoURL;
    }
    if (input.defaultTeam !== undefined) {
      if (input.defaultTeam !== null && input.defaultTeam !== '') {
        const found = await this.services.teams.among(this.deps.db, orgId, [input.defaultTeam]);
        if (!found.has(input.defaultTeam)) {
          throw invalidField('body.defaultTeam', `"${input.defaultTeam}" is not a team of this organization`);
        }
      }
      out.default_team_id = input.defaultTeam || null;
    }
    if (input.defaultRole !== undefined) out.default_role = input.defaultRole;
    return out;
  }

  private async views(actor: Actor, orgId: string, rows: SamlProvidersTable[]): Promise<SamlProviderView[]> {
    const teamIds = rows.map((r) => r.default_team_id).filter((id): id is string => id !== null);
    const teams = await this.services.teams.views(actor, orgId, teamIds);
    return rows.map((row) => ({
      row,
      team: row.default_team_id ? teams.get(row.default_team_id) : undefined,
    }));
  }
}
