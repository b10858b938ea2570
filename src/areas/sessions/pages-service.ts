import type { Actor } from '../../auth/actor.js';
import { SignInRequired } from '../../auth/sign-in-policy.js';
import { tokenExpiry } from '../../auth/token-lifetime.js';
import type { IssuedToken, TokenInfo, TokenService } from '../../auth/token-service.js';
import type { Clock } from '../../clock.js';
import type { Page, PageRequest } from '../../db/keyset.js';
import type { SpacesTable } from '../../db/tables.js';
import { ApiError } from '../../errors.js';
import type { OrgView } from '../orgs/present.js';
import type { SpaceView } from '../spaces/present.js';

/** One way to sign in to an organization, as its login page lists it. */
export interface LoginProvider {
  id: string;
  label: string;
  /** Where the browser goes to start signing in (a same-server URL). */
  startURL: string;
}

export interface AppPagesNeeds {
  clock: Clock;
  tokens: Pick<TokenService, 'create' | 'list' | 'revokeOwn'>;
  orgs: { listForActor(actor: Actor, page: PageRequest): Promise<Page<OrgView>> };
  spaces: {
    listInOrg(actor: Actor, orgId: string, page: PageRequest): Promise<Page<SpaceView>>;
    view(actor: Actor, spaceId: string): Promise<SpaceView>;
  };
  /** The published sites showing each space (the sites area's `siteSpaces.publishedOf`). */
  publishedOf(spaceIds: string[]): Promise<Map<string, Array<{ title: string; url: string }>>>;
  /**
   * The sign-in providers of an organization for its login page. The SSO area fills this in
   * (`GET {O}/sso` answers the same list); until it does, no organization has any.
   */
  loginProviders(orgId: string): Promise<LoginProvider[]>;
}

/** How many organizations, and spaces per organization, the landing page lists. */
const LANDING_LIMIT = 100;

export interface LandingOrg {
  id: string;
  title: string;
  role: string | null | undefined;
  spaces: Array<{
    id: string;
    title: string;
    emoji: string | null;
    published: Array<{ title: string; url: string }>;
  }>;
  /** Spaces not listed because of the limit. */
  moreSpaces: number;
  /** The organization lets this person in only through its identity provider, not this session. */
  signInRequired: boolean;
}

export interface Landing {
  orgs: LandingOrg[];
  moreOrgs: number;
}

/**
 * What the signed-in pages (src/areas/sessions/routes.ts) show and do. The pages act as the
 * person through the same services as the API, so they see exactly what the API would show
 * them, and every rule (space visibility, roles) applies unchanged.
 */
export class AppPagesService {
  constructor(private readonly needs: AppPagesNeeds) {}

  async landing(actor: Actor): Promise<Landing> {
    const orgs = await this.needs.orgs.listForActor(actor, { limit: LANDING_LIMIT });
    const listed = await Promise.all(
      orgs.items.map(async (org) => {
        try {
          const spaces = await this.needs.spaces.listInOrg(actor, org.row.id, { limit: LANDING_LIMIT });
          return { org, spaces, signInRequired: false };
        } catch (error) {
          if (!(error instanceof SignInRequired)) throw error;
          return { org, spaces: { items: [], count: 0 }, signInRequired: true };
        }
      }),
    );
    const published = await this.needs.publishedOf(
      listed.flatMap((l) => l.spaces.items.map((s) => s.row.id)),
    );
    return {
      moreOrgs: Math.max(0, orgs.count - orgs.items.length),
      orgs: listed.map(({ org, spaces, signInRequired }) => ({
        id: org.row.id,
        title: org.row.title,
        role: org.role,
        signInRequired,
        moreSpaces: Math.max(0, spaces.count - spaces.items.length),
        spaces: spaces.items.map(({ row }) => ({
          id: row.id,
          title: row.title,
          emoji: row.emoji,
          published: published.get(row.id) ?? [],
        })),
      })),
    };
  }

  /** The person's tokens, newest first, revoked ones included (so they see what they revoked). */
  async tokens(actor: Actor): Promise<TokenInfo[]> {
    return (await this.needs.tokens.list(actor.userId)).reverse();
  }

  /** A new personal token living `days` (null: until revoked). */
  createToken(actor: Actor, label: string | null, days: number | null): Promise<IssuedToken> {
    return this.needs.tokens.create(
      actor.userId,
      label,
      undefined,
      tokenExpiry(this.needs.clock.now(), days),
    );
  }

  revokeToken(actor: Actor, tokenId: string): Promise<void> {
    return this.needs.tokens.revokeOwn(actor.userId, tokenId);
  }

  /**
   * A space the person may read, for its preview; undefined when they may not (or it does not
   * exist): the page then says so without telling which. Throws SignInRequired when the
   * space's organization wants this person signed in through its identity provider.
   */
  async readableSpace(actor: Actor, spaceId: string): Promise<SpacesTable | undefined> {
    try {
      const { row, role } = await this.needs.spaces.view(actor, spaceId);
      return role ? row : undefined;
    } catch (error) {
      // The organization's own sign-in opens it: the page sends the person there.
      if (error instanceof SignInRequired) throw error;
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return undefined;
      throw error;
    }
  }

  loginProviders(orgId: string): Promise<LoginProvider[]> {
    return this.needs.loginProviders(orgId);
  }
}
