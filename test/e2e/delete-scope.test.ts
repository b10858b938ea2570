import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The DELETE scope rule (src/areas/spaces/service.ts, SpaceService.delete): what the caller may
 * not see answers 404, as GET does, on every DELETE route; inside what they see, deleting what is
 * not there answers 204.
 */

let server: TestServer;
let outsider: TestUser;
let member: TestUser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  const api = server.admin.api;
  const orgId = server.admin.orgId;
  ids.org = orgId;
  member = await createUser(server);
  await addMember({ ...server.admin, id: server.admin.userId } as never, orgId, member, 'read');
  outsider = await createUser(server);
  await createOrg(outsider, 'Outsider org');

  ids.collection = (await api.orgs.createCollection(orgId, { title: 'Kept collection' })).data.id;
  ids.space = (await api.orgs.createSpace(orgId, { title: 'Kept space' })).data.id;
  ids.published = (await api.orgs.createSpace(orgId, { title: 'Published space' })).data.id;
  ids.team = (
    await api.orgs.createOrganizationTeam(orgId, { title: 'Kept team', members: [member.id] } as never)
  ).data.id;
  ids.invite = (await api.orgs.createOrganizationInvite(orgId, { role: 'read' as never })).data.id;
  for (const [target, path] of [
    ['space', `/v1/spaces/${ids.space}/permissions`],
    ['collection', `/v1/collections/${ids.collection}/permissions`],
  ] as const) {
    const res = await rawRequest(server.url, 'POST', path, {
      token: server.admin.token,
      body: { role: 'comment', users: [member.id], teams: [ids.team] },
    });
    expect(res.status, `grants on the ${target}`).toBeLessThan(300);
  }
  ids.site = (await api.orgs.createSite(orgId, { title: 'Kept site', spaces: [ids.space] } as never)).data.id;
  ids.section = (
    await api.orgs.addSectionToSite(orgId, ids.site, { spaceId: ids.space, title: 'Second' })
  ).data.id;
  ids.group = (
    await api.orgs.addSectionGroupToSite(orgId, ids.site, { title: 'Group', sections: [ids.section] })
  ).data.id;
  ids.siteSpace = (
    await api.orgs.addSpaceToSite(orgId, ids.site, {
      spaceId: ids.published,
      sectionId: ids.section,
    } as never)
  ).data.id;
  ids.shareLink = (await api.orgs.createSiteShareLink(orgId, ids.site, { name: 'Kept link' })).data.id;
  ids.comment = (await api.spaces.postCommentInSpace(ids.space, { body: { markdown: 'Kept' } })).data.id;
  ids.reply = (
    await api.spaces.postCommentReplyInSpace(ids.space, ids.comment, { body: { markdown: 'Kept reply' } })
  ).data.id;
  ids.changeRequest = (await api.spaces.createChangeRequest(ids.space, { subject: 'Kept' })).data.id;
  await api.spaces.requestReviewersForChangeRequest(ids.space, ids.changeRequest, { users: [member.id] });
});
afterAll(() => server.close());

/** Every DELETE route of the API, on objects of the admin's organization. */
function deletePaths(): Array<[string, string]> {
  const o = `/v1/orgs/${ids.org}`;
  const site = `${o}/sites/${ids.site}`;
  const space = `/v1/spaces/${ids.space}`;
  const cr = `${space}/change-requests/${ids.changeRequest}`;
  return [
    ['deleteSpaceById', space],
    ['deleteCollectionById', `/v1/collections/${ids.collection}`],
    ['removeTeamFromOrganizationById', `${o}/teams/${ids.team}`],
    ['deleteMemberFromOrganizationTeamById', `${o}/teams/${ids.team}/members/${member.id}`],
    ['removeMemberFromOrganizationById', `${o}/members/${member.id}`],
    ['deleteOrganizationInviteById', `${o}/link-invites/${ids.invite}`],
    ['deleteSiteById', site],
    ['deleteSiteSectionById', `${site}/sections/${ids.section}`],
    ['deleteSiteSectionGroupById', `${site}/section-groups/${ids.group}`],
    ['removeSectionFromGroup', `${site}/section-groups/${ids.group}/sections/${ids.section}`],
    ['deleteSiteSpaceById', `${site}/site-spaces/${ids.siteSpace}`],
    ['deleteSiteShareLinkById', `${site}/share-links/${ids.shareLink}`],
    ['deleteCommentInSpace', `${space}/comments/${ids.comment}`],
    ['deleteCommentReplyInSpace', `${space}/comments/${ids.comment}/replies/${ids.reply}`],
    ['removeRequestedReviewerFromChangeRequest', `${cr}/requested-reviewers/${member.id}`],
    ['deleteLegacyGitInstallation', `${space}/git/legacy-installation`],
    ['removeUserFromSpace', `${space}/permissions/users/${member.id}`],
    ['removeTeamFromSpace', `${space}/permissions/teams/${ids.team}`],
    ['removeUserFromCollection', `/v1/collections/${ids.collection}/permissions/users/${member.id}`],
    ['removeTeamFromCollection', `/v1/collections/${ids.collection}/permissions/teams/${ids.team}`],
  ];
}

