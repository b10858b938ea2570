import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { MemberRole } from '../../auth/roles.js';
import { titleSlug } from '../../content/slugs.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, paginate } from '../../db/keyset.js';
import type { SitesTable, SpacesTable } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { type ApiError, conflict, invalidField } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SiteAddresses } from '../../publish/addresses.js';
import type { SpacesService } from '../spaces/service.js';
import type { SiteAccessor } from './access.js';
import type { SiteView } from './present.js';
import { MAX_PATH, uniquePath } from './rules.js';
import {
  type CreateSiteBody,
  HOSTNAME_PATTERN,
  type ListSitesQuery,
  PROXY_PATTERN,
  type UpdateSiteBody,
} from './schemas.js';
import { inSiteOrg, loadTree, sectionOf, siteSpaceOf } from './tree.js';

const DEFAULT_TITLE = 'Untitled site';
const GAP = 65_536;

/** The services sites call. */
export interface SitesNeeds {
  authz: Pick<Authorizer, 'org' | 'scope' | 'spaceRole'>;
  spaces: Pick<SpacesService, 'findLiveIn'>;
}

/** Sites: create, list, read, settings, publish, delete. */
export class SitesService {
  constructor(
    private readonly deps: Deps,
    private readonly services: SitesNeeds,
    private readonly access: SiteAccessor,
    private readonly addresses: SiteAddresses,
  ) {}

