import { sql } from 'kysely';
import { type Actor, emailDomain } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { requireSignInMethod } from '../../auth/sign-in-policy.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import { prepared } from '../../db/prepared.js';
import type { Deps } from '../../deps.js';
import { badRequest, conflict, forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MembersService } from '../members/service.js';
import type { OrganizationRow, OrgView } from './present.js';
import type { CreateOrganizationBody, MergeRules, UpdateOrganizationBody } from './schemas.js';

const MAX_DOMAIN_ORGS = 100;

/** The services organizations call. */
export interface OrgsNeeds {
  authz: Pick<Authorizer, 'org' | 'requireOrg' | 'markSeen' | 'membership'>;
  members: Pick<MembersService, 'add' | 'among'>;
}

export class OrgsService {
  private readonly withMembership;

  constructor(
    private readonly deps: Deps,
    private readonly services: OrgsNeeds,
  ) {
    this.withMembership = prepared(
      deps.db,
      (p: { orgId: string; userId: string }) =>
        deps.db
          .selectFrom('organizations as o')
          .innerJoin('members as m', (join) =>
            join.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', p.userId).on('m.disabled', '=', 0),
          )
          .selectAll('o')
          .select(['m.role as member_role', 'm.sso as member_sso'])
          .select((eb) =>
            eb
              .selectFrom('team_members as tm')
              .select(sql<number>`count(*)`.as('n'))
              .whereRef('tm.org_id', '=', 'o.id')
              .where('tm.user_id', '=', p.userId)
              .where('tm.role', '=', 'owner')
              .as('owned_teams'),
          )
          .where('o.id', '=', p.orgId),
      deps.database.cache,
    );
  }

  /** The organization's row, without a permission check (for other areas' rules). */
  async findRow(orgId: string, db: Db | Tx = this.deps.db): Promise<OrganizationRow | undefined> {
    return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
  }

  /** Like `findRow`, for an organization that must exist (its absence is a server error). */
  async requireRow(orgId: string, db: Db | Tx = this.deps.db): Promise<OrganizationRow> {
    return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirstOrThrow();
  }

  /** Creates an organization whose first admin is `ownerId`. */
  async create(ownerId: string, input: CreateOrganizationBody, trx?: Tx): Promise<OrgView> {
    const run = async (tx: Tx) => {
      const now = this.deps.clock.now().toISOString();
      const domains = normalizeDomains(input.emailDomains ?? []);
      const row: OrganizationRow = {
        id: newId(),
        title: input.title.trim(),
        created_at: now,
        updated_at: now,
        created_by: ownerId,
        email_domains: JSON.stringify(domains),
        hostname: null,
        type: 'business',
        use_case: null,
        community_type: null,
        default_role: 'read',
        default_content: null,
        sso: 0,
        ai: 0,
        invite_links: 1,
        logo_url: null,
        merge_rules: JSON.stringify({ type: 'none' } satisfies MergeRules),
      };
      await tx.insertInto('organizations').values(row).execute();
      await this.replaceDomains(tx, row.id, domains);
      await this.services.members.add(tx, row.id, ownerId, 'admin');
      return { row, role: 'admin' as const };
    };
    return trx ? run(trx) : this.deps.db.transaction().execute(run);
  }