describe('DELETE by someone outside the organization', () => {
  it('answers 404 on every DELETE route and deletes nothing', async () => {
    for (const [operation, path] of deletePaths()) {
      const res = await rawRequest(server.url, 'DELETE', path, { token: outsider.token });
      expect(res.status, `${operation} ${path}`).toBe(404);
      expect(res.body, operation).toEqual({
        error: { code: 404, message: expect.stringContaining('not found') },
      });
    }
    const api = server.admin.api;
    const orgId = ids.org!;
    expect((await api.spaces.getSpaceById(ids.space!)).status).toBe(200);
    expect((await api.collections.getCollectionById(ids.collection!)).status).toBe(200);
    const team = (await api.orgs.listTeamMembersInOrganizationById(orgId, ids.team!)).data.items;
    expect(team.map((m) => m.organization.user.id)).toEqual([member.id]);
    expect((await api.orgs.getMemberInOrganizationById(orgId, member.id)).data.role).toBe('read');
    expect((await api.orgs.getSiteById(orgId, ids.site!)).status).toBe(200);
    const links = (await api.orgs.listSiteShareLinks(orgId, ids.site!)).data.items;
    expect(links.map((l) => l.id)).toEqual([ids.shareLink]);
    expect((await api.spaces.getCommentReplyInSpace(ids.space!, ids.comment!, ids.reply!)).status).toBe(200);
    const grants = (await api.spaces.listUserPermissionsInSpace(ids.space!)).data.items;
    expect(grants.map((g) => g.user.id)).toContain(member.id);
    const { data: reviewers } = await api.spaces.getRequestedReviewersByChangeRequestId(
      ids.space!,
      ids.changeRequest!,
    );
    expect(reviewers.items).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ id: member.id }) }),
    ]);
  });

  it('answers a space or collection of another organization like an id that never existed', async () => {
    for (const kind of ['spaces', 'collections'] as const) {
      const real = await rawRequest(server.url, 'DELETE', `/v1/${kind}/${ids[kind.slice(0, -1)]}`, {
        token: outsider.token,
      });
      const never = await rawRequest(server.url, 'DELETE', `/v1/${kind}/never-existed`, {
        token: outsider.token,
      });
      expect([real.status, never.status]).toEqual([404, 404]);
    }
  });
});

describe('DELETE inside the organization', () => {
  it('answers 204 for what is not there under what the caller sees', async () => {
    const o = `/v1/orgs/${ids.org}`;
    const site = `${o}/sites/${ids.site}`;
    const space = `/v1/spaces/${ids.space}`;
    for (const path of [
      `${o}/teams/no-such-team`,
      `${o}/members/no-such-user`,
      `${o}/link-invites/no-such-invite`,
      `${o}/sites/no-such-site`,
      `${site}/sections/no-such-section`,
      `${site}/section-groups/no-such-group`,
      `${site}/site-spaces/no-such-site-space`,
      `${site}/share-links/no-such-link`,
      `${space}/comments/no-such-comment`,
      `${space}/permissions/users/no-such-user`,
    ]) {
      const res = await rawRequest(server.url, 'DELETE', path, { token: server.admin.token });
      expect(res.status, path).toBe(204);
    }
  });

  it('deletes a space or collection once, then answers 204 again while it is in the trash', async () => {
    const api = server.admin.api;
    const space = (await api.orgs.createSpace(ids.org!, { title: 'Twice' })).data.id;
    const collection = (await api.orgs.createCollection(ids.org!, { title: 'Twice' })).data.id;
    for (const path of [`/v1/spaces/${space}`, `/v1/collections/${collection}`]) {
      expect((await rawRequest(server.url, 'DELETE', path, { token: server.admin.token })).status).toBe(204);
      expect((await rawRequest(server.url, 'DELETE', path, { token: server.admin.token })).status).toBe(204);
      expect((await rawRequest(server.url, 'GET', path, { token: server.admin.token })).status).toBe(404);
    }
    expect((await api.spaces.restoreSpace(space)).status).toBe(200);
    // A member who sees the space but may not delete it is refused, not told it is gone.
    const refused = await rawRequest(server.url, 'DELETE', `/v1/spaces/${space}`, { token: member.token });
    expect(refused.status).toBe(403);
  });
});
