import { GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The permission matrix: every role against every operation on collections, spaces and teams,
 * through the API, with the `permissions` booleans each object reports for that role.
 */

type Who = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest' | 'none' | 'outsider';
const EVERYONE: Who[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'none', 'outsider'];

let server: TestServer;
let owner: TestUser;
let orgId: string;
const users = {} as Record<Who, TestUser>;

/** 'ok', or the error status. */
async function attempt(call: () => Promise<unknown>): Promise<'ok' | number> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof GitBookAPIError) return error.code;
    throw error;
  }
}

/** Runs `op` for every caller and compares with the expected outcome for each. */
async function expectMatrix(
  op: (user: TestUser, who: Who) => Promise<unknown>,
  allowed: Who[],
  denied: Partial<Record<Who, number>> = {},
): Promise<void> {
  const outcomes: Record<string, 'ok' | number> = {};
  const expected: Record<string, 'ok' | number> = {};
  for (const who of EVERYONE) {
    outcomes[who] = await attempt(() => op(users[who], who));
    expected[who] = allowed.includes(who)
      ? 'ok'
      : (denied[who] ?? (who === 'outsider' || who === 'none' ? 404 : 403));
  }
  expect(outcomes).toEqual(expected);
}

let collectionId: string;
let spaceId: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server, { name: 'Owner' });
  orgId = await createOrg(owner, 'Matrix org');
  for (const who of EVERYONE) users[who] = await createUser(server, { name: who });
  for (const role of ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const) {
    await addMember(owner, orgId, users[role], role);
  }
  await addMember(owner, orgId, users.guest, null);
  await addMember(owner, orgId, users.none, 'read');
  await createOrg(users.outsider, 'Outsider org');

  collectionId = (await owner.api.orgs.createCollection(orgId, { title: 'Matrix collection' })).data.id;
  spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Matrix space', parent: collectionId })).data
    .id;
  await owner.api.collections.inviteToCollection(collectionId, {
    role: 'comment',
    users: [users.guest.id],
  } as never);
  // "none" is a reader of the organization, but this collection gives members nothing by default
  // except through the explicit grants, and "none" has none.
  await owner.api.collections.updateCollectionById(collectionId, { defaultLevel: null });
  for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
    await owner.api.collections.inviteToCollection(collectionId, { role, users: [users[role].id] } as never);
  }
});
afterAll(() => server.close());

describe('permissions reported on each object', () => {
  const roleOf: Record<Who, string | null> = {
    admin: 'admin',
    create: 'create',
    review: 'review',
    edit: 'edit',
    comment: 'comment',
    read: 'read',
    guest: 'comment',
    none: null,
    outsider: null,
  };

  it('spaces', async () => {
    for (const who of EVERYONE) {
      const role = roleOf[who];
      const result = await attempt(() => users[who].api.spaces.getSpaceById(spaceId));
      if (role === null) {
        expect(result, who).toBe(404);
        continue;
      }
      const { data } = await users[who].api.spaces.getSpaceById(spaceId);
      const at = (r: string) =>
        ['read', 'comment', 'edit', 'review', 'create', 'admin'].indexOf(role) >=
        ['read', 'comment', 'edit', 'review', 'create', 'admin'].indexOf(r);
      expect(data.permissions, who).toEqual({
        view: true,
        access: true,
        admin: at('admin'),
        viewInviteLinks: at('admin'),
        edit: at('edit'),
        triggerGitSync: at('edit'),
        comment: at('comment'),
        merge: at('edit'),
        review: at('review'),
        installIntegration: at('admin'),
      });
    }
  });

  it('collections', async () => {
    for (const who of EVERYONE) {
      const role = roleOf[who];
      if (role === null) {
        expect(await attempt(() => users[who].api.collections.getCollectionById(collectionId)), who).toBe(
          404,
        );
        continue;
      }
      const { data } = await users[who].api.collections.getCollectionById(collectionId);
      expect(data.permissions, who).toEqual({
        view: true,
        admin: role === 'admin',
        viewInviteLinks: role === 'admin',
        create: role === 'admin' || role === 'create',
      });
    }
  });

  it('a locked space refuses content edits whatever the role', async () => {
    const locked = (await owner.api.orgs.createSpace(orgId, { title: 'Locked', parent: collectionId })).data;
    await owner.api.spaces.updateSpaceById(locked.id, { editMode: 'locked' } as never);
    for (const who of ['admin', 'create', 'edit'] as const) {
      const { data } = await users[who].api.spaces.getSpaceById(locked.id);
      expect(data.permissions, who).toMatchObject({
        view: true,
        edit: false,
        merge: false,
        triggerGitSync: false,
      });
    }
  });
});