  async listForActor(actor: Actor, page: PageRequest): Promise<Page<OrgView>> {
    const query = this.deps.db
      .selectFrom('organizations as o')
      .innerJoin('members as m', 'm.org_id', 'o.id')
      .selectAll('o')
      .select('m.role as member_role')
      .where('m.user_id', '=', actor.userId)
      .where('m.disabled', '=', 0);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'o.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'o.id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'orgs',
    );
    return { ...result, items: result.items.map(({ member_role, ...row }) => ({ row, role: member_role })) };
  }

  /** One query for the organization and the caller's membership: the hottest read of the API. */
  async get(actor: Actor, orgId: string): Promise<OrgView> {
    const found = await this.withMembership.first({ orgId, userId: actor.userId });
    this.services.authz.requireOrg(
      found ? { orgId, role: found.member_role ?? null } : undefined,
      orgId,
      'view',
    );
    const view = viewOf(found!);
    requireSignInMethod(actor, {
      orgId,
      orgTitle: found!.title,
      orgSso: found!.sso,
      memberSso: found!.member_sso,
    });
    await this.services.authz.markSeen(actor.userId, orgId);
    return view;
  }

  async update(actor: Actor, orgId: string, input: UpdateOrganizationBody): Promise<OrgView> {
    const membership = await this.services.authz.org(actor, orgId, 'admin');
    return this.deps.db.transaction().execute(async (tx) => {
      const patch: Partial<OrganizationRow> = { updated_at: this.deps.clock.now().toISOString() };
      if (input.title !== undefined) patch.title = input.title.trim();
      if (input.emailDomains !== undefined) {
        const domains = normalizeDomains(input.emailDomains);
        patch.email_domains = JSON.stringify(domains);
        await this.replaceDomains(tx, orgId, domains);
      }
      if (input.hostname !== undefined) {
        const taken = await tx
          .selectFrom('organizations')
          .select('id')
          .where('hostname', '=', input.hostname)
          .where('id', '!=', orgId)
          .executeTakeFirst();
        if (taken) throw conflict(`The hostname "${input.hostname}" is already used by another organization`);
        patch.hostname = input.hostname;
      }
      if (input.defaultRole !== undefined) patch.default_role = input.defaultRole;
      if (input.defaultContent !== undefined) {
        if (input.defaultContent !== null) {
          // Sites are resolved through the site area once it exists; until then no id can match.
          throw invalidField(
            'body.defaultContent.site',
            `"${input.defaultContent.site}" is not a site of this organization`,
          );
        }
        patch.default_content = null;
      }
      if (input.logo !== undefined) {
        if (input.logo !== null && !/^https?:\/\//i.test(input.logo)) {
          throw invalidField('body.logo', 'must be an http(s) URL');
        }
        patch.logo_url = input.logo;
      }
      if (input.sso !== undefined) patch.sso = input.sso ? 1 : 0;
      if (input.ai !== undefined) patch.ai = input.ai ? 1 : 0;
      if (input.inviteLinks !== undefined) patch.invite_links = input.inviteLinks ? 1 : 0;
      if (input.mergeRules !== undefined) {
        await this.checkMergeRuleUsers(tx, orgId, input.mergeRules);
        patch.merge_rules = JSON.stringify(input.mergeRules);
      }
      await tx.updateTable('organizations').set(patch).where('id', '=', orgId).execute();
      const row = await tx
        .selectFrom('organizations')
        .selectAll()
        .where('id', '=', orgId)
        .executeTakeFirstOrThrow();
      return { row, role: membership.role };
    });
  }

  /** Organizations that people of the caller's own email domain may join. */
  async forEmailDomain(actor: Actor, domain: string): Promise<OrgView[]> {
    const wanted = domain.trim().toLowerCase();
    const own = emailDomain(actor.email);
    if (wanted !== own) {
      throw forbidden(`You can only list the organizations of your own email domain (${own})`);
    }
    const rows = await this.deps.db
      .selectFrom('org_email_domains as d')
      .innerJoin('organizations as o', 'o.id', 'd.org_id')
      .leftJoin('members as m', (join) =>
        join.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', actor.userId),
      )
      .selectAll('o')
      .select('m.role as member_role')
      .select('m.user_id as member_user')
      .where('d.domain', '=', wanted)
      .orderBy('o.created_at')
      .orderBy('o.id')
      .limit(MAX_DOMAIN_ORGS)
      .execute();
    return rows.map(({ member_role, member_user, ...row }) => ({
      row,
      role: member_user ? member_role : undefined,
    }));
  }

  /**
   * Joins the organization when the caller's email domain is one it accepts. Someone who may
   * not see the organization (not a member, and not of an accepted domain) gets the 404 of an
   * unknown one: a 400 "domain not allowed" would tell them it exists. The 400 is for those who
   * see it without being in it (guests).
   */
  async join(actor: Actor, orgId: string): Promise<void> {
    const org = await this.deps.db
      .selectFrom('organizations')
      .select(['id', 'default_role'])
      .where('id', '=', orgId)
      .executeTakeFirst();
    const domain = emailDomain(actor.email);
    const allowed =
      org &&
      (await this.deps.db
        .selectFrom('org_email_domains')
        .select('domain')
        .where('org_id', '=', orgId)
        .where('domain', '=', domain)
        .executeTakeFirst());
    const member = org && (await this.services.authz.membership(actor, orgId));
    if (!org || (!allowed && !member)) throw notFound(`Organization "${orgId}" not found`);
    if (!allowed) {
      if (member?.role) return; // already in, with a role: nothing to join
      throw badRequest(
        `Your email domain (${domain}) is not allowed to join this organization; ask an admin to invite you`,
      );
    }
    await this.deps.db.transaction().execute(async (tx) => {
      await this.services.members.add(tx, orgId, actor.userId, org.default_role, { keepHigher: true });
    });
  }

  private async replaceDomains(tx: Tx, orgId: string, domains: string[]): Promise<void> {
    await tx.deleteFrom('org_email_domains').where('org_id', '=', orgId).execute();
    if (domains.length > 0) {
      await tx
        .insertInto('org_email_domains')
        .values(domains.map((domain) => ({ domain, org_id: orgId })))
        .execute();
    }
  }

  /** Merge rules may only name members of the organization (shared with space merge rules). */
  async checkMergeRuleUsers(
    tx: Tx | Db,
    orgId: string,
    rules: MergeRules | { type: 'inherit' },
  ): Promise<void> {
    if (rules.type !== 'rules') return;
    for (const [i, rule] of rules.rules.entries()) {
      if (!('users' in rule) || rule.users.length === 0) continue;
      const known = await this.services.members.among(tx, orgId, rule.users);
      const missing = rule.users.find((u) => !known.has(u));
      if (missing) {
        throw invalidField(
          `body.mergeRules.rules.${i}.users`,
          `"${missing}" is not a member of this organization`,
        );
      }
    }
  }
}

function normalizeDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => d.trim().toLowerCase()))];
}

/**
 * The view of a row read with its membership. The row comes from the read cache, the same frozen
 * object while the database is unchanged, so the split is made once per row: copying a row of
 * some thirty fields on every request was 8% of the hottest read's time (profiled).
 */
const views = new WeakMap<object, OrgView>();

function viewOf(
  found: OrganizationRow & { member_role: OrgView['role']; member_sso: number; owned_teams: number | null },
): OrgView {
  let view = views.get(found);
  if (!view) {
    const { member_role, member_sso: _sso, owned_teams, ...row } = found;
    // Shared by every request while the row is: frozen, so a change by mistake throws.
    view = Object.freeze({
      row: Object.freeze(row) as OrganizationRow,
      role: member_role,
      ownsTeam: Number(owned_teams) > 0,
    });
    views.set(found, view);
  }
  return view;
}
