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
  orgId = await createOrg(admin, 'Collections org');
});
afterAll(() => server.close());

const newCollection = async (title: string, parent?: string) =>
  (await admin.api.orgs.createCollection(orgId, { title, ...(parent ? { parent } : {}) })).data;
const newSpace = async (title: string, parent?: string) =>
  (await admin.api.orgs.createSpace(orgId, { title, ...(parent ? { parent } : {}) })).data;
const spaceTitles = async (collectionId: string) =>
  (await admin.api.collections.listSpacesInCollectionById(collectionId)).data.items.map((s) => s.title);

describe('collections', () => {
  it('creates, reads and updates a collection', async () => {
    const res = await admin.api.orgs.createCollection(orgId, {});
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.url}/v1/collections/${res.data.id}`);
    expect(res.data).toMatchObject({
      object: 'collection',
      title: 'Untitled collection',
      organization: orgId,
      defaultLevel: 'inherit',
      permissions: { view: true, admin: true, create: true, viewInviteLinks: true },
    });
    expect(res.data.parent).toBeUndefined();

    const { data } = await admin.api.collections.updateCollectionById(res.data.id, {
      title: 'Guides',
      description: 'How-to guides',
      defaultLevel: 'read',
    } as never);
    expect(data).toMatchObject({ title: 'Guides', description: 'How-to guides', defaultLevel: 'read' });
    expect((await admin.api.collections.getCollectionById(res.data.id)).data).toEqual(data);
  });

  it('refuses titles and descriptions past their limits, naming the field', async () => {
    const c = await newCollection('Limits');
    for (const [body, field] of [
      [{ title: 'x'.repeat(51) }, 'body.title'],
      [{ description: 'x'.repeat(101) }, 'body.description'],
      [{ defaultLevel: 'owner' }, 'body.defaultLevel'],
    ] as const) {
      const res = await rawRequest(server.url, 'PATCH', `/v1/collections/${c.id}`, {
        token: admin.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain(field);
    }
    const tooLong = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/collections`, {
      token: admin.token,
      body: { title: 'y'.repeat(51) },
    });
    expect(tooLong.status).toBe(400);
    expect((await admin.api.collections.getCollectionById(c.id)).data.title).toBe('Limits');
  });

  it('nests collections and lists every level or only the top', async () => {
    const top = await newCollection('Top level');
    const child = await newCollection('Child', top.id);
    const grandchild = await newCollection('Grandchild', child.id);
    expect(child.parent).toBe(top.id);
    const nested = (await admin.api.orgs.listCollectionsInOrganizationById(orgId)).data.items.map(
      (c) => c.id,
    );
    expect(nested).toEqual(expect.arrayContaining([top.id, child.id, grandchild.id]));
    const topOnly = (await admin.api.orgs.listCollectionsInOrganizationById(orgId, { nested: false })).data
      .items;
    expect(topOnly.map((c) => c.id)).toContain(top.id);
    expect(topOnly.map((c) => c.id)).not.toContain(child.id);
    expect(topOnly.every((c) => c.parent === undefined)).toBe(true);
  });

  it('refuses an unknown parent or one of another organization (400)', async () => {
    const unknown = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/collections`, {
      token: admin.token,
      body: { title: 'Orphan', parent: 'nope' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('body.parent');
    const otherOrg = await createOrg(admin, 'Other org');
    const foreign = (await admin.api.orgs.createCollection(otherOrg, { title: 'Foreign' })).data;
    const crossed = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/collections`, {
      token: admin.token,
      body: { title: 'Crossed', parent: foreign.id },
    });
    expect(crossed.status).toBe(400);
  });

  it('lists spaces in their order and moves them before or after a sibling', async () => {
    const c = await newCollection('Ordered');
    const a = await newSpace('A', c.id);
    const b = await newSpace('B', c.id);
    const d = await newSpace('D', c.id);
    expect(await spaceTitles(c.id)).toEqual(['A', 'B', 'D']);
    await admin.api.spaces.moveSpace(d.id, { position: { before: { type: 'space', space: a.id } } } as never);
    expect(await spaceTitles(c.id)).toEqual(['D', 'A', 'B']);
    await admin.api.spaces.moveSpace(d.id, { position: { after: { type: 'space', space: a.id } } } as never);
    expect(await spaceTitles(c.id)).toEqual(['A', 'D', 'B']);
    // many moves into the same gap keep a strict order (positions get renumbered when needed)
    for (let i = 0; i < 20; i++) {
      const mover = i % 2 === 0 ? d : b;
      const anchor = i % 2 === 0 ? b : d;
      await admin.api.spaces.moveSpace(mover.id, {
        position: { before: { type: 'space', space: anchor.id } },
      } as never);
    }
    expect((await spaceTitles(c.id)).length).toBe(3);
    const page1 = await admin.api.collections.listSpacesInCollectionById(c.id, { limit: 2 });
    const page2 = await admin.api.collections.listSpacesInCollectionById(c.id, {
      limit: 2,
      page: page1.data.next!.page,
    });
    expect([...page1.data.items, ...page2.data.items].map((s) => s.title)).toEqual(await spaceTitles(c.id));
    void b;
  });

  it('puts a new space after the last of its siblings, left and deleted ones aside', async () => {
    const c = await newCollection('Appended');
    const elsewhere = await newCollection('Elsewhere');
    const a = await newSpace('A', c.id);
    const b = await newSpace('B', c.id);
    const x = await newSpace('X', c.id);
    await newSpace('D', c.id);
    await admin.api.spaces.deleteSpaceById(x.id);
    await admin.api.spaces.moveSpace(b.id, { parent: elsewhere.id } as never);
    await newSpace('E', c.id);
    await admin.api.spaces.moveSpace(a.id, { parent: elsewhere.id } as never);
    await newSpace('F', c.id);
    expect(await spaceTitles(c.id)).toEqual(['D', 'E', 'F']);
    expect(await spaceTitles(elsewhere.id)).toEqual(['B', 'A']);
  });

  it('refuses a position naming something that is not a sibling', async () => {
    const c1 = await newCollection('Siblings one');
    const c2 = await newCollection('Siblings two');
    const s1 = await newSpace('In one', c1.id);
    const s2 = await newSpace('In two', c2.id);
    const res = await rawRequest(server.url, 'POST', `/v1/spaces/${s1.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: s2.id } } },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('body.position.before');
    expect((await admin.api.spaces.getSpaceById(s1.id)).data.parent).toBe(c1.id);
  });

  it('moves a collection to a new parent or to the top, never into itself', async () => {
    const a = await newCollection('Move A');
    const b = await newCollection('Move B', a.id);
    const c = await newCollection('Move C', b.id);
    const intoChild = await rawRequest(server.url, 'POST', `/v1/collections/${a.id}/move`, {
      token: admin.token,
      body: { parent: c.id },
    });
    expect(intoChild.status).toBe(400);
    expect(intoChild.text).toContain('descendants');
    const intoSelf = await rawRequest(server.url, 'POST', `/v1/collections/${a.id}/move`, {
      token: admin.token,
      body: { parent: a.id },
    });
    expect(intoSelf.status).toBe(400);
    const { data: moved } = await admin.api.collections.moveCollection(c.id, { parent: a.id });
    expect(moved.parent).toBe(a.id);
    const { data: top } = await admin.api.collections.moveCollection(c.id, { parent: null });
    expect(top.parent).toBeUndefined();
    const nothing = await failure(admin.api.collections.moveCollection(c.id, { parent: null }));
    expect(nothing.code).toBe(409);
    const empty = await rawRequest(server.url, 'POST', `/v1/collections/${c.id}/move`, {
      token: admin.token,
      body: {},
    });
    expect(empty.status).toBe(400);
  });

  it('deletes a collection with everything in it; a space restores its collections with it', async () => {
    const top = await newCollection('Doomed');
    const inner = await newCollection('Doomed inner', top.id);
    const s1 = await newSpace('Doomed space', inner.id);
    const s2 = await newSpace('Doomed sibling', top.id);
    expect((await admin.api.collections.deleteCollectionById(top.id)).status).toBe(204);
    // Calls start one at a time: a rejection must not wait unhandled while another is awaited.
    for (const call of [
      () => admin.api.collections.getCollectionById(top.id),
      () => admin.api.collections.getCollectionById(inner.id),
      () => admin.api.spaces.getSpaceById(s1.id),
      () => admin.api.spaces.getSpaceById(s2.id),
    ]) {
      expect((await failure(call())).code).toBe(404);
    }
    const listed = (await admin.api.orgs.listSpacesInOrganizationById(orgId)).data.items.map((s) => s.id);
    expect(listed).not.toContain(s1.id);

    const { data: restored } = await admin.api.spaces.restoreSpace(s1.id);
    expect(restored.deletedAt).toBeUndefined();
    expect(restored.parent).toBe(inner.id);
    expect((await admin.api.collections.getCollectionById(inner.id)).data.parent).toBe(top.id);
    expect((await admin.api.collections.getCollectionById(top.id)).data.id).toBe(top.id);
    // the sibling was not restored
    expect((await failure(admin.api.spaces.getSpaceById(s2.id))).code).toBe(404);
    // An id the caller cannot see, as one that never existed, is 404 (no oracle of other organizations').
    expect((await failure(admin.api.collections.deleteCollectionById('never-existed'))).code).toBe(404);
  });

  it('transfers a collection with its content to another organization the caller administers', async () => {
    const target = await createOrg(admin, 'Transfer target');
    const c = await newCollection('Travelling');
    const inner = await newCollection('Travelling inner', c.id);
    const s = await newSpace('Travelling space', inner.id);
    const { data } = await admin.api.collections.transferCollection(c.id, { organization: target });
    expect(data).toMatchObject({ organization: target });
    expect(data.parent).toBeUndefined();
    expect((await admin.api.spaces.getSpaceById(s.id)).data.organization).toBe(target);
    expect((await admin.api.collections.getCollectionById(inner.id)).data.organization).toBe(target);
    expect(
      (await failure(admin.api.collections.transferCollection(c.id, { organization: target }))).code,
    ).toBe(409);

    const outsider = await createUser(server);
    const theirOrg = await createOrg(outsider, 'Not yours');
    expect(
      (await failure(admin.api.collections.transferCollection(c.id, { organization: theirOrg }))).code,
    ).toBe(404);
    const editorOrg = await createOrg(outsider, 'Editor only');
    await addMember(outsider, editorOrg, admin, 'edit');
    expect(
      (await failure(admin.api.collections.transferCollection(c.id, { organization: editorOrg }))).code,
    ).toBe(403);
  });
});
