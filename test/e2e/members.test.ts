import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;
const people: Record<string, TestUser> = {};

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server, { name: 'Ada Admin' });
  orgId = await createOrg(admin, 'Members org');
  const roster: Array<[string, 'edit' | 'read' | 'comment' | null]> = [
    ['Zoe Zimmer', 'edit'],
    ['Bob Baker', 'read'],
    ['Émile Écrivain', 'comment'],
    ['Gus Guest', null],
    ['Mia Moreau', 'read'],
  ];
  for (const [name, role] of roster) {
    const user = await createUser(server, { name });
    await addMember(admin, orgId, user, role);
    people[name] = user;
  }
});
afterAll(() => server.close());

async function allMembers(user: TestUser, query: Record<string, unknown> = {}): Promise<string[]> {
  const names: string[] = [];
  let page: string | undefined;
  do {
    const { data } = await user.api.orgs.listMembersInOrganizationById(orgId, { ...query, page } as never);
    names.push(...data.items.map((m) => m.user.displayName));
    page = data.next?.page;
  } while (page);
  return names;
}

describe('listing members', () => {
  it('lists newest first by default, with user objects and counts', async () => {
    const { data } = await admin.api.orgs.listMembersInOrganizationById(orgId);
    expect(data.count).toBe(6);
    expect(data.items[0]!.user.displayName).toBe('Mia Moreau');
    expect(data.items.at(-1)!.user.displayName).toBe('Ada Admin');
    expect(data.items[0]).toMatchObject({
      object: 'member',
      role: 'read',
      disabled: false,
      sso: false,
      teams: 0,
    });
  });

  it('sorts by name in both orders and pages through the same order', async () => {
    const asc = await allMembers(admin, { sort: 'name', order: 'asc', limit: 2 });
    // Accented names sort where each database's collation puts them; plain ones are alphabetical.
    expect(asc.filter((n) => n !== 'Émile Écrivain')).toEqual([
      'Ada Admin',
      'Bob Baker',
      'Gus Guest',
      'Mia Moreau',
      'Zoe Zimmer',
    ]);
    const desc = await allMembers(admin, { sort: 'name', order: 'desc', limit: 2 });
    expect(desc).toEqual([...asc].reverse());
    expect(new Set(asc).size).toBe(6);
  });

  it('sorts by join date ascending', async () => {
    const names = await allMembers(admin, { sort: 'joinedAt', order: 'asc', limit: 4 });
    expect(names).toEqual([
      'Ada Admin',
      'Zoe Zimmer',
      'Bob Baker',
      'Émile Écrivain',
      'Gus Guest',
      'Mia Moreau',
    ]);
  });

  it('sorts by last seen, most recent first', async () => {
    await people['Bob Baker']!.api.orgs.getOrganizationById(orgId);
    const names = await allMembers(admin, { sort: 'lastSeenAt', order: 'desc' });
    expect(names.slice(0, 2).sort()).toEqual(['Ada Admin', 'Bob Baker']);
    const { data } = await admin.api.orgs.getMemberInOrganizationById(orgId, people['Bob Baker']!.id);
    expect(data.lastSeenAt).toBeDefined();
  });

  it('filters by role, guests and search text', async () => {
    expect((await allMembers(admin, { role: 'read' })).sort()).toEqual(['Bob Baker', 'Mia Moreau']);
    expect(await allMembers(admin, { role: 'guest' })).toEqual(['Gus Guest']);
    expect(await allMembers(admin, { search: 'zim' })).toEqual(['Zoe Zimmer']);
    expect(await allMembers(admin, { search: people['Bob Baker']!.email.slice(0, 10) })).toEqual([
      'Bob Baker',
    ]);
    expect(await allMembers(admin, { search: '100%_' })).toEqual([]);
  });

  it('rejects bad list parameters with 400 naming them', async () => {
    const base = `/v1/orgs/${orgId}/members`;
    for (const [query, field] of [
      ['?limit=0', 'querystring.limit'],
      ['?limit=1001', 'querystring.limit'],
      ['?limit=abc', 'querystring.limit'],
      ['?sort=height', 'querystring.sort'],
      ['?order=sideways', 'querystring.order'],
      ['?role=owner', 'querystring.role'],
      ['?page=garbage', 'querystring.page'],
    ] as const) {
      const res = await rawRequest(server.url, 'GET', base + query, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect(res.text, query).toContain(field);
    }
    const { data } = await admin.api.orgs.listMembersInOrganizationById(orgId, {
      limit: 2,
      sort: 'name',
    } as never);
    const replayed = await rawRequest(server.url, 'GET', `${base}?sort=joinedAt&page=${data.next!.page}`, {
      token: admin.token,
    });
    expect(replayed.status).toBe(400);
  });

  it('keeps members of other organizations out', async () => {
    const stranger = await createUser(server);
    expect((await failure(stranger.api.orgs.listMembersInOrganizationById(orgId))).code).toBe(404);
    expect((await failure(stranger.api.orgs.getMemberInOrganizationById(orgId, admin.id))).code).toBe(404);
    expect((await failure(people['Gus Guest']!.api.orgs.listMembersInOrganizationById(orgId))).code).toBe(
      403,
    );
  });
});

describe('changing and removing members', () => {
  it('lets an admin change a role and a member read it', async () => {
    const zoe = people['Zoe Zimmer']!;
    const { data } = await admin.api.orgs.updateMemberInOrganizationById(orgId, zoe.id, {
      role: 'review' as never,
    });
    expect(data.role).toBe('review');
    expect((await zoe.api.orgs.getMemberInOrganizationById(orgId, zoe.id)).data.role).toBe('review');
    const { data: guest } = await admin.api.orgs.updateMemberInOrganizationById(orgId, zoe.id, {
      role: null,
    });
    expect(guest.role).toBeNull();
    await admin.api.orgs.updateMemberInOrganizationById(orgId, zoe.id, { role: 'edit' as never });
  });

  it('refuses role changes from non-admins and unknown roles', async () => {
    const bob = people['Bob Baker']!;
    expect(
      (await failure(bob.api.orgs.updateMemberInOrganizationById(orgId, bob.id, { role: 'admin' as never })))
        .code,
    ).toBe(403);
    const res = await rawRequest(server.url, 'PATCH', `/v1/orgs/${orgId}/members/${bob.id}`, {
      token: admin.token,
      body: { role: 'superuser' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('body.role');
    expect(
      (
        await failure(
          admin.api.orgs.updateMemberInOrganizationById(orgId, 'nobody', { role: 'read' as never }),
        )
      ).code,
    ).toBe(404);
  });

  it('never removes or demotes the last admin (409)', async () => {
    const solo = await createUser(server);
    const soloOrg = await createOrg(solo, 'Solo org');
    const demote = await failure(
      solo.api.orgs.updateMemberInOrganizationById(soloOrg, solo.id, { role: 'edit' as never }),
    );
    expect(demote.code).toBe(409);
    expect(demote.message).toContain('last admin');
    expect((await failure(solo.api.orgs.removeMemberFromOrganizationById(soloOrg, solo.id))).code).toBe(409);
    expect((await solo.api.orgs.getMemberInOrganizationById(soloOrg, solo.id)).data.role).toBe('admin');

    const second = await createUser(server);
    await addMember(solo, soloOrg, second, 'admin');
    await solo.api.orgs.updateMemberInOrganizationById(soloOrg, solo.id, { role: 'edit' as never });
    expect((await failure(second.api.orgs.removeMemberFromOrganizationById(soloOrg, second.id))).code).toBe(
      409,
    );
  });

  it('lets members leave, admins remove anyone, and answers 204 for absent members', async () => {
    const mia = people['Mia Moreau']!;
    const bob = people['Bob Baker']!;
    expect((await failure(bob.api.orgs.removeMemberFromOrganizationById(orgId, mia.id))).code).toBe(403);
    expect((await mia.api.orgs.removeMemberFromOrganizationById(orgId, mia.id)).status).toBe(204);
    expect((await failure(mia.api.orgs.getOrganizationById(orgId))).code).toBe(404);
    expect((await admin.api.orgs.removeMemberFromOrganizationById(orgId, bob.id)).status).toBe(204);
    expect((await admin.api.orgs.removeMemberFromOrganizationById(orgId, bob.id)).status).toBe(204);
    expect((await failure(admin.api.orgs.getMemberInOrganizationById(orgId, bob.id))).code).toBe(404);
  });
});
