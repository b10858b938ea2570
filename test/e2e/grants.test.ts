import { GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Grants org');
});
afterAll(() => server.close());

describe('grants on spaces and collections', () => {
  it('gives a guest access to one space only, and takes it back', async () => {
    const guest = await createUser(server);
    await addMember(admin, orgId, guest, null);
    const open = (await admin.api.orgs.createSpace(orgId, { title: 'Shared' })).data;
    const closed = (await admin.api.orgs.createSpace(orgId, { title: 'Not shared' })).data;
    expect((await failure(guest.api.spaces.getSpaceById(open.id))).code).toBe(404);

    expect(
      (await admin.api.spaces.inviteToSpace(open.id, { role: 'comment', users: [guest.id] } as never)).status,
    ).toBe(204);
    expect((await guest.api.spaces.getSpaceById(open.id)).data.permissions).toMatchObject({
      comment: true,
      edit: false,
    });
    expect((await failure(guest.api.spaces.getSpaceById(closed.id))).code).toBe(404);
    const listed = (await guest.api.orgs.listSpacesInOrganizationById(orgId)).data.items.map((s) => s.id);
    expect(listed).toEqual([open.id]);

    const { data: grants } = await admin.api.spaces.listUserPermissionsInSpace(open.id);
    expect(grants.items.map((g) => [g.user.id, g.permission])).toContainEqual([guest.id, 'comment']);

    expect(
      (await admin.api.spaces.updateUserPermissionInSpace(open.id, guest.id, { role: 'edit' } as never))
        .status,
    ).toBe(204);
    expect((await guest.api.spaces.getSpaceById(open.id)).data.permissions.edit).toBe(true);
    expect((await admin.api.spaces.removeUserFromSpace(open.id, guest.id)).status).toBe(204);
    expect((await failure(guest.api.spaces.getSpaceById(open.id))).code).toBe(404);
    expect(
      (
        await failure(
          admin.api.spaces.updateUserPermissionInSpace(open.id, guest.id, { role: 'edit' } as never),
        )
      ).code,
    ).toBe(404);
  });

  it('reaches everything below a collection, through teams too', async () => {
    const guest = await createUser(server);
    await addMember(admin, orgId, guest, null);
    const team = (
      await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Readers', members: [guest.id] })
    ).data;
    const top = (await admin.api.orgs.createCollection(orgId, { title: 'Team top' })).data;
    const mid = (await admin.api.orgs.createCollection(orgId, { title: 'Team mid', parent: top.id })).data;
    const deep = (await admin.api.orgs.createSpace(orgId, { title: 'Deep', parent: mid.id })).data;
    expect((await failure(guest.api.spaces.getSpaceById(deep.id))).code).toBe(404);
    await admin.api.collections.inviteToCollection(top.id, { role: 'read', teams: [team.id] } as never);
    expect((await guest.api.spaces.getSpaceById(deep.id)).data.permissions).toMatchObject({
      view: true,
      comment: false,
    });
    expect((await guest.api.collections.getCollectionById(mid.id)).data.permissions.view).toBe(true);
    const { data: teamGrants } = await admin.api.collections.listTeamPermissionsInCollection(top.id);
    expect(teamGrants.items.map((g) => [g.team.id, g.permission])).toEqual([[team.id, 'read']]);

    // a grant lower down adds to what comes from above
    await admin.api.spaces.inviteToSpace(deep.id, { role: 'edit', users: [guest.id] } as never);
    expect((await guest.api.spaces.getSpaceById(deep.id)).data.permissions.edit).toBe(true);

    await admin.api.collections.updateTeamPermissionInCollection(top.id, team.id, {
      role: 'comment',
    } as never);
    await admin.api.spaces.removeUserFromSpace(deep.id, guest.id);
    expect((await guest.api.spaces.getSpaceById(deep.id)).data.permissions).toMatchObject({
      comment: true,
      edit: false,
    });
    await admin.api.collections.removeTeamFromCollection(top.id, team.id);
    expect((await failure(guest.api.spaces.getSpaceById(deep.id))).code).toBe(404);
  });

  it('follows default levels: inherit, a role, or none', async () => {
    const reader = await createUser(server);
    await addMember(admin, orgId, reader, 'read');
    const c = (await admin.api.orgs.createCollection(orgId, { title: 'Levels' })).data;
    const s = (await admin.api.orgs.createSpace(orgId, { title: 'Levelled', parent: c.id })).data;
    expect((await reader.api.spaces.getSpaceById(s.id)).data.permissions.edit).toBe(false);
    await admin.api.collections.updateCollectionById(c.id, { defaultLevel: 'edit' } as never);
    expect((await reader.api.spaces.getSpaceById(s.id)).data.permissions.edit).toBe(true);
    await admin.api.spaces.updateSpaceById(s.id, { defaultLevel: null } as never);
    expect((await failure(reader.api.spaces.getSpaceById(s.id))).code).toBe(404);
    await admin.api.spaces.updateSpaceById(s.id, { defaultLevel: 'inherit' } as never);
    await admin.api.collections.updateCollectionById(c.id, { defaultLevel: null });
    expect((await failure(reader.api.spaces.getSpaceById(s.id))).code).toBe(404);
    expect((await failure(reader.api.collections.getCollectionById(c.id))).code).toBe(404);
  });

  it('ends grants and team memberships when a member leaves', async () => {
    const leaver = await createUser(server);
    await addMember(admin, orgId, leaver, null);
    const team = (
      await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Left behind', members: [leaver.id] })
    ).data;
    const s = (await admin.api.orgs.createSpace(orgId, { title: 'Was shared' })).data;
    await admin.api.spaces.inviteToSpace(s.id, { role: 'edit', users: [leaver.id] } as never);
    await leaver.api.orgs.removeMemberFromOrganizationById(orgId, leaver.id);
    await addMember(admin, orgId, leaver, null);
    expect((await failure(leaver.api.spaces.getSpaceById(s.id))).code).toBe(404);
    expect((await admin.api.orgs.getTeamInOrganizationById(orgId, team.id)).data.members).toBe(0);
  });

  it('makes creators admins of what they create', async () => {
    const creator = await createUser(server);
    await addMember(admin, orgId, creator, 'create');
    const c = (await creator.api.orgs.createCollection(orgId, { title: 'Mine' })).data;
    expect(c.permissions.admin).toBe(true);
    const s = (await creator.api.orgs.createSpace(orgId, { title: 'Mine too', parent: c.id })).data;
    expect(s.permissions.admin).toBe(true);
    expect((await creator.api.spaces.updateSpaceById(s.id, { title: 'Renamed' })).data.title).toBe('Renamed');
  });

  it('refuses unknown users, teams of other organizations and bad roles, writing nothing', async () => {
    const s = (await admin.api.orgs.createSpace(orgId, { title: 'Strict' })).data;
    const member = await createUser(server);
    await addMember(admin, orgId, member, 'read');
    const stranger = await createUser(server);
    const otherOrg = await createOrg(stranger, 'Stranger org');
    const foreignTeam = (await stranger.api.orgs.createOrganizationTeam(otherOrg, { title: 'Foreign' })).data;
    const cases: Array<[object, string]> = [
      [{ role: 'edit', users: [member.id, stranger.id] }, 'body.users.1'],
      [{ role: 'edit', teams: [foreignTeam.id] }, 'body.teams.0'],
      [{ role: 'owner', users: [member.id] }, 'body.role'],
      [{ role: 'edit' }, 'users or teams'],
      [{ users: [member.id] }, 'body.role'],
    ];
    for (const [body, message] of cases) {
      const res = await rawRequest(server.url, 'POST', `/v1/spaces/${s.id}/permissions`, {
        token: admin.token,
        body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toContain(message);
    }
    const { data } = await admin.api.spaces.listUserPermissionsInSpace(s.id);
    expect(data.items.map((g) => g.user.id)).not.toContain(member.id);
  });
});

describe('another organization', () => {
  it("gets 404 on every one of this organization's objects", async () => {
    const c = (await admin.api.orgs.createCollection(orgId, { title: 'Hidden' })).data;
    const s = (await admin.api.orgs.createSpace(orgId, { title: 'Hidden space', parent: c.id })).data;
    const team = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Hidden team' })).data;
    const other = await createUser(server);
    await createOrg(other, 'Elsewhere');
    const api = other.api;
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['getOrganizationById', () => api.orgs.getOrganizationById(orgId)],
      ['listCollections', () => api.orgs.listCollectionsInOrganizationById(orgId)],
      ['createCollection', () => api.orgs.createCollection(orgId, { title: 'x' })],
      ['getCollection', () => api.collections.getCollectionById(c.id)],
      ['updateCollection', () => api.collections.updateCollectionById(c.id, { title: 'x' })],
      ['listSpacesInCollection', () => api.collections.listSpacesInCollectionById(c.id)],
      ['moveCollection', () => api.collections.moveCollection(c.id, { parent: null })],
      ['transferCollection', () => api.collections.transferCollection(c.id, { organization: orgId })],
      ['listSpaces', () => api.orgs.listSpacesInOrganizationById(orgId)],
      ['createSpace', () => api.orgs.createSpace(orgId, { title: 'x' })],
      ['getSpace', () => api.spaces.getSpaceById(s.id)],
      ['updateSpace', () => api.spaces.updateSpaceById(s.id, { title: 'x' })],
      ['duplicateSpace', () => api.spaces.duplicateSpace(s.id)],
      ['restoreSpace', () => api.spaces.restoreSpace(s.id)],
      ['moveSpace', () => api.spaces.moveSpace(s.id, { parent: null })],
      ['inviteToSpace', () => api.spaces.inviteToSpace(s.id, { role: 'read', users: [other.id] } as never)],
      ['listSpaceGrants', () => api.spaces.listUserPermissionsInSpace(s.id)],
      [
        'inviteToCollection',
        () => api.collections.inviteToCollection(c.id, { role: 'read', users: [other.id] } as never),
      ],
      ['listTeams', () => api.orgs.listTeamsInOrganizationById(orgId)],
      ['getTeam', () => api.orgs.getTeamInOrganizationById(orgId, team.id)],
      ['updateTeam', () => api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'x' })],
      ['teamMembers', () => api.orgs.listTeamMembersInOrganizationById(orgId, team.id)],
      ['listMembers', () => api.orgs.listMembersInOrganizationById(orgId)],
    ];
    for (const [name, call] of calls) {
      const outcome = await call().then(
        () => 'ok',
        (error) => (error instanceof GitBookAPIError ? error.code : error),
      );
      expect(outcome, name).toBe(404);
    }
    // deletes answer 404 like every other call, and change nothing
    expect((await failure(api.spaces.deleteSpaceById(s.id))).code).toBe(404);
    expect((await failure(api.collections.deleteCollectionById(c.id))).code).toBe(404);
    expect((await admin.api.spaces.getSpaceById(s.id)).data.id).toBe(s.id);
    expect((await admin.api.collections.getCollectionById(c.id)).data.id).toBe(c.id);
  });
});
