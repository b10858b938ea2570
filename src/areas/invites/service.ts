import type { Actor } from '../../auth/actor.js';
import type { OrgMembership } from '../../auth/authorize.js';
import type { MemberRole } from '../../auth/roles.js';
import type { Tx } from '../../db/database.js';
import { type Page, type PageRequest, paginate } from '../../db/keyset.js';
import type { LinkInvitesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Services } from '../../services.js';
import { normalizeEmail } from '../users/service.js';
import type { CreateInviteLinkBody, InviteUsersBody, UpdateInviteLinkBody } from './schemas.js';

/** Invite-link ids are the secret of the link, so they are long. */
const LINK_ID_LENGTH = 32;

export interface InviteOutcome {
  users: string[];
  invited: number;
}

export class InvitesService {
  constructor(
    private readonly deps: Deps,
    private readonly services: Services,
  ) {}

  /**
   * Existing accounts join at once; other addresses get a pending invitation that is accepted
   * when their account is created (first sign-in, or a token created for them).
   */
  async inviteByEmail(actor: Actor, orgId: string, input: InviteUsersBody): Promise<InviteOutcome> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    const org = await this.deps.db
      .selectFrom('organizations')
      .select('default_role')
      .where('id', '=', orgId)
      .executeTakeFirstOrThrow();
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
        const user = await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
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

  async listLinks(
    actor: Actor,
    orgId: string,
    page: PageRequest,
  ): Promise<{ page: Page<LinkInvitesTable>; caller: OrgMembership }> {
    const caller = await this.services.authz.org(actor, orgId, 'manageInvites');
    const query = this.deps.db.selectFrom('link_invites').selectAll().where('org_id', '=', orgId);
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
    return { page: result, caller };
  }

  async createLink(
    actor: Actor,
    orgId: string,
    input: CreateInviteLinkBody,
  ): Promise<{ row: LinkInvitesTable; caller: OrgMembership }> {
    const caller = await this.services.authz.org(actor, orgId, 'manageInvites');
    if (!('role' in input)) {
      const field = 'space' in input ? 'body.space' : 'body.collection';
      throw invalidField(field, 'does not name a space or collection of this organization');
    }
    await this.requireLinksEnabled(orgId);
    const row: LinkInvitesTable = {
      id: newId(LINK_ID_LENGTH),
      org_id: orgId,
      role: input.role,
      created_by: actor.userId,
      created_at: this.deps.clock.now().toISOString(),
    };
    await this.deps.db.insertInto('link_invites').values(row).execute();
    return { row, caller };
  }

  async getLink(
    actor: Actor,
    orgId: string,
    inviteId: string,
  ): Promise<{ row: LinkInvitesTable; caller: OrgMembership }> {
    const caller = await this.services.authz.org(actor, orgId, 'manageInvites');
    return { row: await this.readLink(orgId, inviteId), caller };
  }

  async updateLink(
    actor: Actor,
    orgId: string,
    inviteId: string,
    input: UpdateInviteLinkBody,
  ): Promise<{ row: LinkInvitesTable; caller: OrgMembership }> {
    const caller = await this.services.authz.org(actor, orgId, 'manageInvites');
    await this.readLink(orgId, inviteId);
    const role = 'role' in input ? input.role : input.level;
    await this.deps.db
      .updateTable('link_invites')
      .set({ role })
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .execute();
    return { row: await this.readLink(orgId, inviteId), caller };
  }

  async deleteLink(actor: Actor, orgId: string, inviteId: string): Promise<void> {
    await this.services.authz.org(actor, orgId, 'manageInvites');
    await this.deps.db
      .deleteFrom('link_invites')
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .execute();
  }

  /** Anyone holding the link joins with its role (or keeps a higher role they already have). */
  async joinWithLink(actor: Actor, orgId: string, inviteId: string): Promise<void> {
    const link = await this.deps.db
      .selectFrom('link_invites')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
    if (!link) throw notFound('This invite link does not exist or has been deleted');
    await this.requireLinksEnabled(orgId);
    await this.deps.db.transaction().execute(async (tx) => {
      await this.services.members.add(tx, orgId, actor.userId, link.role, { keepHigher: true });
    });
  }

  private async readLink(orgId: string, inviteId: string): Promise<LinkInvitesTable> {
    const row = await this.deps.db
      .selectFrom('link_invites')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', inviteId)
      .executeTakeFirst();
    if (!row) throw notFound(`Invite link "${inviteId}" not found`);
    return row;
  }

  private async requireLinksEnabled(orgId: string): Promise<void> {
    const org = await this.deps.db
      .selectFrom('organizations')
      .select('invite_links')
      .where('id', '=', orgId)
      .executeTakeFirst();
    if (!org) throw notFound(`Organization "${orgId}" not found`);
    if (org.invite_links !== 1) {
      throw forbidden(
        'Invite links are disabled in this organization; an admin can enable them (inviteLinks: true)',
      );
    }
  }
}