  async list(actor: Actor, orgId: string, query: ListSitesQuery): Promise<Page<SiteView>> {
    const membership = await this.services.authz.org(actor, orgId, 'access');
    let q = this.deps.db
      .selectFrom('sites')
      .selectAll('sites')
      .select((eb) =>
        eb
          .selectFrom('site_spaces as c')
          .innerJoin('spaces as cs', 'cs.id', 'c.space_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('c.site_id', '=', 'sites.id')
          .whereRef('cs.org_id', '=', 'sites.org_id')
          .as('site_space_count'),
      )
      .where('sites.org_id', '=', orgId);
    if (query.space !== undefined) {
      const spaceId = query.space;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('site_spaces as f')
            .select('f.id')
            .whereRef('f.site_id', '=', 'sites.id')
            .where('f.space_id', '=', spaceId),
        ),
      );
    }
    if (query.title) {
      const pattern = `%${query.title.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql`lower(sites.title)`, 'like', sql`${pattern} escape '\\'`);
    }
    if (query.published !== undefined) q = q.where('sites.published', '=', query.published ? 1 : 0);
    if (query.type?.length) q = q.where('sites.type', 'in', query.type);
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 'sites.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'sites.id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'sites:org',
    );
    return {
      ...page,
      items: page.items.map(({ site_space_count, ...row }) => ({
        row,
        orgRole: membership.role,
        siteSpaces: Number(site_space_count ?? 0),
      })),
    };
  }

  /** A new unpublished site; each space given becomes a site space, the first the default. */
  async create(actor: Actor, orgId: string, input: CreateSiteBody): Promise<SiteView> {
    const membership = await this.services.authz.org(actor, orgId, 'createContent');
    const spaceIds = input.spaces ?? [];
    spaceIds.forEach((id, i) => {
      if (spaceIds.indexOf(id) !== i) throw invalidField(`body.spaces.${i}`, `repeats the space "${id}"`);
    });
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      const spaces: SpacesTable[] = [];
      for (const [i, spaceId] of spaceIds.entries())
        spaces.push(await this.publishable(tx, actor, orgId, membership.role, spaceId, `body.spaces.${i}`));
      const now = this.deps.clock.now().toISOString();
      const title = input.title?.trim() ?? '';
      const row: SitesTable = {
        id,
        org_id: orgId,
        type: input.type ?? 'basic',
        title: title.length >= 2 ? title : DEFAULT_TITLE,
        visibility: input.visibility ?? 'public',
        published: 0,
        basename: null,
        hostname: null,
        proxy: null,
        adaptive_enabled: 0,
        agents_context: 'included',
        customization: '{}',
        customization_updated_at: null,
        adaptive_schema: null,
        adaptive_schema_updated_at: null,
        auth_private_key: newSecret(),
        auth_fallback_url: null,
        share_secret: newSecret(),
        default_section_id: null,
        default_site_space_id: null,
        created_at: now,
        updated_at: now,
      };
      await tx.insertInto('sites').values(row).execute();
      const taken = new Set<string>();
      for (const [i, space] of spaces.entries()) {
        const path = uniquePath(titleSlug(space.title, 'space', MAX_PATH), taken);
        taken.add(path);
        const siteSpaceId = newId();
        await tx
          .insertInto('site_spaces')
          .values(newSiteSpace(siteSpaceId, id, null, space.id, path, (i + 1) * GAP, now))
          .execute();
        if (i === 0)
          await tx
            .updateTable('sites')
            .set({ default_site_space_id: siteSpaceId })
            .where('id', '=', id)
            .execute();
      }
    });
    return this.view(actor, orgId, id);
  }

  /**
   * A space a site may publish: live, of the site's organization, visible to the caller. Any
   * other id (unknown, trashed, another organization's, hidden from the caller) is the same 400
   * naming the field, so the answer reveals nothing about spaces the caller cannot see.
   */
  async publishable(
    db: Db | Tx,
    actor: Actor,
    orgId: string,
    orgRole: MemberRole | null,
    spaceId: string,
    field: string,
  ): Promise<SpacesTable> {
    const space = await this.services.spaces.findLiveIn(db, orgId, spaceId);
    if (!space || !(await this.services.authz.spaceRole(actor, space, orgRole)))
      throw invalidField(field, `"${spaceId}" is not a space of this organization`);
    return space;
  }

  async view(actor: Actor, orgId: string, siteId: string): Promise<SiteView> {
    const { site, orgRole } = await this.access.site(actor, orgId, siteId, 'view');
    return this.viewOf(site, orgRole);
  }

  async viewOf(site: SitesTable, orgRole: MemberRole | null): Promise<SiteView> {
    const counted = await this.deps.db
      .selectFrom('site_spaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('site_id', '=', site.id)
      .where(inSiteOrg(site.org_id))
      .executeTakeFirst();
    return { row: site, orgRole, siteSpaces: Number(counted?.n ?? 0) };
  }

  async update(actor: Actor, orgId: string, siteId: string, input: UpdateSiteBody): Promise<SiteView> {
    const orgRole = await this.access.command(actor, orgId, siteId, async (tx, site, role) => {
      const patch: Partial<SitesTable> = {};
      if (input.title !== undefined) {
        const title = input.title.trim();
        if (title.length < 2)
          throw invalidField('body.title', 'must have at least 2 characters besides spaces');
        patch.title = title;
      }
      if (input.visibility !== undefined) patch.visibility = input.visibility;
      if (input.basename !== undefined) patch.basename = input.basename;
      if (input.adaptiveContent !== undefined) patch.adaptive_enabled = input.adaptiveContent.enabled ? 1 : 0;
      if (input.agentsContext !== undefined) patch.agents_context = input.agentsContext;
      if (input.hostname !== undefined) patch.hostname = await this.checkHostname(tx, site, input.hostname);
      if (input.proxy !== undefined) patch.proxy = this.proxyOf({ ...site, ...patch }, input.proxy);
      await this.applyDefaults(tx, site, input, patch);
      if (Object.keys(patch).length > 0) {
        try {
          await tx.updateTable('sites').set(patch).where('id', '=', siteId).execute();
        } catch (error) {
          if (isUniqueViolation(error)) throw hostnameTaken(input.hostname ?? '');
          throw error;
        }
      }
      return role;
    });
    return this.viewOf(await this.access.reload(siteId), orgRole);
  }

  private async checkHostname(tx: Tx, site: SitesTable, given: string | null): Promise<string | null> {
    if (given === null || given === '') return null;
    const hostname = given.trim().toLowerCase();
    if (!new RegExp(HOSTNAME_PATTERN).test(hostname)) {
      throw invalidField(
        'body.hostname',
        `must be a host name of at least three labels such as "docs.example.com" (pattern ${HOSTNAME_PATTERN})`,
      );
    }
    if (hostname === new URL(this.deps.config.publicUrl).hostname)
      throw invalidField('body.hostname', "is this server's own host name; give the site a host of its own");
    const other = await tx
      .selectFrom('sites')
      .select('id')
      .where('hostname', '=', hostname)
      .where('id', '!=', site.id)
      .executeTakeFirst();
    if (other) throw hostnameTaken(hostname);
    return hostname;
  }

  /** `{origin, target}`: requests at the origin (host and path) are served by this site. */
  private proxyOf(site: SitesTable, given: string | null): string | null {
    if (given === null || given === '') return null;
    if (!new RegExp(PROXY_PATTERN).test(given)) {
      throw invalidField(
        'body.proxy',
        `must be a host name followed by one or more path segments, such as "example.com/docs" (pattern ${PROXY_PATTERN})`,
      );
    }
    return JSON.stringify({ origin: given, target: this.addresses.root(site) });
  }

  /**
   * `defaultSiteSection` makes a section the one without a path segment; `defaultSiteSpace`
   * makes a site space the site's landing: the default at the top level, or the default of its
   * section with that section made the site's default.
   */
  private async applyDefaults(
    tx: Tx,
    site: SitesTable,
    input: UpdateSiteBody,
    patch: Partial<SitesTable>,
  ): Promise<void> {
    if (input.defaultSiteSection === undefined && input.defaultSiteSpace === undefined) return;
    const tree = await loadTree(tx, site.id);
    if (input.defaultSiteSection !== undefined)
      patch.default_section_id = sectionOf(tree, input.defaultSiteSection, 'body.defaultSiteSection').id;
    if (input.defaultSiteSpace === undefined) return;
    const siteSpace = siteSpaceOf(tree, input.defaultSiteSpace, 'body.defaultSiteSpace');
    if (siteSpace.section_id === null) {
      patch.default_site_space_id = siteSpace.id;
      return;
    }
    if (input.defaultSiteSection !== undefined && input.defaultSiteSection !== siteSpace.section_id) {
      throw invalidField('body.defaultSiteSpace', 'is not in the section given as defaultSiteSection');
    }
    patch.default_section_id = siteSpace.section_id;
    await tx
      .updateTable('site_sections')
      .set({ default_site_space_id: siteSpace.id })
      .where('id', '=', siteSpace.section_id)
      .execute();
  }

  async delete(actor: Actor, orgId: string, siteId: string): Promise<void> {
    await this.access.deleting(actor, orgId, siteId, async (tx) => {
      await tx.deleteFrom('sites').where('id', '=', siteId).execute();
    });
  }

  async setPublished(actor: Actor, orgId: string, siteId: string, published: boolean): Promise<SiteView> {
    const orgRole = await this.access.command(actor, orgId, siteId, async (tx, _site, role) => {
      await tx
        .updateTable('sites')
        .set({ published: published ? 1 : 0 })
        .where('id', '=', siteId)
        .execute();
      return role;
    });
    return this.viewOf(await this.access.reload(siteId), orgRole);
  }
}

/** A 256-bit secret (visitor-token key, share-key secret). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hostnameTaken(hostname: string): ApiError {
  return conflict(`The host name "${hostname}" is already used by another site; choose another one`);
}

export function newSiteSpace(
  id: string,
  siteId: string,
  sectionId: string | null,
  spaceId: string,
  path: string,
  position: number,
  now: string,
) {
  return {
    id,
    site_id: siteId,
    section_id: sectionId,
    space_id: spaceId,
    path,
    title: null,
    condition: null,
    hidden: 0 as const,
    page_id: null,
    position,
    customization: null,
    created_at: now,
  };
}
