import { sql } from 'kysely';
import type { TokenService } from '../../auth/token-service.js';
import type { Tx } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import type { MembersService } from '../members/service.js';
import { INTEGRATION_EMAIL_DOMAIN } from '../users/integration-users.js';
import type { UsersService } from '../users/service.js';

/** Installation tokens live this long... */
const TOKEN_MS = 60 * 60 * 1000;
/** ...and are handed out again while at least this long is left of them. */
const REUSE_MARGIN_MS = 15 * 60 * 1000;

/** Scopes that let an installation change something (its member role is `edit`, else `read`). */
const WRITE_SCOPES = new Set([
  'space:content:write',
  'space:metadata:write',
  'space:git:sync',
  'site:adaptive:write',
]);

const installationEmail = (id: string) => `installation-${id.toLowerCase()}@${INTEGRATION_EMAIL_DOMAIN}`;

/** Whether the caller is installation `id` itself (its script, with its installation token). */
export function isInstallationItself(
  actor: { email: string; scopes?: readonly string[] },
  id: string,
): boolean {
  return actor.scopes !== undefined && actor.email === installationEmail(id);
}

export interface IdentityNeeds {
  users: Pick<UsersService, 'findOrCreateIn'>;
  members: Pick<MembersService, 'roleOf' | 'add'>;
  tokens: Pick<TokenService, 'create'>;
}

/**
 * Who an integration's script is when it calls Quire's API. Each installation acts as a user of
 * its own, a member of the installation's organization only (so every other organization is a
 * 404 to it, by the rules that hold for everyone), through short-lived tokens carrying the
 * integration's scopes (so it reaches only what auth/installation-access.ts opens). The
 * integration itself gets a token of a user with no organization: the public operations only.
 * Tokens are kept in memory while they have time left, so events do not mint one each.
 */
export class InstallationIdentities {
  private readonly issued = new Map<string, { token: string; until: number }>();

  constructor(
    private readonly deps: Deps,
    private readonly needs: IdentityNeeds,
  ) {}

  async installationToken(
    installation: { id: string; org_id: string; integration_name: string },
    integration: { title: string; scopes: readonly string[] },
  ): Promise<string> {
    return this.reuse(`installation:${installation.id}:${integration.scopes.join(',')}`, async () => {
      const role = integration.scopes.some((s) => WRITE_SCOPES.has(s)) ? 'edit' : 'read';
      const userId = await this.deps.db.transaction().execute(async (tx) => {
        const { user } = await this.needs.users.findOrCreateIn(tx, {
          email: installationEmail(installation.id),
          displayName: integration.title,
        });
        const member = await this.needs.members.roleOf(tx, installation.org_id, user.id);
        if (member?.role !== role) await this.needs.members.add(tx, installation.org_id, user.id, role);
        return user.id;
      });
      return this.mint(userId, installation.integration_name, integration.scopes);
    });
  }

  async integrationToken(integration: { name: string; title: string }): Promise<string> {
    return this.reuse(`integration:${integration.name}`, async () => {
      const userId = await this.deps.db.transaction().execute(async (tx) => {
        const { user } = await this.needs.users.findOrCreateIn(tx, {
          email: `integration-${integration.name.toLowerCase()}@${INTEGRATION_EMAIL_DOMAIN}`,
          displayName: integration.title,
        });
        return user.id;
      });
      return this.mint(userId, integration.name, []);
    });
  }

  /** The installation whose own user `actor` is (an installation token), by its reserved address. */
  async installationOf(actor: {
    email: string;
    scopes?: readonly string[];
  }): Promise<{ integration: string; installation: string } | undefined> {
    const match = actor.scopes && /^installation-(.+)@/.exec(actor.email);
    if (!match) return undefined;
    const row = await this.deps.db
      .selectFrom('integration_installations')
      .select(['id', 'integration_name'])
      .where(sql`lower(id)`, '=', match[1]!)
      .executeTakeFirst();
    return row && { integration: row.integration_name, installation: row.id };
  }

  /**
   * Installations go (uninstalled, unpublished, or their integration made private): their users
   * leave their organizations in `tx`, so tokens still alive reach nothing any more.
   */
  async removed(tx: Tx, installationIds: string[]): Promise<void> {
    if (installationIds.length === 0) return;
    const users = tx
      .selectFrom('users')
      .select('id')
      .where('email', 'in', installationIds.map(installationEmail));
    await tx.deleteFrom('members').where('user_id', 'in', users).execute();
    for (const key of this.issued.keys()) {
      if (installationIds.some((id) => key.startsWith(`installation:${id}:`))) this.issued.delete(key);
    }
  }

  private async mint(userId: string, name: string, scopes: readonly string[]): Promise<string> {
    const expiresAt = new Date(this.deps.clock.now().getTime() + TOKEN_MS).toISOString();
    const { token } = await this.needs.tokens.create(
      userId,
      `integration:${name}`,
      undefined,
      expiresAt,
      scopes,
    );
    return token;
  }

  private async reuse(key: string, make: () => Promise<string>): Promise<string> {
    const now = this.deps.clock.now().getTime();
    const kept = this.issued.get(key);
    if (kept && kept.until - now > REUSE_MARGIN_MS) return kept.token;
    const token = await make();
    this.issued.set(key, { token, until: now + TOKEN_MS });
    return token;
  }
}
