import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure as statusOf } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser, uniqueEmail } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let owner: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server, { name: 'Olive Owner' });
  orgId = await createOrg(owner, 'Acme Docs');
});
afterAll(() => server.close());

describe('creating and reading organizations', () => {
  it('creates an organization whose creator is admin', async () => {
    const res = await owner.api.orgs.createOrganization({ title: 'Second org', emailDomains: ['Acme.test'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}/v1/orgs/${res.data.id}`);
    expect(res.data).toMatchObject({
      object: 'organization',
      title: 'Second org',
      emailDomains: ['acme.test'],
      inviteLinks: true,
      mergeRules: { type: 'none' },
      urls: { location: `${server.url}/v1/orgs/${res.data.id}` },
    });
    expect(res.data.permissions).toMatchObject({
      view: true,
      admin: true,
      createContent: true,
      listMembers: true,
    });
    const { data: member } = await owner.api.orgs.getMemberInOrganizationById(res.data.id, owner.id);
    expect(member.role).toBe('admin');
  });

  it('reads an organization with ISO timestamps and absolute URLs', async () => {
    const { data } = await owner.api.orgs.getOrganizationById(orgId);
    expect(data.id).toBe(orgId);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(data.urls.app.startsWith(server.url)).toBe(true);
  });

  it('lists only the organizations of the caller, paginated by cursor', async () => {
    const lister = await createUser(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createOrg(lister, `Org number ${i}`));
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await lister.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 2, page });
      expect(data.count).toBe(5);
      expect(data.items.length).toBeLessThanOrEqual(2);
      seen.push(...data.items.map((o) => o.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(ids);
    const { data: other } = await owner.api.orgs.listOrganizationsForAuthenticatedUser();
    expect(other.items.map((o) => o.id)).not.toContain(ids[0]);
  });

  it("answers 404, not 403, for another organization's id", async () => {
    const stranger = await createUser(server);
    const failure = await statusOf(stranger.api.orgs.getOrganizationById(orgId));
    expect(failure.code).toBe(404);
    expect(failure.message).toContain(orgId);
    expect(
      (await statusOf(stranger.api.orgs.updateOrganizationById(orgId, { title: 'Hijacked' }))).code,
    ).toBe(404);
    expect((await statusOf(stranger.api.orgs.getOrganizationById('does-not-exist'))).code).toBe(404);
  });

  it('refuses a title that is too short or too long, naming the field', async () => {
    for (const title of ['x', 'y'.repeat(256), '  ']) {
      const failure = await statusOf(owner.api.orgs.createOrganization({ title }));
      expect(failure.code).toBe(400);
      expect(failure.message).toContain('body.title');
    }
    const missing = await rawRequest(server.url, 'POST', '/v1/orgs', { token: owner.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('body.title is required');
  });
});

describe('updating an organization', () => {
  it('updates every field of API.md 4.8', async () => {
    const patchedId = await createOrg(owner, 'Patch me');
    const other = await createUser(server);
    await addMember(owner, patchedId, other, 'review');
    const { data } = await owner.api.orgs.updateOrganizationById(patchedId, {
      title: 'Patched title',
      emailDomains: ['example.org', 'EXAMPLE.org', 'docs.example.net'],
      hostname: 'patched-org',
      defaultRole: 'edit' as never,
      defaultContent: null,
      logo: 'https://cdn.example.org/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
      mergeRules: {
        type: 'rules',
        rules: [{ rule: 'require_specific_reviewers', users: [other.id] }],
      } as never,
    });
    expect(data).toMatchObject({
      title: 'Patched title',
      emailDomains: ['example.org', 'docs.example.net'],
      hostname: 'patched-org',
      defaultRole: 'edit',
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.example.org/logo.png' },
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [other.id] }] },
    });
    const { data: again } = await owner.api.orgs.getOrganizationById(patchedId);
    expect(again).toEqual(data);

    const { data: cleared } = await owner.api.orgs.updateOrganizationById(patchedId, {
      logo: null,
      defaultRole: null,
    });
    expect(cleared.urls.logo).toBeUndefined();
    expect(cleared.defaultRole).toBeNull();
  });

  it('enforces the limits and rules of each field, changing nothing on failure', async () => {
    const target = await createOrg(owner, 'Limits org');
    const before = (await owner.api.orgs.getOrganizationById(target)).data;
    const cases: Array<[object, string, number]> = [
      [{ title: 'a' }, 'body.title', 400],
      [{ hostname: 'ab' }, 'body.hostname', 400],
      [{ hostname: 'x'.repeat(33) }, 'body.hostname', 400],
      [{ hostname: 'Has Spaces' }, 'body.hostname', 400],
      [{ emailDomains: ['not a domain'] }, 'body.emailDomains', 400],
      [{ logo: 'x'.repeat(2049) }, 'body.logo', 400],
      [{ logo: 'javascript:alert(1)' }, 'body.logo', 400],
      [{ defaultRole: 'owner' }, 'body.defaultRole', 400],
      [{ sso: 'yes' }, 'body.sso', 400],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: ['nobody'] }] } },
        'body.mergeRules',
        400,
      ],
      [{ mergeRules: { type: 'sometimes' } }, 'body.mergeRules', 400],
      [{ defaultContent: { type: 'site', site: 'missing' } }, 'body.defaultContent', 400],
      [{ title: 'Valid title', hostname: 'ab' }, 'body.hostname', 400],
    ];
    for (const [body, field, status] of cases) {
      const res = await rawRequest(server.url, 'PATCH', `/v1/orgs/${target}`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((res.body as { error: { message: string } }).error.message, JSON.stringify(body)).toContain(
        field,
      );
    }
    const after = (await owner.api.orgs.getOrganizationById(target)).data;
    expect(after).toEqual(before);
  });

  it('refuses a hostname another organization uses with 409', async () => {
    const a = await createOrg(owner, 'Host A');
    const b = await createOrg(owner, 'Host B');
    await owner.api.orgs.updateOrganizationById(a, { hostname: 'taken-name' });
    const failure = await statusOf(owner.api.orgs.updateOrganizationById(b, { hostname: 'taken-name' }));
    expect(failure.code).toBe(409);
    expect(failure.message).toContain('taken-name');
  });

  it('lets only admins update, and tells members what they may do', async () => {
    const editor = await createUser(server);
    await addMember(owner, orgId, editor, 'edit');
    const { data } = await editor.api.orgs.getOrganizationById(orgId);
    expect(data.permissions).toMatchObject({
      view: true,
      admin: false,
      createContent: false,
      listMembers: true,
    });
    const failure = await statusOf(editor.api.orgs.updateOrganizationById(orgId, { title: 'Not allowed' }));
    expect(failure.code).toBe(403);
    expect(failure.message).toContain('admin');

    const creator = await createUser(server);
    await addMember(owner, orgId, creator, 'create');
    expect((await creator.api.orgs.getOrganizationById(orgId)).data.permissions.createContent).toBe(true);

    const guest = await createUser(server);
    await addMember(owner, orgId, guest, null);
    const { data: seenByGuest } = await guest.api.orgs.getOrganizationById(orgId);
    expect(seenByGuest.permissions).toMatchObject({ view: true, access: false, listMembers: false });
  });
});

describe('repeated reads', () => {
  // The read of an organization is answered from one shared answer while the database is
  // unchanged (shared-answers.ts): a change of the organization or of the caller's role shows at once.
  it("shows a change of the organization, or of the caller's role, on the next read", async () => {
    const reader = await createUser(server);
    await addMember(owner, orgId, reader, 'read');
    const first = await reader.api.orgs.getOrganizationById(orgId);
    const again = await reader.api.orgs.getOrganizationById(orgId);
    expect(again.data).toEqual(first.data);
    expect(first.data.permissions.admin).toBe(false);
    expect((await owner.api.orgs.getOrganizationById(orgId)).data.permissions.admin).toBe(true);

    const title = `Renamed ${Date.now()}`;
    await owner.api.orgs.updateOrganizationById(orgId, { title });
    expect((await reader.api.orgs.getOrganizationById(orgId)).data.title).toBe(title);

    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'admin' as never });
    const promoted = await reader.api.orgs.getOrganizationById(orgId);
    expect(promoted.data.permissions.admin).toBe(true);
    expect(promoted.data.title).toBe(title);
  });
});

describe('email domains', () => {
  it('lets people of an allowed domain find and join the organization', async () => {
    const domain = `joiners${Date.now()}.test`;
    const open = await createOrg(owner, 'Open org');
    await owner.api.orgs.updateOrganizationById(open, {
      emailDomains: [domain],
      defaultRole: 'comment' as never,
    });
    const joiner = await createUser(server, { email: uniqueEmail(domain) });

    const { data: found } = await joiner.api.emailDomains.getOrganizationsForEmailDomain(domain);
    expect(found.organizations.map((o) => o.id)).toEqual([open]);
    expect(found.organizations[0]!.permissions.view).toBe(false);

    const res = await joiner.api.orgs.joinOrganization(open);
    expect(res.status).toBe(204);
    const { data: member } = await owner.api.orgs.getMemberInOrganizationById(open, joiner.id);
    expect(member.role).toBe('comment');
    // joining twice changes nothing
    expect((await joiner.api.orgs.joinOrganization(open)).status).toBe(204);
    expect((await joiner.api.orgs.getOrganizationById(open)).data.permissions.view).toBe(true);
  });

  it('answers outsiders of other domains like an unknown organization (404), guests with 400', async () => {
    const closed = await createOrg(owner, 'Closed org');
    await owner.api.orgs.updateOrganizationById(closed, { emailDomains: ['closed.test'] });
    const outsider = await createUser(server, { email: uniqueEmail('elsewhere.test') });
    // No existence oracle: an organization the caller may not see answers as one that is not there.
    const refused = await statusOf(outsider.api.orgs.joinOrganization(closed));
    const unknown = await statusOf(outsider.api.orgs.joinOrganization('no-such-org'));
    expect(refused.code).toBe(404);
    expect(unknown.code).toBe(404);
    expect(refused.message.replace(closed, 'ID')).toBe(unknown.message.replace('no-such-org', 'ID'));
    expect((await statusOf(outsider.api.orgs.getOrganizationById(closed))).code).toBe(404);
    // A guest sees the organization: being refused membership is then a 400 naming the reason.
    const guest = await createUser(server, { email: uniqueEmail('elsewhere.test') });
    await addMember(owner, closed, guest, null);
    const notAllowed = await statusOf(guest.api.orgs.joinOrganization(closed));
    expect(notAllowed.code).toBe(400);
    expect(notAllowed.message).toContain('elsewhere.test');
    expect((await owner.api.orgs.getMemberInOrganizationById(closed, guest.id)).data.role).toBeNull();
    // A member with a role has nothing to join.
    const member = await createUser(server, { email: uniqueEmail('elsewhere.test') });
    await addMember(owner, closed, member, 'read');
    expect((await member.api.orgs.joinOrganization(closed)).status).toBe(204);
  });

  it("lists organizations only for the caller's own domain", async () => {
    const someone = await createUser(server, { email: uniqueEmail('mine.test') });
    const failure = await statusOf(someone.api.emailDomains.getOrganizationsForEmailDomain('acme.test'));
    expect(failure.code).toBe(403);
    const { data } = await someone.api.emailDomains.getOrganizationsForEmailDomain('mine.test');
    expect(data.organizations).toEqual([]);
  });
});

describe('users', () => {
  it('returns the authenticated user', async () => {
    const { data } = await owner.api.user.getAuthenticatedUser();
    expect(data).toEqual({
      object: 'user',
      id: owner.id,
      displayName: 'Olive Owner',
      email: owner.email,
      urls: { location: `${server.url}/v1/users/${owner.id}` },
    });
  });

  it('shows users who share an organization and hides everyone else', async () => {
    const colleague = await createUser(server);
    await addMember(owner, orgId, colleague, 'read');
    const { data } = await colleague.api.users.getUserById(owner.id);
    expect(data.id).toBe(owner.id);
    const stranger = await createUser(server);
    expect((await statusOf(stranger.api.users.getUserById(owner.id))).code).toBe(404);
    expect((await statusOf(stranger.api.users.getUserById('unknown-user'))).code).toBe(404);
  });
});
