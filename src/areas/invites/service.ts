import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { MemberRole } from '../../auth/roles.js';
import type { Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { LinkInvitesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { ApiError, forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { CollectionsService } from '../collections/service.js';
import type { MembersService } from '../members/service.js';
import type { OrgsService } from '../orgs/service.js';
import type { GrantsService } from '../permissions/service.js';
import type { SpacesService } from '../spaces/service.js';
import { normalizeEmail, type UsersService } from '../users/service.js';
import type { InviteContext } from './present.js';
import type { CreateInviteLinkBody, InviteUsersBody, UpdateInviteLinkBody } from './schemas.js';

/** Invite-link ids are the secret of the link, so they are long. */
const LINK_ID_LENGTH = 32;

export interface LinkResult {
  row: LinkInvitesTable;
  context: InviteContext;
}

export interface LinkPage {
  page: Page<LinkInvitesTable>;
  context: InviteContext;
}

export interface InviteOutcome {
  users: string[];
  invited: number;
}

/** The services invites call. */
export interface InvitesNeeds {
  authz: Pick<Authorizer, 'org' | 'space' | 'collection' | 'scope'>;
  orgs: Pick<OrgsService, 'findRow' | 'requireRow'>;
  users: Pick<UsersService, 'findByEmail'>;
  members: Pick<MembersService, 'add'>;
  grants: Pick<GrantsService, 'grantAtLeast'>;
  spaces: Pick<SpacesService, 'liveByIds' | 'isLive'>;
  collections: Pick<CollectionsService, 'liveByIds' | 'isLive'>;
}

export class InvitesService {
  constructor(
    private readonly deps: Deps,
    private readonly services: InvitesNeeds,
  ) {}

  /**
   * Existing accounts join at once; other addresses get a pending invitation that is accepted
   * when their account is created (first sign-in, or a token created for them).
   */
  async inviteByEmail(actor: Actor, orgId: string, input: InviteUsersBody): Promise<InviteOutcome> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    const org = await this.services.orgs.requireRow(orgId);
    const wanted = new Map<string, MemberRole | null>();
    input.emails.forEach((entry, i) => {
      const raw = typeof entry === 'string' ? entry : entry.email;
      let email: string;
      try {
        email = normalizeEmail(raw);
      } catch {
        throw invalidField(`body.emails.${i}`, `"${raw}" is not an email address`);
      }
      const role =
        typeof entry === 'string' ? (input.role !== undefined ? input.role : org.default_role) : entry.role;
      wanted.set(email, role);
    });

    return this.deps.db.transaction().execute(async (tx) => {
      const outcome: InviteOutcome = { users: [], invited: 0 };
      const now = this.deps.clock.now().toISOString();
      for (const [email, role] of wanted) {
        const user = await this.services.users.findByEmail(email, tx);
        if (user) {
          await this.services.members.add(tx, orgId, user.id, role, { keepHigher: true });
          outcome.users.push(user.id);
          continue;
        }
        await tx.deleteFrom('email_invites').where('org_id', '=', orgId).where('email', '=', email).execute();
        await tx
          .insertInto('email_invites')
          .values({ id: newId(), org_id: orgId, email, role, invited_by: actor.userId, created_at: now })
          .execute();
        outcome.invited++;
      }
      return outcome;
    });
  }

  /** Accepts every pending email invitation of a new account, inside its creation. */
  async acceptPendingFor(tx: Tx, userId: string, email: string): Promise<void> {
    const pending = await tx
      .selectFrom('email_invites')
      .select(['org_id', 'role'])
      .where('email', '=', email)
      .execute();
    for (const invite of pending) {
      await this.services.members.add(tx, invite.org_id, userId, invite.role, { keepHigher: true });
    }
    if (pending.length > 0) await tx.deleteFrom('email_invites').where('email', '=', email).execute();
  }

  async listLinks(actor: Actor, orgId: string, page: PageRequest): Promise<LinkPage> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    // The official list holds links to the organization; links to one space or collection are
    // read by id.
    const query = this.deps.db
      .selectFrom('link_invites')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('target_type', 'is', null);
    const result = await paginate(
      this.deps.db,
      query,
      [
        { ref: 'created_at', dir: 'asc', value: (r) => r.created_at },
        { ref: 'id', dir: 'asc', value: (r) => r.id },
      ],
      page,
      'link-invites',
    );
    return { page: result, context: await this.context(actor, orgId, result.items) };
  }

  async createLink(actor: Actor, orgId: string, input: CreateInviteLinkBody): Promise<LinkResult> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    await this.requireLinksEnabled(orgId);
    const row: LinkInvitesTable = {
      id: newId(LINK_ID_LENGTH),
      org_id: orgId,
      role: null,
      level: null,
      target_type: null,
      target_id: null,
      created_by: actor.userId,
      created_at: this.deps.clock.now().toISOString(),
    };
    if ('role' in input) {
      row.role = input.role;
    } else {
      const type = 'space' in input ? 'space' : 'collection';
      const targetId = 'space' in input ? input.space : input.collection;
      await this.requireTarget(actor, orgId, type, targetId, `body.${type}`);
      if (input.level === null) throw invalidField('body.level', `must be a role for an invite to a ${type}`);
      Object.assign(row, { level: input.level, target_type: type, target_id: targetId });
    }
    await this.deps.db.insertInto('link_invites').values(row).execute();
    return { row, context: await this.context(actor, orgId, [row]) };
  }

  async getLink(actor: Actor, orgId: string, inviteId: string): Promise<LinkResult> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    const row = await this.readLink(orgId, inviteId);
    return { row, context: await this.context(actor, orgId, [row]) };
  }

  async updateLink(
    actor: Actor,
    orgId: string,
    inviteId: string,
    input: UpdateInviteLinkBody,
  ): Promise<LinkResult> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    const current = await this.readLink(orgId, inviteId);
    if (current.target_type === null && !('role' in input)) {
      throw invalidField('body.role', 'is required for an invite to the organization');
    }
    if (current.target_type !== null && !('level' in input)) {
      throw invalidField('body.level', `is required for an invite to a ${current.target_type}`);
    }
    const patch = 'role' in input ? { role: input.role } : { level: input.level };
    if ('level' in input && input.level === null) throw invalidField('body.level', 'must be a role');
    await this.deps.db
      .updateTable('link_invites')
      .set(patch)
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .execute();
    const row = await this.readLink(orgId, inviteId);
    return { row, context: await this.context(actor, orgId, [row]) };
  }

  async deleteLink(actor: Actor, orgId: string, inviteId: string): Promise<void> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    await this.deps.db
      .deleteFrom('link_invites')
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .execute();
  }

  /**
   * Anyone holding the link joins with its role (keeping a higher one they already have); a link
   * to a space or collection makes them a guest if they were not a member, with its level there.
   */
  async joinWithLink(actor: Actor, orgId: string, inviteId: string): Promise<void> {
    const link = await this.readLink(orgId, inviteId);
    await this.requireLinksEnabled(orgId);
    await this.deps.db.transaction().execute(async (tx) => {
      await this.services.members.add(tx, orgId, actor.userId, link.role, { keepHigher: true });
      if (link.target_type && link.target_id && link.level) {
        await this.services.grants.grantAtLeast(
          tx,
          orgId,
          link.target_type,
          link.target_id,
          actor.userId,
          link.level,
        );
      }
    });
  }

  /** The space or collection a link leads to must be a live one of this organization. */
  private async requireTarget(
    actor: Actor,
    orgId: string,
    type: 'space' | 'collection',
    id: string,
    field: string,
  ) {
    const notHere = () => invalidField(field, `"${id}" is not a ${type} of this organization`);
    try {
      const access =
        type === 'space'
          ? (await this.services.authz.space(actor, id, 'view')).space
          : (await this.services.authz.collection(actor, id, 'view')).collection;
      if (access.org_id !== orgId) throw notHere();
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw notHere();
      throw error;
    }
  }

  /** The caller's views of the spaces and collections some links lead to. */
  private async context(actor: Actor, orgId: string, rows: LinkInvitesTable[]): Promise<InviteContext> {
    const scope = await this.services.authz.scope(actor, orgId);
    const ids = (type: string) => rows.filter((r) => r.target_type === type).map((r) => r.target_id!);
    const spaceIds = ids('space');
    const collectionIds = ids('collection');
    const spaces = await this.services.spaces.liveByIds(spaceIds);
    const collections = await this.services.collections.liveByIds(collectionIds);
    return {
      callerOrgRole: scope.orgRole,
      spaces: new Map(spaces.map((row) => [row.id, { row, role: scope.spaceRole(row) }])),
      collections: new Map(collections.map((row) => [row.id, { row, role: scope.collectionRole(row.id) }])),
    };
  }

  private async readLink(orgId: string, inviteId: string): Promise<LinkInvitesTable> {
    const row = await this.deps.db
      .selectFrom('link_invites')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
    if (!row) throw notFound(`Invite link "${inviteId}" not found`);
    if (row.target_type && !(await this.targetLive(row.target_type, row.target_id!))) {
      throw notFound(`Invite link "${inviteId}" leads to a ${row.target_type} that no longer exists`);
    }
    return row;
  }

  private targetLive(type: 'space' | 'collection', id: string): Promise<boolean> {
    return type === 'space' ? this.services.spaces.isLive(id) : this.services.collections.isLive(id);
  }

  private async requireLinksEnabled(orgId: string): Promise<void> {
    const org = await this.services.orgs.findRow(orgId);
    if (!org) throw notFound(`Organization "${orgId}" not found`);
    if (org.invite_links !== 1) {
      throw forbidden(
        'Invite links are disabled in this organization; an admin can enable them (inviteLinks: true)',
      );
    }
  }
}
