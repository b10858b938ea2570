import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer, OrgMembership } from '../../auth/authorize.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { Deps } from '../../deps.js';
import { forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MemberRow } from '../members/present.js';
import type { MembersService } from '../members/service.js';
import type { TeamView } from './present.js';
import type { CreateTeamBody, ListTeamsQuery, UpdateTeamMembersBody } from './schemas.js';

type TeamRole = 'owner' | 'member';

/**
 * What deleting a team must also end in the areas that refer to teams. The permissions area
 * builds on teams, so teams names it only by this shape.
 */
export interface TeamTies {
  /** Removes the grants made to the team, inside the deletion's transaction. */
  teamDeleted(tx: Tx, teamId: string): Promise<void>;
}

/** The services teams call. */
export interface TeamsNeeds {
  authz: Pick<Authorizer, 'org'>;
  members: Pick<MembersService, 'roleOf' | 'among'>;
  ties: TeamTies;
}

export class TeamsService {
  constructor(
    private readonly deps: Deps,
    private readonly services: TeamsNeeds,
  ) {}

  /** How many teams of the organization each user is in (users without any are absent). */
  async countsByUser(orgId: string, userIds: string[]): Promise<Map<string, number>> {
    const rows = await this.deps.db
      .selectFrom('team_members')
      .select(['user_id', sql<number>`count(*)`.as('n')])
      .where('org_id', '=', orgId)
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((row) => [row.user_id, Number(row.n)]));
  }

  /** Takes a user out of every team of the organization (they left it), inside its transaction. */
  async removeFromAll(tx: Tx, orgId: string, userId: string): Promise<void> {
    await tx.deleteFrom('team_members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
  }

  /**
   * Puts an organization member in the team (as a member) inside the caller's transaction,
   * unless they are in it already; answers false when the team is not one of the organization's.
   */
  async join(tx: Tx, orgId: string, teamId: string, userId: string): Promise<boolean> {
    if (!(await this.among(tx, orgId, [teamId])).has(teamId)) return false;
    await tx
      .insertInto('team_members')
      .values({
        team_id: teamId,
        user_id: userId,
        org_id: orgId,
        role: 'member',
        joined_at: this.deps.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
      .execute();
    return true;
  }

  /** The teams among `teamIds` that belong to the organization. */
  async among(db: Db | Tx, orgId: string, teamIds: string[]): Promise<Set<string>> {
    const rows = await db
      .selectFrom('teams')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', teamIds)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  private toView(
    row: {
      id: string;
      org_id: string;
      title: string;
      created_at: string;
      member_count: number | null;
      space_count: number | null;
    },
    membership: OrgMembership,
    callerRole: string | null,
  ): TeamView {
    const { member_count, space_count, ...team } = row;
    const manage = membership.role === 'admin' || callerRole === 'owner';
    return {
      row: team,
      members: Number(member_count ?? 0),
      spaces: Number(space_count ?? 0),
      manage,
      view: manage || callerRole !== null || membership.role !== null,
    };
  }

  private async read(
    actor: Actor,
    orgId: string,
    teamId: string,
    membership: OrgMembership,
  ): Promise<TeamView> {
    const found = await this.teamsFor(actor, orgId).where('t.id', '=', teamId).executeTakeFirst();
    if (!found) throw notFound(`Team "${teamId}" not found`);
    return this.toView(found, membership, found.caller_role);
  }

  /** Teams with their member and space counts and the caller's own team role, as one query. */
  private teamsFor(actor: Actor, orgId: string) {
    return this.deps.db
      .selectFrom('teams as t')
      .selectAll('t')
      .select((eb) => [
        eb
          .selectFrom('team_members as tm')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('tm.team_id', '=', 't.id')
          .as('member_count'),
        eb
          .selectFrom('grants as g')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('g.principal_id', '=', 't.id')
          .where('g.principal_type', '=', 'team')
          .where('g.target_type', '=', 'space')
          .as('space_count'),
        eb
          .selectFrom('team_members as me')
          .select('me.role')
          .whereRef('me.team_id', '=', 't.id')
          .where('me.user_id', '=', actor.userId)
          .as('caller_role'),
      ])
      .where('t.org_id', '=', orgId);
  }

  /** Views of several teams at once (for lists of grants). */
  async views(actor: Actor, orgId: string, teamIds: string[]): Promise<Map<string, TeamView>> {
    if (teamIds.length === 0) return new Map();
    const membership = await this.services.authz.org(actor, orgId, 'view');
    const rows = await this.teamsFor(actor, orgId).where('t.id', 'in', teamIds).execute();
    return new Map(rows.map((row) => [row.id, this.toView(row, membership, row.caller_role)]));
  }

  /** Organization admins and the team's owners manage a team. */
  private async requireManage(actor: Actor, orgId: string, teamId: string): Promise<TeamView> {
    const membership = await this.services.authz.org(actor, orgId, 'view');
    const team = await this.read(actor, orgId, teamId, membership);
    if (!team.manage) throw forbidden('Only organization admins and owners of this team can manage it');
    return team;
  }

  async create(actor: Actor, orgId: string, input: CreateTeamBody): Promise<TeamView> {
    const membership = await this.services.authz.org(actor, orgId, 'admin');
    const id = newId();
    await this.deps.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('teams')
        .values({
          id,
          org_id: orgId,
          title: input.title.trim(),
          created_at: this.deps.clock.now().toISOString(),
        })
        .execute();
      await this.setMembers(
        tx,
        orgId,
        id,
        (input.members ?? []).map((userId) => [userId, 'member']),
        'body.members',
      );
    });
    return this.read(actor, orgId, id, membership);
  }

  async list(actor: Actor, orgId: string, query: ListTeamsQuery): Promise<Page<TeamView>> {
    const membership = await this.services.authz.org(actor, orgId, 'listTeams');
    let q = this.teamsFor(actor, orgId);
    if (query.title) {
      const pattern = `%${query.title.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(sql`lower(t.title)`, 'like', sql`${pattern} escape '\\'`);
    }
    if (query.owner) {
      const owner = await this.services.members.roleOf(this.deps.db, orgId, query.owner);
      if (!owner)
        throw invalidField('querystring.owner', `"${query.owner}" is not a member of this organization`);
      if (owner.role !== 'admin') {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('team_members as o')
              .select('o.team_id')
              .whereRef('o.team_id', '=', 't.id')
              .where('o.user_id', '=', query.owner!)
              .where('o.role', '=', 'owner'),
          ),
        );
      }
    }
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: 't.created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 't.id', dir: 'asc', value: (r) => r.id },
      ],
      query,
      'teams',
    );
    return { ...page, items: page.items.map((row) => this.toView(row, membership, row.caller_role)) };
  }

  async get(actor: Actor, orgId: string, teamId: string): Promise<TeamView> {
    const membership = await this.services.authz.org(actor, orgId, 'view');
    const team = await this.read(actor, orgId, teamId, membership);
    if (!team.view) throw forbidden('Guests only see the teams they belong to');
    return team;
  }

  async rename(actor: Actor, orgId: string, teamId: string, title: string): Promise<TeamView> {
    const team = await this.requireManage(actor, orgId, teamId);
    await this.deps.db.updateTable('teams').set({ title: title.trim() }).where('id', '=', teamId).execute();
    return { ...team, row: { ...team.row, title: title.trim() } };
  }

  /** Deletes the team and the grants made to it; answers false when it did not exist. */
  async delete(actor: Actor, orgId: string, teamId: string): Promise<boolean> {
    const exists = await this.deps.db
      .selectFrom('teams')
      .select('id')
      .where('id', '=', teamId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    if (!exists) {
      await this.services.authz.org(actor, orgId, 'view');
      return false;
    }
    await this.requireManage(actor, orgId, teamId);
    await this.deps.db.transaction().execute(async (tx) => {
      await this.services.ties.teamDeleted(tx, teamId);
      await tx.deleteFrom('teams').where('id', '=', teamId).execute();
    });
    return true;
  }

  async listMembers(
    actor: Actor,
    orgId: string,
    teamId: string,
    page: PageRequest,
  ): Promise<Page<MemberRow & { teamRole: TeamRole }>> {
    await this.get(actor, orgId, teamId);
    const query = this.deps.db
      .selectFrom('team_members as tm')
      .innerJoin('members as m', (join) =>
        join.onRef('m.user_id', '=', 'tm.user_id').onRef('m.org_id', '=', 'tm.org_id'),
      )
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select([
        'tm.role as team_role',
        'tm.joined_at as team_joined_at',
        'm.user_id',
        'm.role',
        'm.joined_at',
        'm.last_seen_at',
        'm.disabled',
        'm.sso',
        'u.email',
        'u.display_name',
        'u.photo_url',
      ])
      .where('tm.team_id', '=', teamId);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'tm.joined_at', dir: 'asc', value: (r) => r.team_joined_at },
        { ref: 'tm.user_id', dir: 'asc', value: (r) => r.user_id },
      ],
      page,
      'team-members',
    );
    return {
      ...result,
      items: result.items.map((r) => ({
        teamRole: r.team_role,
        role: r.role,
        joined_at: r.joined_at,
        last_seen_at: r.last_seen_at,
        disabled: r.disabled,
        sso: r.sso,
        user: { id: r.user_id, email: r.email, display_name: r.display_name, photo_url: r.photo_url },
      })),
    };
  }

  async updateMembers(
    actor: Actor,
    orgId: string,
    teamId: string,
    input: UpdateTeamMembersBody,
  ): Promise<void> {
    await this.requireManage(actor, orgId, teamId);
    const changes: Array<[string, TeamRole]> = (input.add ?? []).map((userId) => [userId, 'member']);
    for (const [userId, membership] of Object.entries(input.memberships ?? {}))
      changes.push([userId, membership.role]);
    await this.deps.db.transaction().execute(async (tx) => {
      await this.setMembers(tx, orgId, teamId, changes, 'body.add');
      if (input.remove && input.remove.length > 0) {
        await tx
          .deleteFrom('team_members')
          .where('team_id', '=', teamId)
          .where('user_id', 'in', input.remove)
          .execute();
      }
    });
  }

  async addMember(
    actor: Actor,
    orgId: string,
    teamId: string,
    userId: string,
    role: TeamRole,
  ): Promise<void> {
    await this.requireManage(actor, orgId, teamId);
    await this.deps.db
      .transaction()
      .execute((tx) => this.setMembers(tx, orgId, teamId, [[userId, role]], 'userId'));
  }

  /** Team managers remove anyone; members may leave. */
  async removeMember(actor: Actor, orgId: string, teamId: string, userId: string): Promise<void> {
    if (userId !== actor.userId) await this.requireManage(actor, orgId, teamId);
    else await this.services.authz.org(actor, orgId, 'view');
    // Scoped to the organization of the path: leaving a team "through" another organization
    // the caller is in must not reach a team of this one (DELETE scope rule, SpaceService.delete).
    await this.deps.db
      .deleteFrom('team_members')
      .where('org_id', '=', orgId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** Adds or re-roles team members; every one must be a member of the organization. */
  private async setMembers(
    tx: Tx,
    orgId: string,
    teamId: string,
    changes: Array<[string, TeamRole]>,
    field: string,
  ): Promise<void> {
    if (changes.length === 0) return;
    const ids = [...new Set(changes.map(([userId]) => userId))];
    const members = await this.services.members.among(tx, orgId, ids);
    const stranger = ids.find((id) => !members.has(id));
    if (stranger) throw invalidField(field, `"${stranger}" is not a member of this organization`);
    const now = this.deps.clock.now().toISOString();
    for (const [userId, role] of changes) {
      await tx
        .insertInto('team_members')
        .values({ team_id: teamId, user_id: userId, org_id: orgId, role, joined_at: now })
        .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
        .execute();
    }
  }
}
