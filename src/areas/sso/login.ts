import { emailDomain } from '../../auth/actor.js';
import type { SamlProvidersTable } from '../../db/tables.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Deps } from '../../deps.js';
import { type ApiError, forbidden, invalidField, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { MembersService } from '../members/service.js';
import type { OrganizationRow } from '../orgs/present.js';
import type { OrgsService } from '../orgs/service.js';
import type { TeamsService } from '../teams/service.js';
import type { UsersService } from '../users/service.js';
import type { SamlRequestStore } from './requests.js';
import {
  decodeResponse,
  emailOf,
  extraRefusal,
  isActive,
  RELAY_STATE_MAX,
  samlFor,
  serviceUrls,
} from './saml.js';
import type { SamlProvidersService } from './service.js';

/** A browser session started for the person who signed in (src/areas/sessions), when wired. */
export interface SsoSessions {
  start(
    userId: string,
    source: string,
    userAgent?: string,
  ): Promise<{ cookieValue: string; expiresAt: string }>;
  /** The Set-Cookie header value carrying the session. */
  cookie(value: string, expiresAt: string): string;
}

/** The services single sign-on calls. */
export interface SsoLoginNeeds {
  providers: Pick<SamlProvidersService, 'find'>;
  requests: SamlRequestStore;
  orgs: Pick<OrgsService, 'findRow'>;
  users: Pick<UsersService, 'findOrCreateIn'>;
  members: Pick<MembersService, 'roleOf' | 'add' | 'markSso' | 'organizationCount'>;
  teams: Pick<TeamsService, 'join'>;
  sessions: SsoSessions | null;
}

export interface SignedIn {
  userId: string;
  email: string;
  orgId: string;
  orgTitle: string;
  providerId: string;
  userCreated: boolean;
  joined: boolean;
  returnPath: string | null;
  /** Set when sessions are wired: the Set-Cookie value. */
  cookie?: string;
}

/**
 * Signing in through an organization's SAML identity provider: the redirect to the IdP and the
 * assertion consumer service, with just-in-time membership. Refusals change nothing.
 */
export class SsoLoginService {
  constructor(
    private readonly deps: Deps,
    private readonly services: SsoLoginNeeds,
  ) {}

  private async activeProvider(providerId: string): Promise<SamlProvidersTable> {
    const row = await this.services.providers.find(providerId);
    if (!row) throw notFound(`SAML provider "${providerId}" not found`);
    if (!isActive(row)) {
      throw forbidden(
        'This SAML provider is not configured yet: an admin must set its ssoURL, entityID and certificate',
      );
    }
    return row;
  }

  /** A same-origin path to return to after signing in, or a 400. */
  returnPath(value: string | undefined): string | null {
    if (value === undefined || value === '') return null;
    const base = new URL(this.deps.config.publicUrl);
    let url: URL | undefined;
    try {
      url = new URL(value, base);
    } catch {
      url = undefined;
    }
    if (
      !value.startsWith('/') ||
      value.startsWith('//') ||
      value.includes('\\') ||
      !url ||
      url.origin !== base.origin
    ) {
      throw invalidField('querystring.return', 'must be a path on this server, such as /app');
    }
    return `${url.pathname}${url.search}`;
  }

  /** Where to send the browser to sign in at the IdP (Redirect binding). */
  async start(providerId: string, returnTo: string | undefined): Promise<string> {
    const returnPath = this.returnPath(returnTo);
    const row = await this.activeProvider(providerId);
    const relayState = newId(24);
    const sp = serviceUrls(this.deps.urls.base, row.id);
    const saml = await samlFor(row, sp, this.services.requests.forStart(row.id, relayState, returnPath));
    return saml.getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /** The SP metadata (XML) the IdP is configured from. */
  async metadata(providerId: string): Promise<string> {
    const row = await this.services.providers.find(providerId);
    if (!row) throw notFound(`SAML provider "${providerId}" not found`);
    const saml = await samlFor(row, serviceUrls(this.deps.urls.base, row.id));
    return saml.generateServiceProviderMetadata(null, null);
  }

  /** The assertion consumer service: checks everything, then provisions in one transaction. */
  async consume(
    providerId: string,
    form: Record<string, unknown>,
    userAgent: string | undefined,
  ): Promise<SignedIn> {
    const samlResponse = form.SAMLResponse;
    if (typeof samlResponse !== 'string' || samlResponse === '') {
      throw invalidField('body.SAMLResponse', "is required: post the IdP's response as a form field");
    }
    const relayState = form.RelayState;
    if (
      relayState !== undefined &&
      (typeof relayState !== 'string' || Buffer.byteLength(relayState) > RELAY_STATE_MAX)
    ) {
      throw invalidField('body.RelayState', `must be at most ${RELAY_STATE_MAX} bytes`);
    }
    const decoded = decodeResponse(samlResponse);
    if ('refusal' in decoded) throw invalidField('body.SAMLResponse', decoded.refusal);
    const row = await this.activeProvider(providerId);
    const sp = serviceUrls(this.deps.urls.base, row.id);
    const cache = this.services.requests.forResponse(row.id);
    const saml = await samlFor(row, sp, cache);

    let profile: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>['profile'];
    try {
      ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw refused(error instanceof Error ? error.message : String(error));
    }
    if (!profile) throw refused('the response carries no assertion');
    const extra = extraRefusal(profile, decoded.xml, row, sp);
    if (extra) throw refused(extra);
    const request = cache.consumed();
    if (!request) throw refused('it answers no sign-in request of this server');
    if (relayState !== undefined && relayState !== request.relay_state) {
      throw refused('its RelayState is not the one sent with the request');
    }
    const email = emailOf(profile);
    if (!email) throw refused('the assertion gives no email address (NameID or an email attribute)');

    const org = await this.services.orgs.findRow(row.org_id);
    if (!org) throw notFound(`SAML provider "${providerId}" not found`);
    const domains = JSON.parse(org.email_domains) as string[];
    if (domains.length > 0 && !domains.includes(emailDomain(email))) {
      throw forbidden(
        `${email} is not an address of this organization's email domains (${domains.join(', ')})`,
      );
    }

    // Two first sign-ins of one person at once (two tabs) both try to create the account: the
    // loser's transaction fails on the unique email and, run again, finds what the winner made.
    const result = await retryOnUniqueViolation(() => this.provision(row, org, email));

    const signedIn: SignedIn = {
      userId: result.user.id,
      email: result.user.email,
      orgId: org.id,
      orgTitle: org.title,
      providerId: row.id,
      userCreated: result.created,
      joined: result.joined,
      returnPath: request.return_path,
    };
    const sessions = this.services.sessions;
    if (sessions) {
      const session = await sessions.start(result.user.id, `saml:${row.id}`, userAgent);
      signedIn.cookie = sessions.cookie(session.cookieValue, session.expiresAt);
    }
    return signedIn;
  }

  /** Finds or creates the person and their membership, in one transaction. */
  private provision(row: SamlProvidersTable, org: OrganizationRow, email: string) {
    return this.deps.db.transaction().execute(async (tx) => {
      const { user, created } = await this.services.users.findOrCreateIn(tx, { email });
      const member = await this.services.members.roleOf(tx, row.org_id, user.id);
      // The organization's admins choose its IdP and its email domains, so what the IdP asserts
      // is the organization's word only about its own people. An account that already exists
      // is signed in only when it is a member of this organization and of no other: otherwise
      // an admin could sign in as anyone whose email their IdP claims, into everything that
      // person may do elsewhere.
      if (!created && !member)
        throw refused(
          `an account with ${email} already exists and is not a member of ${org.title}: an admin must invite it first`,
        );
      if (!created && (await this.services.members.organizationCount(tx, user.id)) > 1)
        throw refused(
          `the account of ${email} belongs to other organizations too, and an identity provider signs in only accounts of its own organization; sign in with a login link instead (quire login-link)`,
        );
      // A disabled member stays out, whichever way they come in.
      if (member?.disabled) throw refused(`the membership of ${email} in ${org.title} is disabled`);
      if (!member) await this.services.members.add(tx, row.org_id, user.id, row.default_role);
      if (!member && row.default_team_id)
        await this.services.teams.join(tx, row.org_id, row.default_team_id, user.id);
      await this.services.members.markSso(tx, row.org_id, user.id);
      return { user, created, joined: !member };
    });
  }
}

function refused(reason: string): ApiError {
  return forbidden(`SAML sign-in refused: ${reason}`);
}

async function retryOnUniqueViolation<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return run();
  }
}
