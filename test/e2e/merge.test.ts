import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insert, markdownOf, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Merge scenarios through the API: change requests are branches that merge three-way by page. */

let server: TestServer;
let admin: TestUser;
let orgId: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Merge org');
});
afterAll(() => server.close());

const lines = (n: number, prefix = 'line') =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n');

async function space(title: string) {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

describe('merging change requests', () => {
  it('merges edits to different pages from two change requests', async () => {
    const s = await space('Different pages');
    const ids = await seed(admin.api, s, [insert('Alpha', 'alpha v1'), insert('Beta', 'beta v1')]);
    const one = await newChangeRequest(admin.api, s);
    const two = await newChangeRequest(admin.api, s);
    await write(admin.api, s, one, [
      { operation: 'update_page', page: ids.get('Alpha'), document: { markdown: 'alpha v2' } },
    ]);
    await write(admin.api, s, two, [
      { operation: 'update_page', page: ids.get('Beta'), document: { markdown: 'beta v2' } },
    ]);
    expect((await admin.api.spaces.mergeChangeRequest(s, one)).data.result).toBe('merge');
    const { data: cr2 } = await admin.api.spaces.getChangeRequestById(s, two);
    expect(cr2.outdated).toBe(true);
    const merged = await admin.api.spaces.mergeChangeRequest(s, two);
    expect(merged.data.result).toBe('merge');
    expect(await markdownOf(admin.api, s, ids.get('Alpha')!)).toBe('alpha v2');
    expect(await markdownOf(admin.api, s, ids.get('Beta')!)).toBe('beta v2');
    const { data: spaceNow } = await admin.api.spaces.getSpaceById(s);
    expect(spaceNow.revision).toBe(merged.data.revision);
    const { data: revision } = await admin.api.spaces.getRevisionById(s, merged.data.revision);
    expect(revision).toMatchObject({ type: 'merge', parents: expect.arrayContaining([cr2.revision]) });
  });

  it('merges edits to different lines of one page', async () => {
    const s = await space('Different lines');
    const ids = await seed(admin.api, s, [insert('Doc', lines(10))]);
    const page = ids.get('Doc')!;
    const one = await newChangeRequest(admin.api, s);
    const two = await newChangeRequest(admin.api, s);
    await write(admin.api, s, one, [
      { operation: 'update_page', page, document: { markdown: lines(10).replace('line 2', 'line two') } },
    ]);
    await write(admin.api, s, two, [
      { operation: 'update_page', page, document: { markdown: lines(10).replace('line 9', 'line nine') } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, one);
    expect((await admin.api.spaces.mergeChangeRequest(s, two)).data.result).toBe('merge');
    const text = await markdownOf(admin.api, s, page);
    expect(text).toContain('line two');
    expect(text).toContain('line nine');
  });

  it('refuses to merge edits to the same lines, changing nothing', async () => {
    const s = await space('Same lines');
    const ids = await seed(admin.api, s, [insert('Doc', lines(5))]);
    const page = ids.get('Doc')!;
    const one = await newChangeRequest(admin.api, s);
    const two = await newChangeRequest(admin.api, s);
    await write(admin.api, s, one, [
      { operation: 'update_page', page, document: { markdown: lines(5).replace('line 3', 'ours') } },
    ]);
    await write(admin.api, s, two, [
      { operation: 'update_page', page, document: { markdown: lines(5).replace('line 3', 'theirs') } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, one);
    const before = (await admin.api.spaces.getSpaceById(s)).data.revision;
    const { data } = await admin.api.spaces.mergeChangeRequest(s, two);
    expect(data.result).toBe('conflicts');
    expect(data.revision).toBe(before);
    const conflicts = (data as unknown as { conflicts: Array<{ kind: string; page: string }> }).conflicts;
    expect(conflicts).toEqual([expect.objectContaining({ kind: 'body', page })]);
    expect((await admin.api.spaces.getSpaceById(s)).data.revision).toBe(before);
    expect((await admin.api.spaces.getChangeRequestById(s, two)).data.status).not.toBe('merged');
    expect(await markdownOf(admin.api, s, page)).toContain('ours');
  });

  it('merges a page moved on one side and edited on the other', async () => {
    const s = await space('Move and edit');
    const ids = await seed(admin.api, s, [insert('Parent', 'p'), insert('Child', 'child v1')]);
    const one = await newChangeRequest(admin.api, s);
    const two = await newChangeRequest(admin.api, s);
    await write(admin.api, s, one, [
      { operation: 'update_page', page: ids.get('Child'), into: ids.get('Parent') },
    ]);
    await write(admin.api, s, two, [
      { operation: 'update_page', page: ids.get('Child'), document: { markdown: 'child v2' } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, one);
    expect((await admin.api.spaces.mergeChangeRequest(s, two)).data.result).toBe('merge');
    const { data: page } = await admin.api.spaces.getPageByPath(s, 'parent/child', {
      format: 'markdown',
    } as never);
    expect(page).toMatchObject({ id: ids.get('Child'), markdown: 'child v2', path: 'parent/child' });
  });

  it('refuses a page deleted on one side and edited on the other', async () => {
    const s = await space('Delete and edit');
    const ids = await seed(admin.api, s, [insert('Doomed', 'v1')]);
    const one = await newChangeRequest(admin.api, s);
    const two = await newChangeRequest(admin.api, s);
    await write(admin.api, s, one, [{ operation: 'delete_page', page: ids.get('Doomed') }]);
    await write(admin.api, s, two, [
      { operation: 'update_page', page: ids.get('Doomed'), document: { markdown: 'v2' } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, one);
    const { data } = await admin.api.spaces.mergeChangeRequest(s, two);
    expect(data.result).toBe('conflicts');
    expect((data as unknown as { conflicts: Array<{ kind: string }> }).conflicts[0]!.kind).toBe(
      'delete-edit',
    );
  });

  it('updates a change request from main, then merges it', async () => {
    const s = await space('Update then merge');
    const ids = await seed(admin.api, s, [insert('Shared', lines(6))]);
    const page = ids.get('Shared')!;
    const behind = await newChangeRequest(admin.api, s);
    await write(admin.api, s, behind, [
      { operation: 'update_page', page, document: { markdown: lines(6).replace('line 6', 'six') } },
    ]);
    const ahead = await newChangeRequest(admin.api, s);
    await write(admin.api, s, ahead, [
      { operation: 'update_page', page, document: { markdown: lines(6).replace('line 1', 'one') } },
    ]);
    await admin.api.spaces.mergeChangeRequest(s, ahead);
    expect((await admin.api.spaces.getChangeRequestById(s, behind)).data.outdated).toBe(true);
    const updated = await admin.api.spaces.updateChangeRequest(s, behind);
    expect(updated.data.result).toBe('update');
    const { data: cr } = await admin.api.spaces.getChangeRequestById(s, behind);
    expect(cr.outdated).toBe(false);
    expect(cr.revision).toBe(updated.data.revision);
    expect(await markdownOf(admin.api, s, page, behind)).toBe(
      lines(6).replace('line 1', 'one').replace('line 6', 'six'),
    );
    // nothing new on main: update answers the same revision
    expect((await admin.api.spaces.updateChangeRequest(s, behind)).data.revision).toBe(cr.revision);
    expect((await admin.api.spaces.mergeChangeRequest(s, behind)).data.result).toBe('merge');
    expect(await markdownOf(admin.api, s, page)).toBe(
      lines(6).replace('line 1', 'one').replace('line 6', 'six'),
    );
  });

  it('merges after main moved with new pages on both sides', async () => {
    const s = await space('Main moved');
    await seed(admin.api, s, [insert('Base', 'base')]);
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [insert('From CR', 'cr page')]);
    await seed(admin.api, s, [insert('From main', 'main page')]);
    expect((await admin.api.spaces.mergeChangeRequest(s, cr)).data.result).toBe('merge');
    const { data } = await admin.api.spaces.listPages(s);
    expect(data.pages.map((p) => p.title).sort()).toEqual(['Base', 'From CR', 'From main']);
  });

  it('marks the merged change request and keeps the counters', async () => {
    const s = await space('Counters');
    const cr = await newChangeRequest(admin.api, s);
    let { data: sp } = await admin.api.spaces.getSpaceById(s);
    expect(sp).toMatchObject({ changeRequests: 1, changeRequestsDraft: 1, changeRequestsOpen: 0 });
    await admin.api.spaces.updateChangeRequestById(s, cr, { status: 'open' } as never);
    ({ data: sp } = await admin.api.spaces.getSpaceById(s));
    expect(sp).toMatchObject({ changeRequests: 1, changeRequestsDraft: 0, changeRequestsOpen: 1 });
    await write(admin.api, s, cr, [insert('Page', 'text')]);
    const merged = await admin.api.spaces.mergeChangeRequest(s, cr);
    const { data } = await admin.api.spaces.getChangeRequestById(s, cr);
    expect(data).toMatchObject({
      status: 'merged',
      revisionMerged: merged.data.revision,
      mergedBy: { id: admin.id },
    });
    ({ data: sp } = await admin.api.spaces.getSpaceById(s));
    expect(sp).toMatchObject({ changeRequests: 1, changeRequestsDraft: 0, changeRequestsOpen: 0 });
    expect((await failure(admin.api.spaces.mergeChangeRequest(s, cr))).code).toBe(409);
    const archived = await newChangeRequest(admin.api, s);
    await admin.api.spaces.updateChangeRequestById(s, archived, { status: 'archived' } as never);
    expect((await failure(admin.api.spaces.mergeChangeRequest(s, archived))).code).toBe(409);
  });

  it('holds a merge until the required reviewers approve', async () => {
    const reviewer = await createUser(server);
    const { addMember } = await import('../helpers/factories.js');
    await addMember(admin, orgId, reviewer, 'review');
    const s = await space('Rules');
    await admin.api.spaces.updateSpaceById(s, {
      mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewer.id] }] },
    } as never);
    const cr = await newChangeRequest(admin.api, s);
    await write(admin.api, s, cr, [insert('Reviewed', 'text')]);
    const held = await failure(admin.api.spaces.mergeChangeRequest(s, cr));
    expect(held.code).toBe(412);
    expect(held.message).toContain(reviewer.id);
    await admin.api.spaces.requestReviewersForChangeRequest(s, cr, { users: [reviewer.id] });
    await reviewer.api.spaces.submitChangeRequestReview(s, cr, { status: 'changes-requested' } as never);
    expect((await failure(admin.api.spaces.mergeChangeRequest(s, cr))).code).toBe(412);
    await reviewer.api.spaces.submitChangeRequestReview(s, cr, { status: 'approved' } as never);
    expect((await admin.api.spaces.mergeChangeRequest(s, cr)).data.result).toBe('merge');
  });
});
