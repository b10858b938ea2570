import { type SelectQueryBuilder, sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import { type MemberRole, roleRank } from '../../auth/roles.js';
import type { Db, Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate, type SortKey } from '../../db/keyset.js';
import { lockOrganization } from '../../db/locks.js';
import type { Tables } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import { INTEGRATION_EMAIL_DOMAIN } from '../users/integration-users.js';
import type { MemberCounts, MemberRow } from './present.js';
import type { ListMembersQuery } from './schemas.js';

/** A membership and its user, as every member read selects them. */
const MEMBER_COLUMNS = [
  'm.user_id',
  'm.role',
  'm.joined_at',
  'm.last_seen_at',
  'm.disabled',
  'm.sso',
  'u.email',
  'u.display_name',
  'u.photo_url',
] as const;

export interface AddOptions {
  /** When already a member, keep their current role if it is higher than `role`. */
  keepHigher?: boolean;
}

/**
 * What other areas keep about a member, asked through them rather than read from their tables.
 * The teams and permissions areas build on members, so members names them only by this shape.
 */
export interface MemberTies {
  /** How many teams of the organization each user is in (users without any are absent). */
  teamCounts(orgId: string, userIds: string[]): Promise<Map<string, number>>;
  /** How many spaces of the organization each user holds a grant on (users without any are absent). */
  spaceGrantCounts(orgId: string, userIds: string[]): Promise<Map<string, number>>;
  /** Ends what membership gave (team memberships, then grants), inside the removal's transaction. */
  leave(tx: Tx, orgId: string, userId: string): Promise<void>;
}

/** The services members call. */
export interface MembersNeeds {
  authz: Pick<Authorizer, 'org' | 'membership'>;
  ties: MemberTies;
}

export class MembersService {
  constructor(
    private readonly deps: Deps,
    private readonly services: MembersNeeds,
  ) {}

  /** The organization role of a user (null: guest), or undefined when not a member at all. */
  async roleOf(
    db: Db | Tx,
    orgId: string,
    userId: string,
  ): Promise<{ role: MemberRole | null; disabled: number } | undefined> {
    return db
      .selectFrom('members')
      .select(['role', 'disabled'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The users among `userIds` who are members (or guests) of the organization. */
  async among(db: Db | Tx, orgId: string, userIds: string[]): Promise<Set<string>> {
    const rows = await db
      .selectFrom('members')
      .select('user_id')
      .where('org_id', '=', orgId)
      .where('user_id', 'in', userIds)
      .execute();
    return new Set(rows.map((r) => r.user_id));
  }

  /** Display names of the users among `userIds` who are members (or guests) of the organization. */
  async namesAmong(orgId: string, userIds: string[]): Promise<Map<string, string>> {
    const rows = await this.deps.db
      .selectFrom('users')
      .innerJoin('members', 'members.user_id', 'users.id')
      .select(['users.id', 'users.display_name'])
      .where('members.org_id', '=', orgId)
      .where('users.id', 'in', userIds)
      .execute();
    return new Map(rows.map((row) => [row.id, row.display_name]));
  }

  /** Whether two users share at least one organization. */
  async shareOrganization(userId: string, otherId: string): Promise<boolean> {
    const shared = await this.deps.db
      .selectFrom('members as mine')
      .innerJoin('members as theirs', 'theirs.org_id', 'mine.org_id')
      .select('mine.org_id')
      .where('mine.user_id', '=', userId)
      .where('theirs.user_id', '=', otherId)
      .limit(1)
      .executeTakeFirst();
    return shared !== undefined;
  }

  /** Adds (or re-roles) a member inside the caller's transaction. */
  async add(
    tx: Tx,
    orgId: string,
    userId: string,
    role: MemberRole | null,
    options: AddOptions = {},
  ): Promise<void> {
    const current = await tx
      .selectFrom('members')
      .select(['role'])
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!current) {
      await tx
        .insertInto('members')
        .values({
          org_id: orgId,
          user_id: userId,
          role,
          joined_at: this.deps.clock.now().toISOString(),
          last_seen_at: null,
          disabled: 0,
          sso: 0,
        })
        .execute();
      return;
    }
    if (options.keepHigher && roleRank(current.role) >= roleRank(role)) return;
    await tx
      .updateTable('members')
      .set({ role })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** How many organizations the user is a member (or guest) of. */
  async organizationCount(db: Db | Tx, userId: string): Promise<number> {
    const row = await db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Marks a member as signing in through the organization's single sign-on. */
  async markSso(tx: Tx, orgId: string, userId: string): Promise<void> {
    await tx
      .updateTable('members')
      .set({ sso: 1 })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }

  async list(actor: Actor, orgId: string, query: ListMembersQuery): Promise<Page<MemberRow>> {
    await this.services.authz.org(actor, orgId, 'listMembers');
    let q = this.deps.db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(MEMBER_COLUMNS)
      .select(sql<string>`lower(u.display_name)`.as('sort_name'))
      .select(sql<string>`coalesce(m.last_seen_at, '')`.as('sort_seen'))
      .where('m.org_id', '=', orgId)
      .where('u.email', 'not like', `%@${INTEGRATION_EMAIL_DOMAIN}`);
    if (query.role === 'guest') q = q.where('m.role', 'is', null);
    else if (query.role) q = q.where('m.role', '=', query.role);
    if (query.search) {
      const pattern = `%${query.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(u.display_name)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(u.email)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    const sort = query.sort ?? 'joinedAt';
    const dir = query.order ?? 'desc';
    type Row = Awaited<ReturnType<typeof q.execute>>[number];
    const primary: SortKey<Row> =
      sort === 'name'
        ? { ref: sql`lower(u.display_name)`, dir, value: (r) => r.sort_name }
        : sort === 'lastSeenAt'
          ? { ref: sql`coalesce(m.last_seen_at, '')`, dir, value: (r) => r.sort_seen }
          : { ref: 'm.joined_at', dir, value: (r) => r.joined_at };
    const page = await paginate(
      this.deps.db,
      q,
      [primary, { ref: 'm.user_id', dir, value: (r) => r.user_id }],
      query,
      `members:${sort}:${dir}`,
    );
    return { ...page, items: page.items.map(toMemberRow) };
  }

  /**
   * The members of the organization among the users `userIds` selects (a subquery: commenters,
   * contributors), by name. The caller has already checked what it may see.
   */
  async listAmong(
    orgId: string,
    userIds: SelectQueryBuilder<Tables, keyof Tables, { user_id: string }>,
    request: PageRequest,
    signature: string,
  ): Promise<Page<MemberRow>> {
    const q = this.deps.db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(MEMBER_COLUMNS)
      .select(sql<string>`lower(u.display_name)`.as('sort_name'))
      .where('m.org_id', '=', orgId)
      .where('m.user_id', 'in', userIds);
    const page = await paginate(
      this.deps.db,
      q,
      [
        { ref: sql`lower(u.display_name)`, dir: 'asc', value: (r) => r.sort_name },
        { ref: 'm.user_id', dir: 'asc', value: (r) => r.user_id },
      ],
      request,
      signature,
    );
    return { ...page, items: page.items.map(toMemberRow) };
  }

  /** How many teams and spaces each member reaches through their own memberships and grants. */
  async counts(orgId: string, userIds: string[]): Promise<Map<string, MemberCounts>> {
    const counts = new Map(userIds.map((id) => [id, { spaces: 0, teams: 0, sites: 0 }]));
    if (userIds.length === 0) return counts;
    for (const [userId, n] of await this.services.ties.teamCounts(orgId, userIds))
      counts.get(userId)!.teams = n;
    for (const [userId, n] of await this.services.ties.spaceGrantCounts(orgId, userIds))
      counts.get(userId)!.spaces = n;
    return counts;
  }

  async get(actor: Actor, orgId: string, userId: string): Promise<MemberRow> {
    await this.services.authz.org(actor, orgId, 'listMembers');
    return this.read(orgId, userId);
  }

  async updateRole(actor: Actor, orgId: string, userId: string, role: MemberRole | null): Promise<MemberRow> {
    await this.services.authz.org(actor, orgId, 'manageMembers');
    await this.deps.db.transaction().execute(async (tx) => {
      await lockOrganization(tx, this.deps.dialect, orgId);
      const current = await this.readIn(tx, orgId, userId);
      if (current.role === 'admin' && role !== 'admin')
        await this.ensureAnotherAdmin(tx, orgId, userId, 'demote');
      await tx
        .updateTable('members')
        .set({ role })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
    });
    return this.read(orgId, userId);
  }

  /** Admins remove anyone; any member may leave. Answers whether a membership was removed. */
  async remove(actor: Actor, orgId: string, userId: string): Promise<boolean> {
    const membership = await this.services.authz.membership(actor, orgId);
    if (!membership) throw notFound(`Organization "${orgId}" not found`);
    if (userId !== actor.userId && membership.role !== 'admin') {
      throw forbidden('Only admins can remove other members; members can only remove themselves');
    }
    return this.deps.db.transaction().execute(async (tx) => {
      await lockOrganization(tx, this.deps.dialect, orgId);
      const current = await this.roleOf(tx, orgId, userId);
      if (!current) return false;
      if (current.role === 'admin') await this.ensureAnotherAdmin(tx, orgId, userId, 'remove');
      await tx.deleteFrom('members').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
      // Leaving an organization ends what it gave: team memberships and grants there.
      await this.services.ties.leave(tx, orgId, userId);
      return true;
    });
  }

  private async ensureAnotherAdmin(tx: Tx, orgId: string, userId: string, verb: string): Promise<void> {
    const other = await tx
      .selectFrom('members')
      .select('user_id')
      .where('org_id', '=', orgId)
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .where('user_id', '!=', userId)
      .limit(1)
      .executeTakeFirst();
    if (!other) {
      throw conflict(`Cannot ${verb} the last admin of the organization; make another member admin first`);
    }
  }

  private read(orgId: string, userId: string): Promise<MemberRow> {
    return this.readIn(this.deps.db, orgId, userId);
  }

  private async readIn(db: Tx | Deps['db'], orgId: string, userId: string): Promise<MemberRow> {
    const row = await db
      .selectFrom('members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(MEMBER_COLUMNS)
      .where('m.org_id', '=', orgId)
      .where('m.user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound(`User "${userId}" is not a member of this organization`);
    return toMemberRow(row);
  }
}

interface JoinedMember {
  user_id: string;
  role: MemberRole | null;
  joined_at: string;
  last_seen_at: string | null;
  disabled: 0 | 1;
  sso: 0 | 1;
  email: string;
  display_name: string;
  photo_url: string | null;
}

function toMemberRow(r: JoinedMember): MemberRow {
  return {
    role: r.role,
    joined_at: r.joined_at,
    last_seen_at: r.last_seen_at,
    disabled: r.disabled,
    sso: r.sso,
    user: { id: r.user_id, email: r.email, display_name: r.display_name, photo_url: r.photo_url },
  };
}
