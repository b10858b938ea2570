import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
let clock: ManualClock;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  clock = new ManualClock('2026-03-01T10:00:00.000Z');
  server = await startTestServer({ clock });
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Spaces org');
});
afterAll(() => server.close());

describe('spaces', () => {
  it('creates a space with every field and reads it back', async () => {
    const collection = (await admin.api.orgs.createCollection(orgId, { title: 'Home' })).data;
    const res = await admin.api.orgs.createSpace(orgId, {
      title: 'Handbook',
      emoji: '📘',
      parent: collection.id,
      language: 'fr' as never,
      editMode: 'live' as never,
      visibility: 'in-collection',
    } as never);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}/v1/spaces/${res.data.id}`);
    expect(res.data).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      parent: collection.id,
      language: 'fr',
      editMode: 'live',
      visibility: 'in-collection',
      organization: orgId,
      defaultLevel: 'inherit',
      mergeRules: { type: 'inherit' },
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    expect(res.data.revision).toMatch(/^[A-Za-z0-9]+$/);
    expect((await admin.api.spaces.getSpaceById(res.data.id)).data).toEqual(res.data);
  });

  it('refuses in-collection visibility outside a collection', async () => {
    const res = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/spaces`, {
      token: admin.token,
      body: { title: 'Loose', visibility: 'in-collection' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('body.visibility');
    const top = (await admin.api.orgs.createSpace(orgId, { title: 'Top space' })).data;
    const patch = await rawRequest(server.url, 'PATCH', `/v1/spaces/${top.id}`, {
      token: admin.token,
      body: { visibility: 'in-collection' },
    });
    expect(patch.status).toBe(400);
  });

  it('updates every field API.md lists', async () => {
    const space = (await admin.api.orgs.createSpace(orgId, { title: 'Patch me' })).data;
    const { data } = await admin.api.spaces.updateSpaceById(space.id, {
      title: 'Patched',
      emoji: '🎉',
      editMode: 'locked',
      defaultLevel: 'comment',
      language: 'de',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      visibility: 'unlisted',
    } as never);
    expect(data).toMatchObject({
      title: 'Patched',
      emoji: '🎉',
      editMode: 'locked',
      defaultLevel: 'comment',
      language: 'de',
      mergeRules: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
      visibility: 'unlisted',
    });
    expect(data.permissions).toMatchObject({ admin: true, edit: false, merge: false, comment: true });
    const { data: icon } = await admin.api.spaces.updateSpaceById(space.id, {
      icon: 'https://cdn.example.com/i.png',
      editMode: 'live',
    } as never);
    expect(icon.urls.icon).toBe('https://cdn.example.com/i.png');
    expect(icon.permissions.edit).toBe(true);
    for (const [body, field] of [
      [{ title: 'x'.repeat(51) }, 'body.title'],
      [{ emoji: 'x'.repeat(51) }, 'body.emoji'],
      [{ language: 'klingon' }, 'body.language'],
      [{ editMode: 'frozen' }, 'body.editMode'],
    ] as const) {
      const res = await rawRequest(server.url, 'PATCH', `/v1/spaces/${space.id}`, {
        token: admin.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain(field);
    }
  });

  it('lists the spaces of an organization by cursor', async () => {
    const org = await createOrg(admin, 'Many spaces');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(1);
      ids.push((await admin.api.orgs.createSpace(org, { title: `S${i}` })).data.id);
    }
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await admin.api.orgs.listSpacesInOrganizationById(org, { limit: 3, page });
      expect(data.count).toBe(7);
      seen.push(...data.items.map((s) => s.id));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(ids);
  });

  it('deletes to the trash, restores within 7 days, and purges after', async () => {
    const keep = (await admin.api.orgs.createSpace(orgId, { title: 'Restorable' })).data;
    const lost = (await admin.api.orgs.createSpace(orgId, { title: 'Purged' })).data;
    expect((await admin.api.spaces.restoreSpace(keep.id).catch((e) => e)).code).toBe(409);

    expect((await admin.api.spaces.deleteSpaceById(keep.id)).status).toBe(204);
    expect((await admin.api.spaces.deleteSpaceById(lost.id)).status).toBe(204);
    expect((await admin.api.spaces.deleteSpaceById(lost.id)).status).toBe(204);
    expect((await failure(admin.api.spaces.getSpaceById(keep.id))).code).toBe(404);
    expect((await failure(admin.api.spaces.updateSpaceById(keep.id, { title: 'x' }))).code).toBe(404);

    clock.advance(6 * DAY);
    const { data: restored } = await admin.api.spaces.restoreSpace(keep.id);
    expect(restored.deletedAt).toBeUndefined();
    expect(restored.title).toBe('Restorable');

    clock.advance(2 * DAY);
    const late = await failure(admin.api.spaces.restoreSpace(lost.id));
    expect(late.code).toBe(404);
    expect(late.message).toContain('7 days');

    const { jobs } = server.app.quire.services;
    // trash.purge, and any other recurring job (search.reconcile) that is due at the first tick.
    expect(await jobs.enqueueDueSchedules()).toBeGreaterThanOrEqual(1);
    await jobs.runDue();
    const row = await server.database.db
      .selectFrom('spaces')
      .select('id')
      .where('id', '=', lost.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    const revisions = await server.database.db
      .selectFrom('revisions')
      .select('id')
      .where('space_id', '=', lost.id)
      .execute();
    expect(revisions).toEqual([]);
    expect((await admin.api.spaces.getSpaceById(keep.id)).data.id).toBe(keep.id);
  });

  it('duplicates a space with a copy of its content beside the original', async () => {
    const c = (await admin.api.orgs.createCollection(orgId, { title: 'Dup home' })).data;
    const original = (
      await admin.api.orgs.createSpace(orgId, {
        title: 'A rather long space title for copies',
        parent: c.id,
        emoji: '🧭',
      })
    ).data;
    const after = (await admin.api.orgs.createSpace(orgId, { title: 'After', parent: c.id })).data;
    const res = await admin.api.spaces.duplicateSpace(original.id);
    expect(res.status).toBe(201);
    expect(res.data.title).toBe('A rather long space title for copies (copy)');
    expect(res.data).toMatchObject({ emoji: '🧭', parent: c.id, organization: orgId });
    expect(res.data.id).not.toBe(original.id);
    expect(res.data.revision).not.toBe(original.revision);
    const trees = await server.database.db
      .selectFrom('revisions')
      .select('tree_hash')
      .where('id', 'in', [original.revision, res.data.revision])
      .execute();
    expect(new Set(trees.map((t) => t.tree_hash)).size).toBe(1);
    const order = (await admin.api.collections.listSpacesInCollectionById(c.id)).data.items.map((s) => s.id);
    expect(order).toEqual([original.id, res.data.id, after.id]);
    const long = (await admin.api.orgs.createSpace(orgId, { title: 'x'.repeat(50) })).data;
    expect((await admin.api.spaces.duplicateSpace(long.id)).data.title).toBe(`${'x'.repeat(43)} (copy)`);
  });

  it('moves a space between collections and to the top level', async () => {
    const a = (await admin.api.orgs.createCollection(orgId, { title: 'From' })).data;
    const b = (await admin.api.orgs.createCollection(orgId, { title: 'To' })).data;
    const s = (await admin.api.orgs.createSpace(orgId, { title: 'Mover', parent: a.id })).data;
    expect((await admin.api.spaces.moveSpace(s.id, { parent: b.id })).data.parent).toBe(b.id);
    expect((await admin.api.spaces.moveSpace(s.id, { parent: null })).data.parent).toBeUndefined();
    expect((await failure(admin.api.spaces.moveSpace(s.id, { parent: null }))).code).toBe(409);
    const bad = await rawRequest(server.url, 'POST', `/v1/spaces/${s.id}/move`, {
      token: admin.token,
      body: { parent: 'no-such-collection' },
    });
    expect(bad.status).toBe(400);
    const inCollection = (
      await admin.api.orgs.createSpace(orgId, {
        title: 'Pinned',
        parent: a.id,
        visibility: 'in-collection',
      } as never)
    ).data;
    const refused = await rawRequest(server.url, 'POST', `/v1/spaces/${inCollection.id}/move`, {
      token: admin.token,
      body: { parent: null },
    });
    expect(refused.status).toBe(400);
  });

  it('transfers a space to another organization (0.146 operation)', async () => {
    const old = apiClient146(server.url, admin.token);
    const target = await createOrg(admin, 'Space target');
    const c = (await admin.api.orgs.createCollection(orgId, { title: 'Source home' })).data;
    const s = (
      await admin.api.orgs.createSpace(orgId, {
        title: 'Traveller',
        parent: c.id,
        visibility: 'in-collection',
      } as never)
    ).data;
    const { data } = await old.spaces.transferSpace(s.id, { organization: target });
    expect(data).toMatchObject({ organization: target, visibility: 'private' });
    expect(data.parent).toBeUndefined();
    const conflict = await old.spaces.transferSpace(s.id, { organization: target }).catch((e) => e);
    expect(conflict.code).toBe(409);
  });
});
