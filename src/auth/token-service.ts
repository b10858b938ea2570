import type { Db, Tx } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import type { Deps } from '../deps.js';
import { notFound, unauthorized } from '../errors.js';
import { newId } from '../ids.js';
import { Throttle } from '../throttle.js';
import type { Actor } from './actor.js';
import { digestToken, generateToken, hashesMatch, type TokenDigest } from './tokens.js';

export interface IssuedToken {
  id: string;
  /** The secret itself: shown once, never stored. */
  token: string;
}

export interface TokenInfo {
  id: string;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  expiresAt: string | null;
}

const USED_INTERVAL_MS = 60_000;

export class TokenService {
  /** `last_used_at` is written at most once a minute per token. */
  private readonly used: Throttle;
  private readonly byLookup;

  constructor(private readonly deps: Deps) {
    this.used = new Throttle(deps.clock, USED_INTERVAL_MS);
    this.byLookup = prepared(
      deps.db,
      (p: { lookup: string }) =>
        deps.db
          .selectFrom('api_tokens as t')
          .innerJoin('users as u', 'u.id', 't.user_id')
          .select(['t.id', 't.user_id', 't.hash', 't.revoked_at', 't.expires_at', 't.scopes', 'u.email'])
          .where('t.lookup', '=', p.lookup),
      deps.database.cache,
    );
  }

  /**
   * Issues a token for `userId`; `value` lets the operator choose it (QUIRE_ADMIN_TOKEN);
   * `expiresAt` (ISO) makes it stop working then, as if it had never existed; `scopes` makes it
   * an integration installation's token (see auth/installation-access.ts).
   */
  async create(
    userId: string,
    label: string | null,
    value?: string,
    expiresAt: string | null = null,
    scopes?: readonly string[],
    db: Db | Tx = this.deps.db,
  ): Promise<IssuedToken> {
    const token = value ?? generateToken();
    const { lookup, hash } = digestToken(token);
    const id = newId();
    await db
      .insertInto('api_tokens')
      .values({
        id,
        user_id: userId,
        lookup,
        hash,
        label,
        created_at: this.deps.clock.now().toISOString(),
        last_used_at: null,
        revoked_at: null,
        expires_at: expiresAt,
        scopes: scopes ? JSON.stringify(scopes) : null,
      })
      .execute();
    return { id, token };
  }

  /** Revokes by secret value or by id; answers the revoked token's id. */
  async revoke(tokenOrId: string): Promise<string> {
    const { lookup, hash } = digestToken(tokenOrId);
    const byValue = await this.deps.db
      .selectFrom('api_tokens')
      .select(['id', 'hash'])
      .where('lookup', '=', lookup)
      .execute();
    const match = byValue.find((row) => hashesMatch(row.hash, hash));
    const id = match?.id ?? tokenOrId;
    const result = await this.deps.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.deps.clock.now().toISOString() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const exists = await this.deps.db
        .selectFrom('api_tokens')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!exists) throw notFound('No such token (give the token itself or its id from `quire token list`)');
    }
    return id;
  }

  /**
   * Revokes one of the person's own tokens (the token page); another person's token id is
   * unknown here, so nobody learns which ids exist.
   */
  async revokeOwn(userId: string, tokenId: string): Promise<void> {
    const result = await this.deps.db
      .updateTable('api_tokens')
      .set({ revoked_at: this.deps.clock.now().toISOString() })
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      const own = await this.deps.db
        .selectFrom('api_tokens')
        .select('id')
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!own) throw notFound('No such token');
    }
  }

  async list(userId: string): Promise<TokenInfo[]> {
    const rows = await this.deps.db
      .selectFrom('api_tokens')
      .select(['id', 'label', 'created_at', 'last_used_at', 'revoked_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      revokedAt: r.revoked_at,
      expiresAt: r.expires_at,
    }));
  }

  /** The actor behind a bearer token (given by its digest); 401 when it is unknown or revoked. */
  async authenticate({ lookup, hash }: TokenDigest): Promise<Actor> {
    const rows = await this.byLookup.execute({ lookup });
    const row = rows.find((r) => hashesMatch(r.hash, hash));
    // An expired token is refused exactly like an unknown one: its age is nobody's business.
    const expired = row?.expires_at != null && row.expires_at <= this.deps.clock.now().toISOString();
    if (!row || expired)
      throw unauthorized('Invalid API token: send a token created with `quire token create`');
    if (row.revoked_at) throw unauthorized('This API token has been revoked; create a new one');
    // Written at most once a minute: most requests go on without waiting for a statement.
    const used = this.used.due(row.id);
    if (used) await this.markUsed(row.id, used);
    const actor: Actor = { userId: row.user_id, tokenId: row.id, email: row.email };
    if (row.scopes !== null) actor.scopes = JSON.parse(row.scopes) as string[];
    return actor;
  }

  private async markUsed(tokenId: string, now: Date): Promise<void> {
    await this.deps.db
      .updateTable('api_tokens')
      .set({ last_used_at: now.toISOString() })
      .where('id', '=', tokenId)
      .execute();
  }
}
