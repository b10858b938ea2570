import { prepared } from '../db/prepared.js';
import type { Deps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import { Throttle } from '../throttle.js';
import type { Actor } from './actor.js';
import { ORG_RULES, type OrgAction, orgAllows } from './org-policy.js';
import type { MemberRole } from './roles.js';

export interface OrgMembership {
  orgId: string;
  /** Null for guests. */
  role: MemberRole | null;
}

const SEEN_INTERVAL_MS = 60_000;

/**
 * The one permission check. Every route asks it before doing anything: an organization the
 * caller does not belong to is a 404 (its existence is not revealed), a role too low is a 403.
 */
export class Authorizer {
  /** `lastSeenAt` is written at most once a minute per membership. */
  private readonly seen: Throttle;
  private readonly memberRole;

  constructor(private readonly deps: Deps) {
    this.seen = new Throttle(deps.clock, SEEN_INTERVAL_MS);
    this.memberRole = prepared(
      deps.db,
      (p: { orgId: string; userId: string }) =>
        deps.db
          .selectFrom('members')
          .select(['role'])
          .where('org_id', '=', p.orgId)
          .where('user_id', '=', p.userId)
          .where('disabled', '=', 0),
      deps.database.cache,
    );
  }

  async membership(actor: Actor, orgId: string): Promise<OrgMembership | undefined> {
    const row = await this.memberRole.first({ orgId, userId: actor.userId });
    if (!row) return undefined;
    await this.markSeen(actor.userId, orgId);
    return { orgId, role: row.role };
  }

  async org(actor: Actor, orgId: string, action: OrgAction): Promise<OrgMembership> {
    const membership = await this.membership(actor, orgId);
    return this.requireOrg(membership, orgId, action);
  }

  /** The same decision for a membership already read (e.g. joined onto the organization row). */
  requireOrg(membership: OrgMembership | undefined, orgId: string, action: OrgAction): OrgMembership {
    if (!membership) throw notFound(`Organization "${orgId}" not found`);
    if (!orgAllows(membership.role, action)) {
      const needed = ORG_RULES[action];
      throw forbidden(
        `Your role in this organization (${membership.role ?? 'guest'}) does not allow this; it needs the ${needed} role`,
      );
    }
    return membership;
  }

  async markSeen(userId: string, orgId: string): Promise<void> {
    const now = this.seen.due(`${orgId}:${userId}`);
    if (!now) return;
    await this.deps.db
      .updateTable('members')
      .set({ last_seen_at: now.toISOString() })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }
}
