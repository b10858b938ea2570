import type { DefaultLevelColumn } from '../db/tables.js';
import { type ContentNode, resolveRole } from './content-policy.js';
import type { MemberRole } from './roles.js';

export interface CollectionNode {
  id: string;
  parent_id: string | null;
  default_level: DefaultLevelColumn;
}

export interface SpaceNode {
  id: string;
  parent_id: string | null;
  default_level: DefaultLevelColumn;
}

/** Which spaces a caller sees, as sets a query can test (see AccessScope.spaceVisibility). */
export interface SpaceVisibility {
  /** Every space is visible (organization admins). */
  all: boolean;
  /** Spaces granted to the caller directly. */
  spaces: string[];
  /** Parents under which spaces of each default-level class are visible ('root' for no parent). */
  inherit: string[];
  explicit: string[];
  none: string[];
  rootInherit: boolean;
  rootExplicit: boolean;
  rootNone: boolean;
}

/** What an organization admin sees: every space. */
export const EVERY_SPACE: SpaceVisibility = {
  all: true,
  spaces: [],
  inherit: [],
  explicit: [],
  none: [],
  rootInherit: false,
  rootExplicit: false,
  rootNone: false,
};

/**
 * A caller's access to all the content of one organization, computed once from its collections
 * and the caller's grants, for lists: every role here comes from the same `resolveRole` that
 * decides single items, so a list shows exactly what a get would allow.
 */
export class AccessScope {
  private readonly collections = new Map<string, CollectionNode>();
  private readonly chains = new Map<string, ContentNode[]>();
  private readonly collectionRoles = new Map<string, MemberRole | null>();

  constructor(
    readonly orgRole: MemberRole | null,
    collections: readonly CollectionNode[],
    private readonly grants: ReadonlyMap<string, MemberRole>,
  ) {
    for (const c of collections) this.collections.set(c.id, c);
    for (const c of collections)
      this.collectionRoles.set(c.id, resolveRole(orgRole, this.chain(c.id), grants));
  }

  /** The collection and its ancestors, nearest first. */
  chain(collectionId: string | null): ContentNode[] {
    if (collectionId === null) return [];
    const known = this.chains.get(collectionId);
    if (known) return known;
    const node = this.collections.get(collectionId);
    // A parent missing from the scope is deleted or elsewhere: nothing reaches through it.
    if (!node) return [];
    const chain = [{ id: node.id, defaultLevel: node.default_level }, ...this.chain(node.parent_id)];
    this.chains.set(collectionId, chain);
    return chain;
  }

  collectionRole(collectionId: string): MemberRole | null {
    return this.collectionRoles.get(collectionId) ?? null;
  }

  spaceRole(space: SpaceNode): MemberRole | null {
    return resolveRole(
      this.orgRole,
      [{ id: space.id, defaultLevel: space.default_level }, ...this.chain(space.parent_id)],
      this.grants,
    );
  }

  visibleCollectionIds(): string[] {
    return [...this.collectionRoles].filter(([, role]) => role !== null).map(([id]) => id);
  }

  /**
   * A space's role depends only on its own grant, its default-level class (inherit, a role, or
   * null) and its parent's chain; so visibility reduces to, per class, the parents under which
   * that class is visible.
   */
  spaceVisibility(): SpaceVisibility {
    const probe = (parent: string | null, level: DefaultLevelColumn) =>
      resolveRole(
        this.orgRole,
        [{ id: '\u0000probe', defaultLevel: level }, ...this.chain(parent)],
        this.grants,
      ) !== null;
    const parents = [...this.collections.keys()];
    return {
      all: this.orgRole === 'admin',
      spaces: [...this.grants.keys()].filter((id) => !this.collections.has(id)),
      inherit: parents.filter((p) => probe(p, 'inherit')),
      explicit: parents.filter((p) => probe(p, 'read')),
      none: parents.filter((p) => probe(p, null)),
      rootInherit: probe(null, 'inherit'),
      rootExplicit: probe(null, 'read'),
      rootNone: probe(null, null),
    };
  }
}
