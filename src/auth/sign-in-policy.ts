import { ApiError } from '../errors.js';
import type { Actor } from './actor.js';

/** What the rule needs to know of an organization and of the caller's membership there. */
export interface SignInFacts {
  orgId: string;
  orgTitle: string;
  /** The organization's `sso` setting: its SSO members sign in only through its providers. */
  orgSso: number;
  /** The membership is marked `sso` (joined or was approved through the organization's IdP). */
  memberSso: number;
}

/**
 * An organization with `sso: true` lets its SSO members in only through its own identity
 * providers: a browser session that came any other way (a login link, another organization's
 * IdP) does not act in it. Members who are not SSO members (an admin who set the IdP up, an
 * outside collaborator) keep their other way in, so turning the setting on locks no one out.
 * The rule is about how a browser session was opened; API tokens (personal, and not tied to one
 * organization) are not concerned.
 */
export function requireSignInMethod(actor: Actor, facts: SignInFacts): void {
  if (!actor.sessionId || !facts.orgSso || !facts.memberSso) return;
  if (actor.ssoOrgId === facts.orgId) return;
  throw new SignInRequired(facts.orgId, facts.orgTitle);
}

/** A 403 that pages can recognise, to offer the organization's sign-in instead of an error. */
export class SignInRequired extends ApiError {
  constructor(
    readonly orgId: string,
    orgTitle: string,
  ) {
    super(
      403,
      `${orgTitle} requires its members to sign in through its identity provider: sign in at /login?org=${orgId}`,
    );
  }
}
