/**
 * Integrations act through users of their own (src/areas/integrations/identities.ts), whose
 * addresses are under this reserved domain (`.invalid` never resolves, RFC 2606), so no person
 * can sign up as one. They are members of an organization while installed there, but they are
 * not people: member lists leave them out (the organization's installations list them instead).
 */
export const INTEGRATION_EMAIL_DOMAIN = 'integrations.invalid';
