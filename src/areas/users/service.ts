import type { Actor } from '../../auth/actor.js';
import type { Db, Tx } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { Deps } from '../../deps.js';
import { conflict, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MembersService } from '../members/service.js';
import type { UserRow } from './present.js';

const USER_COLUMNS = ['id', 'email', 'display_name', 'photo_url'] as const;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;

export interface NewUser {
  email: string;
  displayName?: string | undefined;
}

/**
 * Pending invitations of an email address, kept by the invites area. Invites build on users, so
 * users name them only by this shape.
 */
export interface PendingInvitations {
  /** Accepts every pending invitation of the address for the new user, inside its creation. */
  acceptPendingFor(tx: Tx, userId: string, email: string): Promise<void>;
}

/** The services users call. */
export interface UsersNeeds {
  invites: PendingInvitations;
  members: Pick<MembersService, 'shareOrganization'>;
}

export class UsersService {
  private readonly byId;

  constructor(
    private readonly deps: Deps,
    private readonly services: UsersNeeds,
  ) {
    this.byId = prepared(
      deps.db,
      (p: { id: string }) => deps.db.selectFrom('users').select(USER_COLUMNS).where('id', '=', p.id),
      deps.database.cache,
    );
  }

  /** The users among `ids`, in one query, by id. */
  async byIds(db: Db | Tx, ids: Iterable<string>): Promise<Map<string, UserRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await db.selectFrom('users').select(USER_COLUMNS).where('id', 'in', unique).execute();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * Creates a user; pending email invitations for the address are accepted in the same
   * transaction, so an invited person belongs to their organizations from their first request.
   */
  async create(input: NewUser): Promise<UserRow> {
    const email = normalizeEmail(input.email);
    const displayName = input.displayName?.trim() || email.slice(0, email.indexOf('@'));
    return this.deps.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      if (existing) throw conflict(`A user with the email ${email} already exists`);
      return this.insert(trx, email, displayName);
    });
  }

  /**
   * The user with this email, created inside the caller's transaction when there is none (with
   * their pending invitations accepted, as `create` does): single sign-on provisions this way.
   */
  async findOrCreateIn(tx: Tx, input: NewUser): Promise<{ user: UserRow; created: boolean }> {
    const existing = await this.findByEmail(input.email, tx);
    if (existing) return { user: existing, created: false };
    const email = normalizeEmail(input.email);
    const displayName = input.displayName?.trim() || email.slice(0, email.indexOf('@'));
    return { user: await this.insert(tx, email, displayName), created: true };
  }

  private async insert(tx: Tx, email: string, displayName: string): Promise<UserRow> {
    const row = { id: newId(), email, display_name: displayName, photo_url: null };
    await tx
      .insertInto('users')
      .values({ ...row, created_at: this.deps.clock.now().toISOString() })
      .execute();
    await this.services.invites.acceptPendingFor(tx, row.id, email);
    return row;
  }

  async findByEmail(email: string, db: Db | Tx = this.deps.db): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .select(['id', 'email', 'display_name', 'photo_url'])
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
  }

  async findOrCreate(input: NewUser): Promise<{ user: UserRow; created: boolean }> {
    const existing = await this.findByEmail(input.email);
    if (existing) return { user: existing, created: false };
    return { user: await this.create(input), created: true };
  }

  /** The users among `ids` (inside a transaction when given one). */
  async rows(ids: string[], db: Db | Tx = this.deps.db): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return db
      .selectFrom('users')
      .select(['id', 'email', 'display_name', 'photo_url'])
      .where('id', 'in', ids)
      .execute();
  }

  async get(userId: string): Promise<UserRow> {
    const row = await this.byId.first({ id: userId });
    if (!row) throw notFound(`User "${userId}" not found`);
    return row;
  }

  /** A user the caller may see: themselves or someone sharing one of their organizations. */
  async getVisible(actor: Actor, userId: string): Promise<UserRow> {
    if (userId !== actor.userId && !(await this.services.members.shareOrganization(actor.userId, userId))) {
      throw notFound(`User "${userId}" not found`);
    }
    return this.get(userId);
  }

  async count(): Promise<number> {
    const row = await this.deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

export function normalizeEmail(email: string): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL.test(value)) throw invalidField('email', `"${email}" is not an email address`);
  return value;
}
