import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser, uniqueEmail } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Invites org');
});
afterAll(() => server.close());

describe('email invites', () => {
  it('adds existing accounts at once and new ones when their account is created', async () => {
    const existing = await createUser(server);
    const newcomer = uniqueEmail();
    const { data } = await admin.api.orgs.inviteUsersToOrganization(orgId, {
      emails: [existing.email.toUpperCase(), { email: newcomer, role: 'edit' as never }],
      role: 'comment' as never,
    });
    expect(data).toEqual({ users: [existing.id], invited: 1 });
    expect((await existing.api.orgs.getOrganizationById(orgId)).data.permissions.view).toBe(true);
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, existing.id)).data.role).toBe('comment');

    const created = await createUser(server, { email: newcomer });
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, created.id)).data.role).toBe('edit');
    const { data: mine } = await created.api.orgs.listOrganizationsForAuthenticatedUser();
    expect(mine.items.map((o) => o.id)).toEqual([orgId]);
  });

  it("never lowers a member's role", async () => {
    const editor = await createUser(server);
    await addMember(admin, orgId, editor, 'edit');
    await admin.api.orgs.inviteUsersToOrganization(orgId, { emails: [editor.email], role: 'read' as never });
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, editor.id)).data.role).toBe('edit');
  });

  it('validates addresses and roles, and only admins may invite', async () => {
    const bad = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/invites`, {
      token: admin.token,
      body: { emails: ['not-an-email'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('body.emails');
    const empty = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/invites`, {
      token: admin.token,
      body: { emails: [] },
    });
    expect(empty.status).toBe(400);
    const reader = await createUser(server);
    await addMember(admin, orgId, reader, 'read');
    expect(
      (await failure(reader.api.orgs.inviteUsersToOrganization(orgId, { emails: [uniqueEmail()] }))).code,
    ).toBe(403);
  });
});

describe('invite links', () => {
  it('creates, reads, lists, updates and deletes links', async () => {
    const created = await admin.api.orgs.createOrganizationInvite(orgId, { role: 'review' as never });
    expect(created.status).toBe(201);
    const link = created.data as { id: string; role: string; redundant: boolean; object: string };
    expect(link).toMatchObject({ object: 'invite', role: 'review', redundant: true });
    expect(link.id.length).toBeGreaterThanOrEqual(32);

    expect((await admin.api.orgs.getOrganizationInviteLink(orgId, link.id)).data).toEqual(link);
    const second = (await admin.api.orgs.createOrganizationInvite(orgId, { role: 'read' as never })).data as {
      id: string;
    };
    const { data: page1 } = await admin.api.orgs.listOrganizationInviteLinks(orgId, { limit: 1 });
    expect(page1.count).toBe(2);
    const { data: page2 } = await admin.api.orgs.listOrganizationInviteLinks(orgId, {
      limit: 1,
      page: page1.next!.page,
    });
    expect([...page1.items, ...page2.items].map((i) => (i as { id: string }).id)).toEqual([
      link.id,
      second.id,
    ]);
    expect(page2.next).toBeUndefined();

    const { data: updated } = await admin.api.orgs.updateOrganizationInviteById(orgId, link.id, {
      role: 'edit' as never,
    });
    expect((updated as { role: string }).role).toBe('edit');
    expect((await admin.api.orgs.deleteOrganizationInviteById(orgId, second.id)).status).toBe(204);
    expect((await admin.api.orgs.deleteOrganizationInviteById(orgId, second.id)).status).toBe(204);
    expect((await failure(admin.api.orgs.getOrganizationInviteLink(orgId, second.id))).code).toBe(404);
  });

  it('lets anyone holding a link join with its role', async () => {
    const { data } = await admin.api.orgs.createOrganizationInvite(orgId, { role: 'comment' as never });
    const joiner = await createUser(server);
    const res = await joiner.api.orgs.joinOrganizationWithInvite(orgId, (data as { id: string }).id);
    expect(res.status).toBe(200);
    expect(res.data).toEqual({});
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, joiner.id)).data.role).toBe('comment');
    expect((await failure(joiner.api.orgs.joinOrganizationWithInvite(orgId, 'guessed-invite-id'))).code).toBe(
      404,
    );
  });

  it('stops links from working when invite links are disabled', async () => {
    const { data } = await admin.api.orgs.createOrganizationInvite(orgId, { role: 'read' as never });
    await admin.api.orgs.updateOrganizationById(orgId, { inviteLinks: false });
    const joiner = await createUser(server);
    const refused = await failure(
      joiner.api.orgs.joinOrganizationWithInvite(orgId, (data as { id: string }).id),
    );
    expect(refused.code).toBe(403);
    expect((await failure(joiner.api.orgs.getOrganizationById(orgId))).code).toBe(404);
    expect(
      (await failure(admin.api.orgs.createOrganizationInvite(orgId, { role: 'read' as never }))).code,
    ).toBe(403);
    await admin.api.orgs.updateOrganizationById(orgId, { inviteLinks: true });
  });

  it('keeps links admin-only and validates bodies', async () => {
    const editor = await createUser(server);
    await addMember(admin, orgId, editor, 'edit');
    expect((await failure(editor.api.orgs.listOrganizationInviteLinks(orgId))).code).toBe(403);
    const bad = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/link-invites`, {
      token: admin.token,
      body: { role: 'king' },
    });
    expect(bad.status).toBe(400);
    const stranger = await createUser(server);
    expect((await failure(stranger.api.orgs.listOrganizationInviteLinks(orgId))).code).toBe(404);
  });

  it('invites to one space or collection, making newcomers guests there', async () => {
    const space = (await admin.api.orgs.createSpace(orgId, { title: 'Invited space' })).data;
    const collection = (await admin.api.orgs.createCollection(orgId, { title: 'Invited collection' })).data;
    const inner = (await admin.api.orgs.createSpace(orgId, { title: 'Inside', parent: collection.id })).data;
    const toSpace = (
      await admin.api.orgs.createOrganizationInvite(orgId, { level: 'comment', space: space.id } as never)
    ).data as { id: string; level: string; space: { id: string }; redundant: boolean };
    expect(toSpace).toMatchObject({
      object: 'invite',
      level: 'comment',
      redundant: true,
      space: { id: space.id },
    });
    const toCollection = (
      await admin.api.orgs.createOrganizationInvite(orgId, {
        level: 'edit',
        collection: collection.id,
      } as never)
    ).data as { id: string; collection: { id: string } };
    expect(toCollection.collection.id).toBe(collection.id);

    const newcomer = await createUser(server);
    await newcomer.api.orgs.joinOrganizationWithInvite(orgId, toSpace.id);
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, newcomer.id)).data.role).toBeNull();
    expect((await newcomer.api.spaces.getSpaceById(space.id)).data.permissions).toMatchObject({
      comment: true,
      edit: false,
    });
    expect((await failure(newcomer.api.spaces.getSpaceById(inner.id))).code).toBe(404);
    await newcomer.api.orgs.joinOrganizationWithInvite(orgId, toCollection.id);
    expect((await newcomer.api.spaces.getSpaceById(inner.id)).data.permissions.edit).toBe(true);

    const { data: updated } = await admin.api.orgs.updateOrganizationInviteById(orgId, toSpace.id, {
      level: 'read',
    } as never);
    expect((updated as { level: string }).level).toBe('read');
    const wrongField = await rawRequest(server.url, 'PATCH', `/v1/orgs/${orgId}/link-invites/${toSpace.id}`, {
      token: admin.token,
      body: { role: 'edit' },
    });
    expect(wrongField.status).toBe(400);
    const unknown = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/link-invites`, {
      token: admin.token,
      body: { level: 'read', space: 'no-such-space' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('body.space');
    // the organization's list holds organization links; these are read by id
    const listed = (await admin.api.orgs.listOrganizationInviteLinks(orgId)).data.items.map(
      (i) => (i as { id: string }).id,
    );
    expect(listed).not.toContain(toSpace.id);
    expect(
      ((await admin.api.orgs.getOrganizationInviteLink(orgId, toCollection.id)).data as { level: string })
        .level,
    ).toBe('edit');
    await admin.api.spaces.deleteSpaceById(space.id);
    expect((await failure(admin.api.orgs.getOrganizationInviteLink(orgId, toSpace.id))).code).toBe(404);
  });

  it('works through the 0.146 client too', async () => {
    const old = apiClient146(server.url, admin.token);
    const { data } = await old.orgs.listOrganizationInviteLinks(orgId);
    expect(data.items.length).toBeGreaterThan(0);
  });
});

