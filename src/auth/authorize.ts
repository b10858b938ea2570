import { prepared } from '../db/prepared.js';
import type { CollectionsTable, SpacesTable } from '../db/tables.js';
import type { Deps } from '../deps.js';
import { forbidden, notFound } from '../errors.js';
import { Throttle } from '../throttle.js';
import { AccessScope } from './access-scope.js';
import type { Actor } from './actor.js';
import { CONTENT_RULES, type ContentAction, contentAllows, resolveRole } from './content-policy.js';
import { chainWithGrants, grantsOf } from './content-queries.js';
import { ORG_RULES, type OrgAction, orgAllows } from './org-policy.js';
import type { MemberRole } from './roles.js';
import { requireSignInMethod } from './sign-in-policy.js';

export interface OrgMembership {
  orgId: string;
  /** Null for guests. */
  role: MemberRole | null;
}

export interface SpaceAccess {
  space: SpacesTable;
  role: MemberRole;
  orgRole: MemberRole | null;
}

export interface CollectionAccess {
  collection: CollectionsTable;
  role: MemberRole;
  orgRole: MemberRole | null;
}

export interface SpaceLookup {
  /** Deleted spaces and collections answer 404 unless asked for (restore, a repeated DELETE). */
  deleted?: boolean;
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
  private readonly spaceById;
  private readonly collectionById;

  constructor(private readonly deps: Deps) {
    this.spaceById = prepared(
      deps.db,
      (p: { id: string }) => deps.db.selectFrom('spaces').selectAll().where('id', '=', p.id),
      deps.database.cache,
    );
    this.collectionById = prepared(
      deps.db,
      (p: { id: string }) => deps.db.selectFrom('collections').selectAll().where('id', '=', p.id),
      deps.database.cache,
    );
    this.seen = new Throttle(deps.clock, SEEN_INTERVAL_MS);
    this.memberRole = prepared(
      deps.db,
      (p: { orgId: string; userId: string }) =>
        deps.db
          .selectFrom('members as m')
          .innerJoin('organizations as o', 'o.id', 'm.org_id')
          .select(['m.role', 'm.sso as member_sso', 'o.sso as org_sso', 'o.title as org_title'])
          .where('m.org_id', '=', p.orgId)
          .where('m.user_id', '=', p.userId)
          .where('m.disabled', '=', 0),
      deps.database.cache,
    );
  }

  async membership(actor: Actor, orgId: string): Promise<OrgMembership | undefined> {
    const row = await this.memberRole.first({ orgId, userId: actor.userId });
    if (!row) return undefined;
    requireSignInMethod(actor, {
      orgId,
      orgTitle: row.org_title,
      orgSso: row.org_sso,
      memberSso: row.member_sso,
    });
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

  /**
   * May `actor` do `action` on the space? Answers its access, 404 when the caller cannot see it
   * at all (other organization, no role, deleted), 403 when they see it but the role is too low
   * or the space is locked for content writes.
   */
  async space(
    actor: Actor,
    spaceId: string,
    action: ContentAction,
    lookup: SpaceLookup = {},
  ): Promise<SpaceAccess> {
    const space = await this.spaceById.first({ id: spaceId });
    const missing = () => notFound(`Space "${spaceId}" not found`);
    if (!space || (space.deleted_at !== null && !lookup.deleted)) throw missing();
    const membership = await this.membership(actor, space.org_id);
    if (!membership) throw missing();
    const role = await this.spaceRole(actor, space, membership.role);
    if (!role) throw missing();
    this.requireContent(role, action, space.edit_mode === 'locked', 'space');
    return { space, role, orgRole: membership.role };
  }

  async collection(
    actor: Actor,
    collectionId: string,
    action: ContentAction,
    lookup: SpaceLookup = {},
  ): Promise<CollectionAccess> {
    const collection = await this.collectionById.first({ id: collectionId });
    const missing = () => notFound(`Collection "${collectionId}" not found`);
    if (!collection || (collection.deleted_at !== null && !lookup.deleted)) throw missing();
    const membership = await this.membership(actor, collection.org_id);
    if (!membership) throw missing();
    const { chain, grants } = await chainWithGrants(
      this.deps.db,
      { table: 'collections', id: collection.id },
      actor.userId,
      collection.org_id,
    );
    const role = resolveRole(membership.role, chain, grants);
    if (!role) throw missing();
    this.requireContent(role, action, false, 'collection');
    return { collection, role, orgRole: membership.role };
  }

  /** The caller's role on a space row already read (null: no access). */
  async spaceRole(
    actor: Actor,
    space: SpacesTable,
    orgRole: MemberRole | null | undefined,
  ): Promise<MemberRole | null> {
    if (orgRole === undefined) return null;
    if (orgRole === 'admin') return 'admin';
    const { chain, grants } = await chainWithGrants(
      this.deps.db,
      { table: 'spaces', id: space.id },
      actor.userId,
      space.org_id,
    );
    return resolveRole(orgRole, chain, grants);
  }

  /** The caller's access to all of an organization's content, for lists; 404 for non-members. */
  async scope(actor: Actor, orgId: string): Promise<AccessScope> {
    const membership = await this.org(actor, orgId, 'view');
    const collections = await this.deps.db
      .selectFrom('collections')
      .select(['id', 'parent_id', 'default_level'])
      .where('org_id', '=', orgId)
      .where('deleted_at', 'is', null)
      .execute();
    const grants =
      membership.role === 'admin' ? new Map() : await grantsOf(this.deps.db, actor.userId, orgId);
    return new AccessScope(membership.role, collections, grants);
  }

  private requireContent(role: MemberRole, action: ContentAction, locked: boolean, kind: string): void {
    if (contentAllows(role, action, locked)) return;
    if (locked && contentAllows(role, action)) {
      throw forbidden(`This ${kind} is locked (editMode: locked); unlock it before changing its content`);
    }
    throw forbidden(
      `Your role on this ${kind} (${role}) does not allow this; it needs the ${CONTENT_RULES[action]} role`,
    );
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
