import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Teams org');
  ann = await createUser(server, { name: 'Ann' });
  bob = await createUser(server, { name: 'Bob' });
  await addMember(admin, orgId, ann, 'edit');
  await addMember(admin, orgId, bob, 'read');
});
afterAll(() => server.close());

describe('teams', () => {
  it('creates a team with members and reads it', async () => {
    const res = await admin.api.orgs.createOrganizationTeam(orgId, {
      title: 'Writers',
      members: [ann.id, bob.id],
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      object: 'team',
      title: 'Writers',
      members: 2,
      spaces: 0,
      permissions: { admin: true, view: true },
    });
    const { data } = await ann.api.orgs.getTeamInOrganizationById(orgId, res.data.id);
    expect(data).toMatchObject({ id: res.data.id, members: 2, permissions: { admin: false, view: true } });
    const { data: members } = await admin.api.orgs.listTeamMembersInOrganizationById(orgId, res.data.id);
    expect(members.items.map((m) => m.organization.user.displayName).sort()).toEqual(['Ann', 'Bob']);
    expect(members.items.find((m) => m.organization.user.id === ann.id)).toMatchObject({
      team: { role: 'member' },
      organization: { role: 'edit', teams: 1 },
    });
  });

  it('filters by title and by the member who can manage them', async () => {
    await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Design Crew' });
    const owned = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Ops crew' })).data;
    await admin.api.orgs.addMemberToOrganizationTeamById(orgId, owned.id, bob.id, { role: 'owner' } as never);
    const byTitle = (
      await admin.api.orgs.listTeamsInOrganizationById(orgId, { title: 'CREW' })
    ).data.items.map((t) => t.title);
    expect(byTitle.sort()).toEqual(['Design Crew', 'Ops crew']);
    const bobs = (await admin.api.orgs.listTeamsInOrganizationById(orgId, { owner: bob.id })).data.items.map(
      (t) => t.title,
    );
    expect(bobs).toEqual(['Ops crew']);
    const admins = (await admin.api.orgs.listTeamsInOrganizationById(orgId, { owner: admin.id })).data;
    expect(admins.count).toBeGreaterThanOrEqual(3);
    const bad = await rawRequest(server.url, 'GET', `/v1/orgs/${orgId}/teams?owner=stranger`, {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
  });

  it('lets owners manage their team and nobody else', async () => {
    const team = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Owned' })).data;
    expect(
      (await failure(bob.api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Mine' }))).code,
    ).toBe(403);
    expect((await ann.api.orgs.getOrganizationById(orgId)).data.permissions.ownTeam).toBe(false);
    await admin.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, bob.id, { role: 'owner' } as never);
    expect((await bob.api.orgs.getOrganizationById(orgId)).data.permissions.ownTeam).toBe(true);
    const { data } = await bob.api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Mine now' });
    expect(data).toMatchObject({ title: 'Mine now', permissions: { admin: true } });
    const bodyless = await rawRequest(
      server.url,
      'PUT',
      `/v1/orgs/${orgId}/teams/${team.id}/members/${ann.id}`,
      {
        token: bob.token,
      },
    );
    expect(bodyless.status).toBe(204);
    expect(
      (
        await failure(
          ann.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, ann.id, { role: 'owner' } as never),
        )
      ).code,
    ).toBe(403);
    expect((await ann.api.orgs.deleteMemberFromOrganizationTeamById(orgId, team.id, ann.id)).status).toBe(
      204,
    );
    expect((await failure(ann.api.orgs.createOrganizationTeam(orgId, { title: 'Not allowed' }))).code).toBe(
      403,
    );
  });

  it('adds, re-roles and removes members in one call', async () => {
    const team = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Batch' })).data;
    const res = await admin.api.orgs.updateMembersInOrganizationTeam(orgId, team.id, {
      add: [ann.id],
      memberships: { [bob.id]: { role: 'owner' } } as never,
    });
    expect(res.status).toBe(204);
    let members = (await admin.api.orgs.listTeamMembersInOrganizationById(orgId, team.id)).data.items;
    expect(Object.fromEntries(members.map((m) => [m.organization.user.id, m.team.role]))).toEqual({
      [ann.id]: 'member',
      [bob.id]: 'owner',
    });
    await admin.api.orgs.updateMembersInOrganizationTeam(orgId, team.id, { remove: [ann.id] });
    members = (await admin.api.orgs.listTeamMembersInOrganizationById(orgId, team.id)).data.items;
    expect(members.map((m) => m.organization.user.id)).toEqual([bob.id]);
    const stranger = await createUser(server);
    const refused = await rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/teams/${team.id}/members`, {
      token: admin.token,
      body: { add: [stranger.id] },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('not a member');
    expect((await admin.api.orgs.getTeamInOrganizationById(orgId, team.id)).data.members).toBe(1);
  });

  it('validates titles and deletes teams, with their grants', async () => {
    for (const body of [{ title: '' }, { title: 'x'.repeat(65) }, {}]) {
      const res = await rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/teams`, {
        token: admin.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('body.title');
    }
    const team = (
      await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Short lived', members: [bob.id] })
    ).data;
    const space = (await admin.api.orgs.createSpace(orgId, { title: 'Team space' })).data;
    await admin.api.spaces.inviteToSpace(space.id, { role: 'edit', teams: [team.id] } as never);
    expect((await admin.api.orgs.getTeamInOrganizationById(orgId, team.id)).data.spaces).toBe(1);
    expect((await admin.api.orgs.removeTeamFromOrganizationById(orgId, team.id)).status).toBe(204);
    expect((await admin.api.orgs.removeTeamFromOrganizationById(orgId, team.id)).status).toBe(204);
    expect((await failure(admin.api.orgs.getTeamInOrganizationById(orgId, team.id))).code).toBe(404);
    expect((await admin.api.spaces.listTeamPermissionsInSpace(space.id)).data.items).toEqual([]);
  });

  it('hides teams from other organizations', async () => {
    const team = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Private' })).data;
    const stranger = await createUser(server);
    const theirs = await createOrg(stranger, 'Theirs');
    expect((await failure(stranger.api.orgs.getTeamInOrganizationById(orgId, team.id))).code).toBe(404);
    expect((await failure(stranger.api.orgs.getTeamInOrganizationById(theirs, team.id))).code).toBe(404);
    expect((await failure(stranger.api.orgs.listTeamsInOrganizationById(orgId))).code).toBe(404);
  });
});
