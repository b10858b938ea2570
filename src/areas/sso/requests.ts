import type { CacheProvider } from '@node-saml/node-saml';
import type { SamlRequestsTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { REQUEST_VALIDITY_MS } from './saml.js';

/**
 * The AuthnRequest ids this server sent, in the database (node-saml's `cacheProvider`), so
 * that any process may receive the answer and each id is answered at most once.
 */
export class SamlRequestStore {
  constructor(private readonly deps: Deps) {}

  /** The cache node-saml saves the new request's id to, with what the answer will need. */
  forStart(providerId: string, relayState: string, returnPath: string | null): CacheProvider {
    const { db, clock } = this.deps;
    return {
      saveAsync: async (key, value) => {
        const now = clock.now();
        // Unanswered requests are dropped once expired, a few at a time as new ones come.
        await db.deleteFrom('saml_requests').where('expires_at', '<', now.toISOString()).execute();
        await db
          .insertInto('saml_requests')
          .values({
            id: key,
            provider_id: providerId,
            relay_state: relayState,
            return_path: returnPath,
            created_at: now.toISOString(),
            expires_at: new Date(now.getTime() + REQUEST_VALIDITY_MS).toISOString(),
          })
          .execute();
        return { value, createdAt: now.getTime() };
      },
      getAsync: async () => null,
      removeAsync: async (key) => key,
    };
  }

  /**
   * The cache one response is checked against. The first look-up of an id deletes its row
   * (one statement, so two processes handed the same response cannot both find it): the id is
   * spent whether or not the response is then accepted. `consumed()` is the row it took.
   */
  forResponse(providerId: string): CacheProvider & { consumed(): SamlRequestsTable | undefined } {
    const { db, clock } = this.deps;
    const taken = new Map<string, SamlRequestsTable | null>();
    let last: SamlRequestsTable | undefined;
    return {
      saveAsync: async () => null,
      getAsync: async (key) => {
        if (!taken.has(key)) {
          const row = await db
            .deleteFrom('saml_requests')
            .where('id', '=', key)
            .where('provider_id', '=', providerId)
            .returningAll()
            .executeTakeFirst();
          const valid = row && row.expires_at > clock.now().toISOString() ? row : null;
          taken.set(key, valid);
          if (valid) last = valid;
        }
        return taken.get(key)?.created_at ?? null;
      },
      removeAsync: async (key) => key,
      consumed: () => last,
    };
  }
}
