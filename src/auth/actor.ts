/** Who makes a request: the user behind the bearer token or the browser session cookie. */
export interface Actor {
  userId: string;
  /** The token's id; for a browser session, `session:<sessionId>` (rate limits count per session). */
  tokenId: string;
  email: string;
  /** Set when the request came with the session cookie rather than a bearer token. */
  sessionId?: string;
  /** For a session signed in through a SAML provider: the provider's organization. */
  ssoOrgId?: string;
  /**
   * For an integration's installation token: the integration's scopes. Such a token reaches
   * only the operations of auth/installation-access.ts.
   */
  scopes?: readonly string[];
}

/** The domain part of an email address, lower-cased. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