describe('agent instructions', () => {
  const doc = {
    object: 'document' as const,
    data: {},
    nodes: [
      {
        object: 'block',
        type: 'paragraph',
        nodes: [
          {
            object: 'text',
            leaves: [{ object: 'leaf', text: 'Answer briefly.', marks: [{ object: 'mark', type: 'bold' }] }],
          },
        ],
      },
      {
        object: 'block',
        type: 'list-unordered',
        nodes: [
          {
            object: 'block',
            type: 'list-item',
            nodes: [
              {
                object: 'block',
                type: 'paragraph',
                nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Cite pages', marks: [] }] }],
              },
            ],
          },
        ],
      },
    ],
  };

  it('starts empty and keeps what an admin writes', async () => {
    const { data: initial } = await admin.api.orgs.getOrganizationAgentInstructions(orgId);
    expect(initial.instructions).toEqual({ object: 'document', data: {}, nodes: [] });
    const { data } = await admin.api.orgs.updateOrganizationAgentInstructions(orgId, {
      instructions: doc as never,
    });
    expect(data.instructions).toEqual(doc);
    expect(data.updatedBy).toBe(admin.id);
    const reader = await createUser(server);
    await addMember(admin, orgId, reader, 'read');
    expect((await reader.api.orgs.getOrganizationAgentInstructions(orgId)).data.instructions).toEqual(doc);
    expect(
      (
        await failure(
          reader.api.orgs.updateOrganizationAgentInstructions(orgId, { instructions: doc as never }),
        )
      ).code,
    ).toBe(403);
  });

  it('refuses a malformed document, naming the node, and keeps the old one', async () => {
    const broken = structuredClone(doc) as { nodes: Array<{ type: string }> };
    broken.nodes[1]!.type = 'marquee';
    const res = await rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/agent-instructions`, {
      token: admin.token,
      body: { instructions: broken },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('body.instructions.nodes.1');
    expect((await admin.api.orgs.getOrganizationAgentInstructions(orgId)).data.instructions).toEqual(doc);
  });
});