describe('operations on spaces', () => {
  it('reading a space', async () => {
    await expectMatrix(
      (u) => u.api.spaces.getSpaceById(spaceId),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'],
    );
  });

  it('listing spaces shows exactly the readable ones', async () => {
    for (const who of EVERYONE) {
      const listed = await attempt(async () => {
        const { data } = await users[who].api.orgs.listSpacesInOrganizationById(orgId);
        return data;
      });
      if (who === 'outsider') {
        expect(listed).toBe(404);
        continue;
      }
      const { data } = await users[who].api.orgs.listSpacesInOrganizationById(orgId);
      expect(
        data.items.some((s) => s.id === spaceId),
        who,
      ).toBe(who !== 'none');
    }
  });

  it('changing settings, moving and deleting need admin', async () => {
    await expectMatrix(
      (u, who) => u.api.spaces.updateSpaceById(spaceId, { title: `Renamed by ${who}` }),
      ['admin'],
    );
    await expectMatrix(
      (u) =>
        u.api.spaces.moveSpace(spaceId, { position: { before: { type: 'space', space: spaceId } } } as never),
      [],
      { admin: 400 },
    );
    await expectMatrix(
      async (u) => {
        const target = (
          await owner.api.orgs.createSpace(orgId, { title: 'Delete target', parent: collectionId })
        ).data;
        await u.api.spaces.deleteSpaceById(target.id);
        await owner.api.spaces.getSpaceById(target.id);
      },
      // Those who cannot see it get the 404 a GET would give: a DELETE is no existence oracle.
      [],
      { admin: 404 },
    );
  });

  it('duplicating needs read on the space and create where the copy goes', async () => {
    await expectMatrix((u) => u.api.spaces.duplicateSpace(spaceId), ['admin', 'create'], {});
  });

  it('creating spaces in the collection needs create there', async () => {
    await expectMatrix(
      (u, who) => u.api.orgs.createSpace(orgId, { title: `By ${who}`, parent: collectionId }),
      ['admin', 'create'],
      { none: 400 },
    );
  });

  it('granting access needs admin; reading grants needs read', async () => {
    await expectMatrix(
      (u) => u.api.spaces.inviteToSpace(spaceId, { role: 'read', users: [users.read.id] } as never),
      ['admin'],
    );
    await expectMatrix(
      (u) => u.api.spaces.listUserPermissionsInSpace(spaceId),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'],
    );
  });
});

describe('operations on collections', () => {
  it('reading, updating and creating inside', async () => {
    await expectMatrix(
      (u) => u.api.collections.getCollectionById(collectionId),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'],
    );
    await expectMatrix(
      (u) => u.api.collections.listSpacesInCollectionById(collectionId),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'],
    );
    await expectMatrix(
      (u) => u.api.collections.updateCollectionById(collectionId, { title: 'Matrix collection' }),
      ['admin'],
    );
    await expectMatrix(
      (u, who) => u.api.orgs.createCollection(orgId, { title: `Sub by ${who}`, parent: collectionId }),
      ['admin', 'create'],
      { none: 400 },
    );
  });

  it('creating at the top level follows the organization role', async () => {
    await expectMatrix(
      (u, who) => u.api.orgs.createCollection(orgId, { title: `Top by ${who}` }),
      ['admin', 'create'],
      { none: 403 },
    );
  });

  it('deleting needs admin', async () => {
    await expectMatrix(
      async (u) => {
        const target = (
          await owner.api.orgs.createCollection(orgId, { title: 'Delete me', parent: collectionId })
        ).data;
        await u.api.collections.deleteCollectionById(target.id);
        await owner.api.collections.getCollectionById(target.id);
      },
      // Those who cannot see it get the 404 a GET would give: a DELETE is no existence oracle.
      [],
      { admin: 404 },
    );
  });
});

describe('operations on teams', () => {
  it('creating needs organization admin; listing needs an organization role', async () => {
    await expectMatrix(
      (u, who) => u.api.orgs.createOrganizationTeam(orgId, { title: `Team ${who}` }),
      ['admin'],
      {
        none: 403,
      },
    );
    await expectMatrix(
      (u) => u.api.orgs.listTeamsInOrganizationById(orgId),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'none'],
    );
  });

  it('managing a team needs organization admin or team ownership', async () => {
    const team = (await owner.api.orgs.createOrganizationTeam(orgId, { title: 'Managed' })).data;
    await owner.api.orgs.addMemberToOrganizationTeamById(orgId, team.id, users.read.id, {
      role: 'owner',
    } as never);
    await expectMatrix(
      (u) => u.api.orgs.updateTeamInOrganizationById(orgId, team.id, { title: 'Managed' }),
      ['admin', 'read'],
      { none: 403 },
    );
    await expectMatrix(
      (u) => u.api.orgs.getTeamInOrganizationById(orgId, team.id),
      ['admin', 'create', 'review', 'edit', 'comment', 'read', 'none'],
    );
  });
});
