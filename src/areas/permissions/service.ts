import { type SelectQueryBuilder, sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { ContentAction } from '../../auth/content-policy.js';
import { type MemberRole, roleRank } from '../../auth/roles.js';
import type { Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { Tables } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { badRequest, invalidField, notFound } from '../../errors.js';
import type { MembersService } from '../members/service.js';
import type { TeamView } from '../teams/present.js';
import type { TeamsService } from '../teams/service.js';
import type { UserRow } from '../users/present.js';
import type { InviteBody } from './schemas.js';

export type TargetType = 'space' | 'collection';
/** A query selecting the ids of spaces or collections. */
export type TargetIdQuery = SelectQueryBuilder<Tables, keyof Tables, { id: string }>;
export type PrincipalType = 'user' | 'team';

interface Target {
  type: TargetType;
  id: string;
  orgId: string;
}

/**
 * Grants: roles given on a space or a collection to a user or a team of the organization. They
 * add to what default levels give (see content-policy), and reach everything below a collection.
 */
/** The services grants call. */
export interface GrantsNeeds {
  authz: Pick<Authorizer, 'space' | 'collection'>;
  members: Pick<MembersService, 'roleOf' | 'among'>;
  teams: Pick<TeamsService, 'views' | 'among'>;
}

export class GrantsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: GrantsNeeds,
  ) {}

  /** How many spaces of the organization each user holds a grant on (users without any are absent). */
  async spaceCountsByUser(orgId: string, userIds: string[]): Promise<Map<string, number>> {
    const rows = await this.deps.db
      .selectFrom('grants')
      .select(['principal_id', sql<number>`count(*)`.as('n')])
      .where('org_id', '=', orgId)
      .where('principal_type', '=', 'user')
      .where('target_type', '=', 'space')
      .where('principal_id', 'in', userIds)
      .groupBy('principal_id')
      .execute();
    return new Map(rows.map((row) => [row.principal_id, Number(row.n)]));
  }

  /** Removes the grants a user holds in the organization (they left it), inside its transaction. */
  async removeUser(tx: Tx, orgId: string, userId: string): Promise<void> {
    await tx
      .deleteFrom('grants')
      .where('org_id', '=', orgId)
      .where('principal_type', '=', 'user')
      .where('principal_id', '=', userId)
      .execute();
  }

  /** Removes the grants made to a team (it is being deleted), inside its transaction. */
  async removeTeam(tx: Tx, teamId: string): Promise<void> {
    await tx
      .deleteFrom('grants')
      .where('principal_type', '=', 'team')
      .where('principal_id', '=', teamId)
      .execute();
  }

  /**
   * Removes every grant on the items (spaces or collections leaving the organization, or purged):
   * their ids, or a query selecting them.
   */
  async removeOn(tx: Tx, targetIds: readonly string[] | TargetIdQuery): Promise<void> {
    await tx.deleteFrom('grants').where('target_id', 'in', targetIds).execute();
  }

  private async target(actor: Actor, type: TargetType, id: string, action: ContentAction): Promise<Target> {
    if (type === 'space') {
      const { space } = await this.services.authz.space(actor, id, action);
      return { type, id, orgId: space.org_id };
    }
    const { collection } = await this.services.authz.collection(actor, id, action);
    return { type, id, orgId: collection.org_id };
  }

  async invite(actor: Actor, type: TargetType, id: string, input: InviteBody): Promise<void> {
    if (!input.users && !input.teams)
      throw badRequest('Invalid request: body must give users or teams (or both)');
    const target = await this.target(actor, type, id, 'admin');
    await this.deps.db.transaction().execute(async (tx) => {
      if (input.users) await this.setGrants(tx, target, 'user', input.users, input.role, 'body.users');
      if (input.teams) await this.setGrants(tx, target, 'team', input.teams, input.role, 'body.teams');
    });
  }

  async listUsers(
    actor: Actor,
    type: TargetType,
    id: string,
    page: PageRequest,
  ): Promise<Page<{ role: MemberRole; user: UserRow }>> {
    await this.target(actor, type, id, 'view');
    const query = this.deps.db
      .selectFrom('grants as g')
      .innerJoin('users as u', 'u.id', 'g.principal_id')
      .select(['g.role', 'g.created_at', 'u.id', 'u.email', 'u.display_name', 'u.photo_url'])
      .where('g.target_id', '=', id)
      .where('g.principal_type', '=', 'user');
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'g.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'u.id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      `grants:users`,
    );
    return {
      ...result,
      items: result.items.map((r) => ({
        role: r.role,
        user: { id: r.id, email: r.email, display_name: r.display_name, photo_url: r.photo_url },
      })),
    };
  }

  async listTeams(
    actor: Actor,
    type: TargetType,
    id: string,
    page: PageRequest,
  ): Promise<Page<{ role: MemberRole; team: TeamView }>> {
    const target = await this.target(actor, type, id, 'view');
    const query = this.deps.db
      .selectFrom('grants as g')
      .select(['g.role', 'g.created_at', 'g.principal_id'])
      .where('g.target_id', '=', id)
      .where('g.principal_type', '=', 'team');
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'g.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'g.principal_id', dir: 'asc', value: (r) => r.principal_id },
      ],
      page,
      `grants:teams`,
    );
    const teams = await this.services.teams.views(
      actor,
      target.orgId,
      result.items.map((r) => r.principal_id),
    );
    return {
      ...result,
      items: result.items.flatMap((r) => {
        const team = teams.get(r.principal_id);
        return team ? [{ role: r.role, team }] : [];
      }),
    };
  }

  /** Changes an existing grant (null removes it); 404 when the principal has none here. */
  async update(
    actor: Actor,
    type: TargetType,
    id: string,
    principal: PrincipalType,
    principalId: string,
    role: MemberRole | null,
  ): Promise<void> {
    await this.target(actor, type, id, 'admin');
    const grant = await this.deps.db
      .selectFrom('grants')
      .select('role')
      .where('target_id', '=', id)
      .where('principal_type', '=', principal)
      .where('principal_id', '=', principalId)
      .executeTakeFirst();
    if (!grant)
      throw notFound(`This ${principal} has no role of their own on this ${type}; invite them first`);
    if (role === null) {
      await this.deleteGrant(id, principal, principalId);
      return;
    }
    await this.deps.db
      .updateTable('grants')
      .set({ role })
      .where('target_id', '=', id)
      .where('principal_type', '=', principal)
      .where('principal_id', '=', principalId)
      .execute();
  }

  async remove(
    actor: Actor,
    type: TargetType,
    id: string,
    principal: PrincipalType,
    principalId: string,
  ): Promise<void> {
    await this.target(actor, type, id, 'admin');
    await this.deleteGrant(id, principal, principalId);
  }

  private async deleteGrant(id: string, principal: PrincipalType, principalId: string): Promise<void> {
    await this.deps.db
      .deleteFrom('grants')
      .where('target_id', '=', id)
      .where('principal_type', '=', principal)
      .where('principal_id', '=', principalId)
      .execute();
  }

  /** Gives a user at least `role` on the item (an existing higher grant stays). */
  async grantAtLeast(
    tx: Tx,
    orgId: string,
    type: TargetType,
    id: string,
    userId: string,
    role: MemberRole,
  ): Promise<void> {
    const current = await tx
      .selectFrom('grants')
      .select('role')
      .where('target_id', '=', id)
      .where('principal_type', '=', 'user')
      .where('principal_id', '=', userId)
      .executeTakeFirst();
    if (current && roleRank(current.role) >= roleRank(role)) return;
    await this.insertGrants(tx, { type, id, orgId }, 'user', [userId], role);
  }

  /** Whoever creates a space or collection administers it, whatever their organization role. */
  async ensureCreatorAdmin(tx: Tx, actor: Actor, orgId: string, type: TargetType, id: string): Promise<void> {
    const member = await this.services.members.roleOf(tx, orgId, actor.userId);
    if (member?.role === 'admin') return;
    await this.insertGrants(tx, { type, id, orgId }, 'user', [actor.userId], 'admin');
  }

  private async setGrants(
    tx: Tx,
    target: Target,
    principal: PrincipalType,
    ids: string[],
    role: MemberRole | null,
    field: string,
  ): Promise<void> {
    const unique = [...new Set(ids)];
    const found =
      principal === 'user'
        ? await this.services.members.among(tx, target.orgId, unique)
        : await this.services.teams.among(tx, target.orgId, unique);
    const index = ids.findIndex((id) => !found.has(id));
    if (index >= 0) {
      throw invalidField(
        `${field}.${index}`,
        `"${ids[index]}" is not a ${principal === 'user' ? 'member' : 'team'} of this organization`,
      );
    }
    if (role === null) {
      await tx
        .deleteFrom('grants')
        .where('target_id', '=', target.id)
        .where('principal_type', '=', principal)
        .where('principal_id', 'in', unique)
        .execute();
      return;
    }
    await this.insertGrants(tx, target, principal, unique, role);
  }

  private async insertGrants(
    tx: Tx,
    target: Target,
    principal: PrincipalType,
    ids: string[],
    role: MemberRole,
  ): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    for (const principalId of ids) {
      await tx
        .insertInto('grants')
        .values({
          org_id: target.orgId,
          target_type: target.type,
          target_id: target.id,
          principal_type: principal,
          principal_id: principalId,
          role,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['target_id', 'principal_type', 'principal_id']).doUpdateSet({ role }))
        .execute();
    }
  }
}
