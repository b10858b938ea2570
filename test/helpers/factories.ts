import type { GitBookAPI } from '@gitbook/api';
import type { MemberRole } from '../../src/auth/roles.js';
import { apiClient } from './client.js';
import type { TestServer } from './server.js';

let counter = 0;

export function uniqueEmail(domain = 'example.test'): string {
  counter++;
  return `user${counter}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  api: GitBookAPI;
}

/** A user with a token, made the way `quire token create` makes them. */
export async function createUser(
  server: TestServer,
  options: { email?: string; name?: string } = {},
): Promise<TestUser> {
  const { services } = server.app.quire;
  const email = options.email ?? uniqueEmail();
  const user = await services.users.create({ email, displayName: options.name });
  const issued = await services.tokens.create(user.id, 'test');
  return { id: user.id, email: user.email, token: issued.token, api: apiClient(server.url, issued.token) };
}

/** An organization created through the API by `owner`. */
export async function createOrg(owner: TestUser, title = 'Test organization'): Promise<string> {
  const { data } = await owner.api.orgs.createOrganization({ title });
  return data.id;
}

/** Puts `user` in the organization with `role`, as an admin would through an email invite. */
export async function addMember(
  admin: TestUser,
  orgId: string,
  user: TestUser,
  role: MemberRole | null,
): Promise<void> {
  await admin.api.orgs.inviteUsersToOrganization(orgId, {
    emails: [{ email: user.email, role: role as never }],
  });
}
