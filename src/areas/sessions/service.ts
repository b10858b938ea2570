import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { digestToken, generateToken, hashesMatch } from '../../auth/tokens.js';
import type { Deps } from '../../deps.js';
import { newId } from '../../ids.js';

/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** ...and at the latest this long after sign-in, however busy: a stolen cookie dies anyway. */
export const SESSION_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * The expiry is pushed forward only when the session is used this long after it was last
 * pushed: one write an hour per session, not one per request.
 */
export const SESSION_RENEW_AFTER_MS = 60 * 60 * 1000;
/** A printed login link works once, within this time. */
export const LOGIN_LINK_MS = 15 * 60 * 1000;
/** How long a spent or expired link's row is kept, to tell a late click what happened. */
const LOGIN_LINK_KEPT_MS = 24 * 60 * 60 * 1000;

export interface StartedSession {
  /** The secret to put in the cookie; only its digest is stored. */
  cookieValue: string;
  expiresAt: string;
}

/** Why a login link did not sign anyone in, for the page that says so. */
export type LoginLinkOutcome =
  | { ok: true; userId: string }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** The one user lookup this area needs (the users area's `findByEmail`). */
export interface SessionNeeds {
  users: { findByEmail(email: string): Promise<{ id: string; email: string } | undefined> };
}

/**
 * Browser sessions: a random secret in an HttpOnly cookie, a row holding its digest. The
 * session is the same person as their API tokens, so `resolve` answers an ordinary Actor
 * (its `tokenId` names the session, which keeps rate limits per session) and every route
 * works unchanged. Rows are deleted when a session ends; expired rows are refused and
 * removed when next seen.
 */
export class SessionService {
  constructor(
    private readonly deps: Deps,
    private readonly needs: SessionNeeds,
  ) {}

  async start(userId: string, source: string, userAgent?: string): Promise<StartedSession> {
    const cookieValue = generateToken();
    const { lookup, hash } = digestToken(cookieValue);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + SESSION_IDLE_MS).toISOString();
    await this.deps.db
      .insertInto('sessions')
      .values({
        id: newId(),
        user_id: userId,
        lookup,
        hash,
        source,
        // A user agent is for the person's own list of sessions; cap what a client can make us store.
        user_agent: userAgent ? userAgent.slice(0, 300) : null,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .execute();
    return { cookieValue, expiresAt };
  }

  /** The person behind a cookie value, or undefined when it is unknown, ended or expired. */
  async resolve(cookieValue: string): Promise<Actor | undefined> {
    const row = await this.find(cookieValue);
    if (!row) return undefined;
    const now = this.deps.clock.now();
    if (row.expires_at <= now.toISOString()) {
      await this.deps.db.deleteFrom('sessions').where('id', '=', row.id).execute();
      return undefined;
    }
    if (now.getTime() - Date.parse(row.last_seen_at) >= SESSION_RENEW_AFTER_MS) {
      const ceiling = Date.parse(row.created_at) + SESSION_MAX_MS;
      const expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, ceiling)).toISOString();
      await this.deps.db
        .updateTable('sessions')
        .set({ last_seen_at: now.toISOString(), expires_at: expiresAt })
        .where('id', '=', row.id)
        .execute();
    }
    return {
      userId: row.user_id,
      tokenId: `session:${row.id}`,
      email: row.email,
      sessionId: row.id,
      ...(row.sso_org_id ? { ssoOrgId: row.sso_org_id } : {}),
    };
  }

  /** When the session behind a cookie ends now (for the cookie's own Expires), if it is live. */
  async expiresAt(cookieValue: string): Promise<string | undefined> {
    return (await this.find(cookieValue))?.expires_at;
  }

  /** Ends one session; an unknown value is already ended. */
  async end(cookieValue: string): Promise<void> {
    const row = await this.find(cookieValue);
    if (row) await this.deps.db.deleteFrom('sessions').where('id', '=', row.id).execute();
  }

  /**
   * Deletes what can no longer sign anyone in: expired sessions (each is also removed when next
   * presented, but most never are), and login links a day after they expired, so that for a
   * while a late click still hears "used" or "expired" rather than "unknown".
   */
  async purgeExpired(): Promise<{ sessions: number; loginLinks: number }> {
    const now = this.deps.clock.now();
    const sessions = await this.deps.db
      .deleteFrom('sessions')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    const linksBefore = new Date(now.getTime() - LOGIN_LINK_KEPT_MS).toISOString();
    const links = await this.deps.db
      .deleteFrom('login_links')
      .where('expires_at', '<=', linksBefore)
      .executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), loginLinks: Number(links.numDeletedRows) };
  }

  /** Signs the person out everywhere: every browser session of theirs ends. */
  async endAll(userId: string): Promise<number> {
    const result = await this.deps.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The CSRF token of a session: derived from the cookie value, so it needs no storage, and
   * only someone who holds the cookie (which scripts cannot read) can know it.
   */
  csrfToken(cookieValue: string): string {
    return createHash('sha256').update(`quire-csrf\0${cookieValue}`, 'utf8').digest('base64url');
  }

  /** Makes a one-time sign-in link for the person with `email`; undefined when there is none. */
  async createLoginLink(email: string): Promise<{ url: string; expiresAt: string } | undefined> {
    const user = await this.needs.users.findByEmail(email);
    if (!user) return undefined;
    const token = generateToken();
    const { lookup, hash } = digestToken(token);
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + LOGIN_LINK_MS).toISOString();
    await this.deps.db
      .insertInto('login_links')
      .values({
        id: newId(),
        user_id: user.id,
        lookup,
        hash,
        created_at: now.toISOString(),
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
    return { url: `${this.deps.config.publicUrl}/login/link/${token}`, expiresAt };
  }

  /** What a login link would do, without spending it (the page that asks to confirm). */
  async checkLoginLink(token: string): Promise<LoginLinkOutcome & { email?: string }> {
    const row = await this.findLink(token);
    const refusal = this.linkRefusal(row);
    if (refusal) return refusal;
    return { ok: true, userId: row!.user_id, email: row!.email };
  }

  /**
   * Consumes a login link. The update is conditional on `used_at` being null, so of two
   * requests racing with the same link (two processes, a double click) exactly one wins.
   */
  async useLoginLink(token: string): Promise<LoginLinkOutcome> {
    const row = await this.findLink(token);
    const refusal = this.linkRefusal(row);
    if (refusal) return refusal;
    const result = await this.deps.db
      .updateTable('login_links')
      .set({ used_at: this.deps.clock.now().toISOString() })
      .where('id', '=', row!.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { ok: false, reason: 'used' };
    return { ok: true, userId: row!.user_id };
  }

  private async findLink(token: string) {
    const { lookup, hash } = digestToken(token);
    const rows = await this.deps.db
      .selectFrom('login_links as l')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.id', 'l.user_id', 'l.hash', 'l.expires_at', 'l.used_at', 'u.email'])
      .where('l.lookup', '=', lookup)
      .execute();
    return rows.find((r) => hashesMatch(r.hash, hash));
  }

  private linkRefusal(
    row: { used_at: string | null; expires_at: string } | undefined,
  ): LoginLinkOutcome | undefined {
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.used_at) return { ok: false, reason: 'used' };
    if (row.expires_at <= this.deps.clock.now().toISOString()) return { ok: false, reason: 'expired' };
    return undefined;
  }

  private async find(cookieValue: string) {
    const { lookup, hash } = digestToken(cookieValue);
    const rows = await this.deps.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      // A session opened through a SAML provider (`source` is `saml:<providerId>`) is bound to
      // that provider's organization (see auth/sign-in-policy.ts).
      .leftJoin('saml_providers as p', (join) =>
        join.on(sql<boolean>`${sql.ref('s.source')} = 'saml:' || ${sql.ref('p.id')}`),
      )
      .select(['s.id', 's.user_id', 's.hash', 's.created_at', 's.last_seen_at', 's.expires_at', 'u.email'])
      .select('p.org_id as sso_org_id')
      .where('s.lookup', '=', lookup)
      .execute();
    return rows.find((r) => hashesMatch(r.hash, hash));
  }
}
