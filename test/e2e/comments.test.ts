import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import {
  documentOf,
  markdownOf,
  marksOf,
  reactionsOf,
  repliersOf,
  steadyClock,
  textOf,
  walk,
} from '../helpers/comments.js';
import { insert, newChangeRequest, seed, write } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Comments and their replies, in both families: space comments (`/v1/spaces/{spaceId}/comments`)
 * and change-request comments (`/v1/spaces/{spaceId}/change-requests/{crId}/comments`).
 */

let server: TestServer;
/** Created the organization: an org admin, so an admin of every space in it. */
let admin: TestUser;
let commenter: TestUser;
/** A second member with the comment role. */
let other: TestUser;
let editor: TestUser;
let reader: TestUser;
/** Not in the organization. */
let outsider: TestUser;
let orgId: string;

beforeAll(async () => {
  // Every timestamp is distinct and follows the order of the calls: orders by postedAt are exact.
  server = await startTestServer({ clock: steadyClock() });
  admin = await createUser(server, { name: 'Ada Admin' });
  orgId = await createOrg(admin, 'Comments org');
  commenter = await createUser(server, { name: 'Carl Commenter' });
  other = await createUser(server, { name: 'Olga Other' });
  editor = await createUser(server, { name: 'Eve Editor' });
  reader = await createUser(server, { name: 'Rita Reader' });
  outsider = await createUser(server, { name: 'Oscar Outsider' });
  await addMember(admin, orgId, commenter, 'comment');
  await addMember(admin, orgId, other, 'comment');
  await addMember(admin, orgId, editor, 'edit');
  await addMember(admin, orgId, reader, 'read');
  await createOrg(outsider, 'Elsewhere');
});
afterAll(async () => {
  await server.close();
});

async function space(title: string): Promise<string> {
  return (await admin.api.orgs.createSpace(orgId, { title })).data.id;
}

/** The space's counter of open comments. */
async function spaceCount(spaceId: string): Promise<number> {
  return (await admin.api.spaces.getSpaceById(spaceId)).data.comments;
}

/** The change request's counter of open comments. */
async function crCount(spaceId: string, crId: string): Promise<number> {
  return (await admin.api.spaces.getChangeRequestById(spaceId, crId)).data.comments;
}

async function postInSpace(user: TestUser, spaceId: string, markdown: string, extra: object = {}) {
  return (await user.api.spaces.postCommentInSpace(spaceId, { body: { markdown }, ...extra })).data;
}

async function postInCr(user: TestUser, spaceId: string, crId: string, markdown: string, extra: object = {}) {
  return (await user.api.spaces.postCommentInChangeRequest(spaceId, crId, { body: { markdown }, ...extra }))
    .data;
}

async function replyInSpace(user: TestUser, spaceId: string, commentId: string, markdown: string) {
  return (await user.api.spaces.postCommentReplyInSpace(spaceId, commentId, { body: { markdown } })).data;
}

/** Ids of the space's comments, oldest first. */
async function spaceCommentIds(spaceId: string, query: Record<string, unknown> = {}): Promise<string[]> {
  const { data } = await admin.api.spaces.listCommentsInSpace(spaceId, { order: 'asc', ...query } as never);
  return data.items.map((c) => c.id);
}

/** Ids of the change request's comments, oldest first. */
async function crCommentIds(spaceId: string, crId: string): Promise<string[]> {
  const { data } = await admin.api.spaces.listCommentsInChangeRequest(spaceId, crId, { order: 'asc' });
  return data.items.map((c) => c.id);
}

async function statusOf(call: Promise<{ status: number }>): Promise<number> {
  return (await call).status;
}

const PARAGRAPH_DOCUMENT = {
  object: 'document',
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'paragraph',
      nodes: [
        {
          object: 'text',
          leaves: [{ object: 'leaf', text: 'From a document', marks: [{ object: 'mark', type: 'bold' }] }],
        },
      ],
    },
  ],
};

describe('posting and reading space comments', () => {
  it('posts a markdown comment and reads it back the same, by id and in the list', async () => {
    const s = await space('Basics');
    const { data: spaceData } = await admin.api.spaces.getSpaceById(s);
    const res = await commenter.api.spaces.postCommentInSpace(s, { body: { markdown: 'Looks **good**' } });
    expect(res.status).toBe(200);
    const comment = res.data;
    expect(comment).toMatchObject({
      object: 'comment',
      id: expect.any(String),
      postedBy: { id: commenter.id },
      postedAt: expect.any(String),
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      target: { space: s, revision: spaceData.revision },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(markdownOf(comment)).toBe('Looks **good**');
    expect(Number.isNaN(Date.parse(comment.postedAt))).toBe(false);
    for (const absent of ['page', 'node', 'tableCell', 'changeRequest']) {
      expect(comment.target).not.toHaveProperty(absent);
    }
    for (const absent of ['editedAt', 'resolvedAt', 'resolvedBy']) expect(comment).not.toHaveProperty(absent);
    expect(comment.urls.location).toMatch(new RegExp(`/v1/spaces/${s}/comments/${comment.id}$`));

    const { data: got } = await commenter.api.spaces.getCommentInSpace(s, comment.id);
    expect(got).toEqual(comment);
    const { data: list } = await commenter.api.spaces.listCommentsInSpace(s);
    expect(list.items).toEqual([comment]);
  });

  it('accepts a document body and stores it as markdown', async () => {
    const s = await space('Document body');
    const { data } = await admin.api.spaces.postCommentInSpace(s, {
      body: { document: PARAGRAPH_DOCUMENT } as never,
    });
    expect(markdownOf(data)).toBe('**From a document**');
    const { data: got } = await admin.api.spaces.getCommentInSpace(s, data.id);
    expect(markdownOf(got)).toBe('**From a document**');
  });

  it('targets a page, a node and a table cell; an unknown page is 400 naming body.page', async () => {
    const s = await space('Targets');
    const ids = await seed(admin.api, s, [insert('Guide', '# Guide'), insert('Other', 'other')]);
    const guide = ids.get('Guide')!;
    const { data: spaceData } = await admin.api.spaces.getSpaceById(s);
    const comment = await postInSpace(admin, s, 'On a cell', {
      page: guide,
      node: 'node-1',
      tableCell: { record: 'record-1', definition: 'column-1' },
    });
    expect(comment.target).toEqual({
      space: s,
      revision: spaceData.revision,
      page: { id: guide },
      node: { id: 'node-1' },
      tableCell: { record: 'record-1', definition: 'column-1' },
    });
    const onPage = await postInSpace(admin, s, 'On the page only', { page: ids.get('Other') });
    expect(onPage.target).toEqual({ space: s, revision: spaceData.revision, page: { id: ids.get('Other') } });
    expect((await admin.api.spaces.getCommentInSpace(s, comment.id)).data.target).toEqual(comment.target);

    const unknown = await failure(
      admin.api.spaces.postCommentInSpace(s, { body: { markdown: 'x' }, page: 'nope' }),
    );
    expect(unknown.code).toBe(400);
    expect(unknown.message).toContain('body.page');
    expect(await spaceCommentIds(s)).toEqual([comment.id, onPage.id]);
  });

  it('answers documents with format=document on get, list and replies; markdown by default', async () => {
    const s = await space('Formats');
    const comment = await postInSpace(admin, s, '# Title\n\n**bold** text');
    const reply = await replyInSpace(commenter, s, comment.id, '**bold** reply');

    const expectTitleAndParagraph = (item: { body: unknown }) => {
      expect(markdownOf(item)).toBeUndefined();
      const doc = documentOf(item);
      expect(doc?.object).toBe('document');
      expect(doc?.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph']);
      expect(textOf(doc!.nodes[0]!)).toBe('Title');
      expect(textOf(doc!.nodes[1]!)).toBe('bold text');
      expect(marksOf(doc!.nodes[1]!)).toContain('bold');
    };
    const expectParagraph = (item: { body: unknown }) => {
      expect(markdownOf(item)).toBeUndefined();
      const doc = documentOf(item);
      expect(doc?.object).toBe('document');
      expect(doc?.nodes.map((n) => n.type)).toEqual(['paragraph']);
      expect(textOf(doc!.nodes[0]!)).toBe('bold reply');
      expect(marksOf(doc!.nodes[0]!)).toContain('bold');
    };

    expectTitleAndParagraph(
      (await admin.api.spaces.getCommentInSpace(s, comment.id, { format: 'document' })).data,
    );
    const { data: list } = await admin.api.spaces.listCommentsInSpace(s, { format: 'document' });
    expect(list.items).toHaveLength(1);
    expectTitleAndParagraph(list.items[0]!);
    const { data: replies } = await admin.api.spaces.listCommentRepliesInSpace(s, comment.id, {
      format: 'document',
    });
    expect(replies.items).toHaveLength(1);
    expectParagraph(replies.items[0]!);
    expectParagraph(
      (await admin.api.spaces.getCommentReplyInSpace(s, comment.id, reply.id, { format: 'document' })).data,
    );

    expect(markdownOf((await admin.api.spaces.getCommentInSpace(s, comment.id)).data)).toBe(
      '# Title\n\n**bold** text',
    );
    expect(
      markdownOf((await admin.api.spaces.getCommentInSpace(s, comment.id, { format: 'markdown' })).data),
    ).toBe('# Title\n\n**bold** text');
    expect(documentOf((await admin.api.spaces.getCommentInSpace(s, comment.id)).data)).toBeUndefined();
  });
});

describe('listing space comments', () => {
  it('pages through comments in both orders, each exactly once, newest first by default', async () => {
    const s = await space('Pagination');
    const posted: string[] = [];
    for (let i = 0; i < 5; i++) posted.push((await postInSpace(admin, s, `Comment ${i}`)).id);

    const asc = await walk(
      async (page) => (await admin.api.spaces.listCommentsInSpace(s, { order: 'asc', limit: 2, page })).data,
    );
    expect(asc.pages).toBe(3);
    expect(asc.items.map((c) => c.id)).toEqual(posted);
    const times = asc.items.map((c) => Date.parse(c.postedAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const desc = await walk(
      async (page) => (await admin.api.spaces.listCommentsInSpace(s, { order: 'desc', limit: 2, page })).data,
    );
    expect(desc.pages).toBe(3);
    expect(desc.items.map((c) => c.id)).toEqual([...posted].reverse());

    const byDefault = await walk(
      async (page) => (await admin.api.spaces.listCommentsInSpace(s, { limit: 2, page })).data,
    );
    expect(byDefault.items.map((c) => c.id)).toEqual([...posted].reverse());
    expect((await admin.api.spaces.listCommentsInSpace(s)).data.items.map((c) => c.id)).toEqual(
      [...posted].reverse(),
    );
  });

  it('filters by status, target page and authors (repeated query keys)', async () => {
    const s = await space('Filters');
    const ids = await seed(admin.api, s, [insert('A', 'a'), insert('B', 'b')]);
    const a = ids.get('A')!;
    const b = ids.get('B')!;
    const onA = (await postInSpace(admin, s, 'On A', { page: a })).id;
    const onB = (await postInSpace(commenter, s, 'On B', { page: b })).id;
    const general = (await postInSpace(editor, s, 'General')).id;
    const onA2 = (await postInSpace(commenter, s, 'On A again', { page: a })).id;
    await admin.api.spaces.updateCommentInSpace(s, onB, { resolved: true });

    expect(await spaceCommentIds(s)).toEqual([onA, onB, general, onA2]);
    expect(await spaceCommentIds(s, { status: 'all' })).toEqual([onA, onB, general, onA2]);
    expect(await spaceCommentIds(s, { status: 'open' })).toEqual([onA, general, onA2]);
    expect(await spaceCommentIds(s, { status: 'resolved' })).toEqual([onB]);
    expect(await spaceCommentIds(s, { targetPage: a })).toEqual([onA, onA2]);
    expect(await spaceCommentIds(s, { targetPage: b, status: 'open' })).toEqual([]);
    expect(await spaceCommentIds(s, { authors: [commenter.id] })).toEqual([onB, onA2]);
    expect(await spaceCommentIds(s, { authors: [admin.id, editor.id] })).toEqual([onA, general]);
    expect(await spaceCommentIds(s, { authors: [commenter.id], targetPage: a })).toEqual([onA2]);
    expect(await spaceCommentIds(s, { authors: [reader.id] })).toEqual([]);

    const raw = await rawRequest(
      server.url,
      'GET',
      `/v1/spaces/${s}/comments?order=asc&authors=${admin.id}&authors=${commenter.id}`,
      { token: admin.token },
    );
    expect(raw.status).toBe(200);
    expect((raw.body as { items: Array<{ id: string }> }).items.map((c) => c.id)).toEqual([onA, onB, onA2]);
  });

  it('refuses bad list parameters with 400 naming them', async () => {
    const s = await space('Bad parameters');
    await postInSpace(admin, s, 'Something');
    for (const [query, field] of [
      ['?order=sideways', 'querystring.order'],
      ['?status=closed', 'querystring.status'],
      ['?format=html', 'querystring.format'],
      ['?page=garbage', 'querystring.page'],
    ] as const) {
      const res = await rawRequest(server.url, 'GET', `/v1/spaces/${s}/comments${query}`, {
        token: admin.token,
      });
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: { code: 400, message: expect.any(String) } });
      expect(res.text, query).toContain(field);
    }
  });
});

describe('updating space comments', () => {
  it('lets only the author edit the body, and marks it edited', async () => {
    const s = await space('Body edits');
    const comment = await postInSpace(commenter, s, 'Frist');
    for (const someone of [admin, other, editor]) {
      const refused = await failure(
        someone.api.spaces.updateCommentInSpace(s, comment.id, { body: { markdown: 'Hijacked' } }),
      );
      expect(refused.code, someone.email).toBe(403);
    }
    const unchanged = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;
    expect(markdownOf(unchanged)).toBe('Frist');
    expect(unchanged).not.toHaveProperty('editedAt');

    const { data: edited } = await commenter.api.spaces.updateCommentInSpace(s, comment.id, {
      body: { markdown: 'First' },
    });
    expect(markdownOf(edited)).toBe('First');
    expect(edited.editedAt).toEqual(expect.any(String));
    expect(Date.parse(edited.editedAt!)).toBeGreaterThan(Date.parse(comment.postedAt));
    expect(edited.postedAt).toBe(comment.postedAt);
    const { data: got } = await other.api.spaces.getCommentInSpace(s, comment.id);
    expect(markdownOf(got)).toBe('First');
    expect(got.editedAt).toBe(edited.editedAt);
  });

  it('resolves and reopens, by anyone with the comment role or above', async () => {
    const s = await space('Resolve');
    const comment = await postInSpace(admin, s, 'Fix the typo');
    const { data: resolved } = await commenter.api.spaces.updateCommentInSpace(s, comment.id, {
      resolved: true,
    });
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolvedAt: expect.any(String),
      resolvedBy: { id: commenter.id },
    });
    expect(markdownOf(resolved)).toBe('Fix the typo');
    expect((await reader.api.spaces.getCommentInSpace(s, comment.id)).data).toMatchObject({
      status: 'resolved',
      resolvedBy: { id: commenter.id },
    });

    const { data: reopened } = await other.api.spaces.updateCommentInSpace(s, comment.id, {
      resolved: false,
    });
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(reopened).not.toHaveProperty('resolvedBy');

    expect(
      (await failure(reader.api.spaces.updateCommentInSpace(s, comment.id, { resolved: true }))).code,
    ).toBe(403);
    expect((await admin.api.spaces.getCommentInSpace(s, comment.id)).data.status).toBe('open');

    // an author's restriction covers the body only: an editor resolves a commenter's comment
    const theirs = await postInSpace(commenter, s, 'Mine');
    const { data: byEditor } = await editor.api.spaces.updateCommentInSpace(s, theirs.id, { resolved: true });
    expect(byEditor).toMatchObject({ status: 'resolved', resolvedBy: { id: editor.id } });
  });

  it('keeps reactions per user: idempotent, counted, removed only for the caller', async () => {
    const s = await space('Reactions');
    const comment = await postInSpace(admin, s, 'React to me');
    const react = (user: TestUser, body: { addedReactions?: string[]; removedReactions?: string[] }) =>
      user.api.spaces.updateCommentInSpace(s, comment.id, body).then((r) => r.data);

    let c = await react(commenter, { addedReactions: ['👍'] });
    expect(c.reactions).toEqual([
      {
        emoji: '👍',
        count: 1,
        users: [{ user: expect.objectContaining({ id: commenter.id }), reactedAt: expect.any(String) }],
      },
    ]);
    c = await react(commenter, { addedReactions: ['👍'] });
    expect(reactionsOf(c)).toEqual({ '👍': { count: 1, users: [commenter.id] } });

    c = await react(admin, { addedReactions: ['👍', '🎉'] });
    expect(reactionsOf(c)).toEqual({
      '👍': { count: 2, users: [admin.id, commenter.id].sort() },
      '🎉': { count: 1, users: [admin.id] },
    });

    // commenter never reacted with 🎉: removing it takes nothing of admin's
    c = await react(commenter, { removedReactions: ['👍', '🎉'] });
    expect(reactionsOf(c)).toEqual({
      '👍': { count: 1, users: [admin.id] },
      '🎉': { count: 1, users: [admin.id] },
    });

    c = await react(admin, { removedReactions: ['🎉'] });
    expect(reactionsOf(c)).toEqual({ '👍': { count: 1, users: [admin.id] } });
    expect(reactionsOf((await reader.api.spaces.getCommentInSpace(s, comment.id)).data)).toEqual({
      '👍': { count: 1, users: [admin.id] },
    });

    for (const bad of [['thumbsup'], ['abc'], ['🎉', 'abc']]) {
      const refused = await failure(react(other, { addedReactions: bad }));
      expect(refused.code, bad.join(',')).toBe(400);
    }
    expect((await failure(react(admin, { removedReactions: ['thumbsup'] }))).code).toBe(400);
    expect((await failure(react(reader, { addedReactions: ['👀'] }))).code).toBe(403);
    expect(reactionsOf((await admin.api.spaces.getCommentInSpace(s, comment.id)).data)).toEqual({
      '👍': { count: 1, users: [admin.id] },
    });
  });
});

describe('deleting space comments', () => {
  it('deletes a comment with its replies; only its author or a space admin may', async () => {
    const s = await space('Deletes');
    const mine = await postInSpace(commenter, s, 'Mine');
    const admins = await postInSpace(admin, s, "Admin's");
    const reply = await replyInSpace(other, s, mine.id, 'A reply');

    expect((await failure(commenter.api.spaces.deleteCommentInSpace(s, admins.id))).code).toBe(403);
    expect((await failure(other.api.spaces.deleteCommentInSpace(s, mine.id))).code).toBe(403);
    expect((await failure(editor.api.spaces.deleteCommentInSpace(s, mine.id))).code).toBe(403);
    expect(await spaceCommentIds(s)).toEqual([mine.id, admins.id]);

    expect(await statusOf(commenter.api.spaces.deleteCommentInSpace(s, mine.id))).toBe(204);
    expect((await failure(admin.api.spaces.getCommentInSpace(s, mine.id))).code).toBe(404);
    expect((await failure(admin.api.spaces.getCommentReplyInSpace(s, mine.id, reply.id))).code).toBe(404);
    expect((await failure(admin.api.spaces.listCommentRepliesInSpace(s, mine.id))).code).toBe(404);
    expect(await spaceCommentIds(s)).toEqual([admins.id]);

    // deleting what is not there answers 204 too
    expect(await statusOf(commenter.api.spaces.deleteCommentInSpace(s, mine.id))).toBe(204);
    expect(await statusOf(admin.api.spaces.deleteCommentInSpace(s, 'no-such-comment'))).toBe(204);

    const theirs = await postInSpace(other, s, 'Spam');
    expect(await statusOf(admin.api.spaces.deleteCommentInSpace(s, theirs.id))).toBe(204);
    expect(await spaceCommentIds(s)).toEqual([admins.id]);
  });
});

describe('replies', () => {
  it('posts, lists, edits, reacts to and deletes replies; replies and repliers follow', async () => {
    const s = await space('Replies');
    const comment = await postInSpace(admin, s, 'Thread');

    const res = await commenter.api.spaces.postCommentReplyInSpace(s, comment.id, {
      body: { markdown: 'First reply' },
    });
    expect(res.status).toBe(200);
    const r1 = res.data;
    expect(r1).toMatchObject({
      object: 'comment-reply',
      id: expect.any(String),
      postedBy: { id: commenter.id },
      postedAt: expect.any(String),
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(markdownOf(r1)).toBe('First reply');
    expect(r1).not.toHaveProperty('editedAt');
    expect(r1.urls.location).toMatch(new RegExp(`/comments/${comment.id}/replies/${r1.id}$`));
    const r2 = await replyInSpace(commenter, s, comment.id, 'Second reply');
    const r3 = await replyInSpace(other, s, comment.id, 'Third reply');

    let parent = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;
    expect(parent.replies).toBe(3);
    expect(parent.repliers).toHaveLength(2);
    expect(repliersOf(parent)).toEqual({ [commenter.id]: 2, [other.id]: 1 });
    for (const replier of parent.repliers) expect(replier.updatedAt).toEqual(expect.any(String));

    const listed = await walk(
      async (page) =>
        (await admin.api.spaces.listCommentRepliesInSpace(s, comment.id, { limit: 2, page })).data,
    );
    expect(listed.pages).toBe(2);
    expect(listed.items.map((r) => r.id).sort()).toEqual([r1.id, r2.id, r3.id].sort());
    expect((await admin.api.spaces.getCommentReplyInSpace(s, comment.id, r1.id)).data).toMatchObject({
      id: r1.id,
      postedBy: { id: commenter.id },
    });

    // the body: its author only
    for (const someone of [admin, commenter]) {
      const refused = await failure(
        someone.api.spaces.updateCommentReplyInSpace(s, comment.id, r3.id, {
          body: { markdown: 'Hijacked' },
        }),
      );
      expect(refused.code).toBe(403);
    }
    const { data: edited } = await other.api.spaces.updateCommentReplyInSpace(s, comment.id, r3.id, {
      body: { markdown: 'Third reply, fixed' },
    });
    expect(markdownOf(edited)).toBe('Third reply, fixed');
    expect(edited.editedAt).toEqual(expect.any(String));

    // reactions: anyone with the comment role
    const { data: reacted } = await admin.api.spaces.updateCommentReplyInSpace(s, comment.id, r1.id, {
      addedReactions: ['👍'],
    });
    expect(reactionsOf(reacted)).toEqual({ '👍': { count: 1, users: [admin.id] } });
    await other.api.spaces.updateCommentReplyInSpace(s, comment.id, r1.id, { addedReactions: ['👍'] });
    const { data: removed } = await admin.api.spaces.updateCommentReplyInSpace(s, comment.id, r1.id, {
      removedReactions: ['👍'],
    });
    expect(reactionsOf(removed)).toEqual({ '👍': { count: 1, users: [other.id] } });
    expect(
      (
        await failure(
          reader.api.spaces.updateCommentReplyInSpace(s, comment.id, r1.id, { addedReactions: ['👀'] }),
        )
      ).code,
    ).toBe(403);
    expect(
      (
        await failure(
          other.api.spaces.updateCommentReplyInSpace(s, comment.id, r1.id, { addedReactions: ['abc'] }),
        )
      ).code,
    ).toBe(400);
    expect(reactionsOf((await admin.api.spaces.getCommentReplyInSpace(s, comment.id, r1.id)).data)).toEqual({
      '👍': { count: 1, users: [other.id] },
    });

    // deleting: the author or an admin
    expect((await failure(commenter.api.spaces.deleteCommentReplyInSpace(s, comment.id, r3.id))).code).toBe(
      403,
    );
    expect(await statusOf(admin.api.spaces.deleteCommentReplyInSpace(s, comment.id, r3.id))).toBe(204);
    expect(await statusOf(commenter.api.spaces.deleteCommentReplyInSpace(s, comment.id, r2.id))).toBe(204);
    expect((await failure(admin.api.spaces.getCommentReplyInSpace(s, comment.id, r2.id))).code).toBe(404);
    expect(await statusOf(commenter.api.spaces.deleteCommentReplyInSpace(s, comment.id, r2.id))).toBe(204);
    parent = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;
    expect(parent.replies).toBe(1);
    expect(parent.repliers).toHaveLength(1);
    expect(repliersOf(parent)).toEqual({ [commenter.id]: 1 });
    const { data: left } = await admin.api.spaces.listCommentRepliesInSpace(s, comment.id);
    expect(left.items.map((r) => r.id)).toEqual([r1.id]);
  });

  it('reports each caller its permissions on a reply', async () => {
    const s = await space('Reply permissions');
    const comment = await postInSpace(admin, s, 'Thread');
    const reply = await replyInSpace(commenter, s, comment.id, 'By the commenter');
    const seenBy = async (user: TestUser) =>
      (await user.api.spaces.getCommentReplyInSpace(s, comment.id, reply.id)).data.permissions;
    expect(await seenBy(commenter)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(await seenBy(admin)).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(await seenBy(other)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await seenBy(reader)).toEqual({ view: true, edit: false, reply: false, delete: false });
    const { data: list } = await reader.api.spaces.listCommentRepliesInSpace(s, comment.id);
    expect(list.items.map((r) => r.permissions)).toEqual([
      { view: true, edit: false, reply: false, delete: false },
    ]);
  });
});

describe('counters of open comments', () => {
  it('space.comments follows posts, resolutions, reopenings and deletes; replies do not count', async () => {
    const s = await space('Space counter');
    expect(await spaceCount(s)).toBe(0);
    const a = await postInSpace(admin, s, 'A');
    expect(await spaceCount(s)).toBe(1);
    const b = await postInSpace(commenter, s, 'B');
    expect(await spaceCount(s)).toBe(2);
    await replyInSpace(other, s, a.id, 'A reply');
    expect(await spaceCount(s)).toBe(2);
    await admin.api.spaces.updateCommentInSpace(s, a.id, { resolved: true });
    expect(await spaceCount(s)).toBe(1);
    await admin.api.spaces.updateCommentInSpace(s, a.id, { resolved: true });
    expect(await spaceCount(s)).toBe(1);
    await commenter.api.spaces.updateCommentInSpace(s, a.id, { resolved: false });
    expect(await spaceCount(s)).toBe(2);
    await commenter.api.spaces.updateCommentInSpace(s, a.id, { resolved: false });
    expect(await spaceCount(s)).toBe(2);
    await admin.api.spaces.updateCommentInSpace(s, a.id, { resolved: true });
    expect(await spaceCount(s)).toBe(1);
    await admin.api.spaces.deleteCommentInSpace(s, a.id);
    expect(await spaceCount(s)).toBe(1);
    await commenter.api.spaces.deleteCommentInSpace(s, b.id);
    expect(await spaceCount(s)).toBe(0);
    await commenter.api.spaces.deleteCommentInSpace(s, b.id);
    expect(await spaceCount(s)).toBe(0);
  });

  it("a change request's comments counts its open comments only", async () => {
    const s = await space('CR counter');
    const cr = await newChangeRequest(admin.api, s, 'Counted');
    const otherCr = await newChangeRequest(admin.api, s, 'Not counted');
    expect(await crCount(s, cr)).toBe(0);
    const a = await postInCr(admin, s, cr, 'A');
    expect(await crCount(s, cr)).toBe(1);
    const b = await postInCr(commenter, s, cr, 'B');
    expect(await crCount(s, cr)).toBe(2);
    await commenter.api.spaces.postCommentReplyInChangeRequest(s, cr, a.id, { body: { markdown: 'Reply' } });
    expect(await crCount(s, cr)).toBe(2);
    await commenter.api.spaces.updateCommentInChangeRequest(s, cr, a.id, { resolved: true });
    expect(await crCount(s, cr)).toBe(1);
    await admin.api.spaces.updateCommentInChangeRequest(s, cr, a.id, { resolved: false });
    expect(await crCount(s, cr)).toBe(2);
    await admin.api.spaces.updateCommentInChangeRequest(s, cr, a.id, { resolved: true });
    expect(await crCount(s, cr)).toBe(1);
    await admin.api.spaces.deleteCommentInChangeRequest(s, cr, a.id);
    expect(await crCount(s, cr)).toBe(1);
    await commenter.api.spaces.deleteCommentInChangeRequest(s, cr, b.id);
    expect(await crCount(s, cr)).toBe(0);
    // neither the other change request nor the space counted any of it
    expect(await crCount(s, otherCr)).toBe(0);
    expect(await spaceCount(s)).toBe(0);
    await postInCr(admin, s, cr, 'Still open');
    await postInSpace(admin, s, 'On the space');
    expect(await crCount(s, cr)).toBe(1);
    expect(await crCount(s, otherCr)).toBe(0);
    expect(await spaceCount(s)).toBe(1);
  });
});

describe('change-request comments', () => {
  it('posts on a change request: its target, pages of its revision, and its contributors', async () => {
    const s = await space('CR comments');
    const ids = await seed(admin.api, s, [insert('Main page', 'main')]);
    const cr = await newChangeRequest(admin.api, s, 'Review me');
    const written = await write(admin.api, s, cr, [
      insert('Draft page', 'draft'),
      { operation: 'delete_page', page: ids.get('Main page') },
    ]);
    const draftPage = (written.changes[0]!.page as { id: string }).id;
    const { data: crData } = await admin.api.spaces.getChangeRequestById(s, cr);

    const res = await commenter.api.spaces.postCommentInChangeRequest(s, cr, {
      body: { markdown: 'Why a new page?' },
      page: draftPage,
      node: 'n1',
    });
    expect(res.status).toBe(200);
    const comment = res.data;
    expect(comment).toMatchObject({
      object: 'comment',
      postedBy: { id: commenter.id },
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(comment.target).toEqual({
      space: s,
      revision: crData.revision,
      changeRequest: cr,
      page: { id: draftPage },
      node: { id: 'n1' },
    });
    expect(markdownOf(comment)).toBe('Why a new page?');
    expect(comment.urls.location).toMatch(
      new RegExp(`/v1/spaces/${s}/change-requests/${cr}/comments/${comment.id}$`),
    );

    // the page must exist in the change request's revision, not in the space's, and vice versa
    const inSpace = await failure(
      admin.api.spaces.postCommentInSpace(s, { body: { markdown: 'x' }, page: draftPage }),
    );
    expect(inSpace.code).toBe(400);
    expect(inSpace.message).toContain('body.page');
    const deleted = await failure(
      admin.api.spaces.postCommentInChangeRequest(s, cr, {
        body: { markdown: 'x' },
        page: ids.get('Main page'),
      }),
    );
    expect(deleted.code).toBe(400);
    expect(deleted.message).toContain('body.page');
    expect(
      (await admin.api.spaces.postCommentInSpace(s, { body: { markdown: 'ok' }, page: ids.get('Main page') }))
        .status,
    ).toBe(200);

    expect(await crCommentIds(s, cr)).toEqual([comment.id]);
    const { data: byNumber } = await admin.api.spaces.listCommentsInChangeRequest(s, String(crData.number));
    expect(byNumber.items.map((c) => c.id)).toEqual([comment.id]);
    expect((await commenter.api.spaces.getCommentInChangeRequest(s, cr, comment.id)).data).toEqual(comment);

    const { data: contributors } = await admin.api.spaces.getContributorsByChangeRequestId(s, cr);
    expect(contributors.items).toContainEqual(
      expect.objectContaining({
        actionType: 'comment',
        count: 1,
        user: expect.objectContaining({ id: commenter.id }),
      }),
    );
  });

  it('resolves, reacts, replies and deletes in the change-request family', async () => {
    const s = await space('CR threads');
    const cr = await newChangeRequest(admin.api, s);
    const comment = await postInCr(admin, s, cr, '# Title\n\n**bold** text');

    const { data: resolved } = await commenter.api.spaces.updateCommentInChangeRequest(s, cr, comment.id, {
      resolved: true,
      addedReactions: ['👍'],
    });
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: commenter.id } });
    expect(reactionsOf(resolved)).toEqual({ '👍': { count: 1, users: [commenter.id] } });
    expect(
      (
        await failure(
          commenter.api.spaces.updateCommentInChangeRequest(s, cr, comment.id, { body: { markdown: 'x' } }),
        )
      ).code,
    ).toBe(403);
    const { data: edited } = await admin.api.spaces.updateCommentInChangeRequest(s, cr, comment.id, {
      body: { markdown: 'Edited' },
    });
    expect(markdownOf(edited)).toBe('Edited');
    expect(edited.editedAt).toEqual(expect.any(String));
    await admin.api.spaces.updateCommentInChangeRequest(s, cr, comment.id, {
      body: { markdown: '# Title\n\n**bold** text' },
    });

    const { data: doc } = await admin.api.spaces.getCommentInChangeRequest(s, cr, comment.id, {
      format: 'document',
    });
    expect(documentOf(doc)?.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph']);
    const { data: docs } = await admin.api.spaces.listCommentsInChangeRequest(s, cr, { format: 'document' });
    expect(documentOf(docs.items[0]!)?.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph']);

    const res = await commenter.api.spaces.postCommentReplyInChangeRequest(s, cr, comment.id, {
      body: { markdown: '**bold** reply' },
    });
    expect(res.status).toBe(200);
    const reply = res.data;
    expect(reply).toMatchObject({ object: 'comment-reply', postedBy: { id: commenter.id } });
    expect(markdownOf(reply)).toBe('**bold** reply');
    const { data: asDocument } = await other.api.spaces.postCommentReplyInChangeRequest(
      s,
      cr,
      comment.id,
      { body: { markdown: '**other** reply' } },
      { format: 'document' },
    );
    expect(documentOf(asDocument)?.nodes.map((n) => n.type)).toEqual(['paragraph']);

    let parent = (await admin.api.spaces.getCommentInChangeRequest(s, cr, comment.id)).data;
    expect(parent.replies).toBe(2);
    expect(repliersOf(parent)).toEqual({ [commenter.id]: 1, [other.id]: 1 });

    const listed = await walk(
      async (page) =>
        (await admin.api.spaces.listCommentRepliesInChangeRequest(s, cr, comment.id, { limit: 1, page }))
          .data,
    );
    expect(listed.pages).toBe(2);
    expect(listed.items.map((r) => r.id).sort()).toEqual([reply.id, asDocument.id].sort());
    const { data: replyDoc } = await admin.api.spaces.getCommentReplyInChangeRequest(
      s,
      cr,
      comment.id,
      reply.id,
      {
        format: 'document',
      },
    );
    expect(documentOf(replyDoc)?.nodes.map((n) => n.type)).toEqual(['paragraph']);
    const { data: replyDocs } = await admin.api.spaces.listCommentRepliesInChangeRequest(s, cr, comment.id, {
      format: 'document',
    });
    for (const item of replyDocs.items) expect(documentOf(item)?.object).toBe('document');

    expect(
      (
        await failure(
          admin.api.spaces.updateCommentReplyInChangeRequest(s, cr, comment.id, reply.id, {
            body: { markdown: 'x' },
          }),
        )
      ).code,
    ).toBe(403);
    const { data: editedReply } = await commenter.api.spaces.updateCommentReplyInChangeRequest(
      s,
      cr,
      comment.id,
      reply.id,
      { body: { markdown: 'Fixed reply' } },
    );
    expect(markdownOf(editedReply)).toBe('Fixed reply');
    expect(
      (
        await failure(
          reader.api.spaces.updateCommentReplyInChangeRequest(s, cr, comment.id, reply.id, {
            addedReactions: ['👍'],
          }),
        )
      ).code,
    ).toBe(403);
    const { data: reactedReply } = await admin.api.spaces.updateCommentReplyInChangeRequest(
      s,
      cr,
      comment.id,
      reply.id,
      { addedReactions: ['❤️'] },
    );
    expect(reactionsOf(reactedReply)).toEqual({ '❤️': { count: 1, users: [admin.id] } });

    expect(
      (await failure(other.api.spaces.deleteCommentReplyInChangeRequest(s, cr, comment.id, reply.id))).code,
    ).toBe(403);
    expect(
      await statusOf(commenter.api.spaces.deleteCommentReplyInChangeRequest(s, cr, comment.id, reply.id)),
    ).toBe(204);
    expect(
      (await failure(admin.api.spaces.getCommentReplyInChangeRequest(s, cr, comment.id, reply.id))).code,
    ).toBe(404);
    parent = (await admin.api.spaces.getCommentInChangeRequest(s, cr, comment.id)).data;
    expect(parent.replies).toBe(1);
    expect(repliersOf(parent)).toEqual({ [other.id]: 1 });

    expect((await failure(commenter.api.spaces.deleteCommentInChangeRequest(s, cr, comment.id))).code).toBe(
      403,
    );
    expect(await statusOf(admin.api.spaces.deleteCommentInChangeRequest(s, cr, comment.id))).toBe(204);
    expect(
      (await failure(admin.api.spaces.getCommentReplyInChangeRequest(s, cr, comment.id, asDocument.id))).code,
    ).toBe(404);
    expect(await statusOf(admin.api.spaces.deleteCommentInChangeRequest(s, cr, comment.id))).toBe(204);
    expect(await crCommentIds(s, cr)).toEqual([]);
  });

  it('keeps the families, change requests and spaces apart: 404 across them', async () => {
    const a = await space('Family A');
    const b = await space('Family B');
    const cr1 = await newChangeRequest(admin.api, a, 'One');
    const cr2 = await newChangeRequest(admin.api, a, 'Two');
    const inSpace = await postInSpace(admin, a, 'Space comment');
    const inCr = await postInCr(admin, a, cr1, 'CR comment');
    const inB = await postInSpace(admin, b, 'Other space');
    const reply = await replyInSpace(admin, a, inSpace.id, 'A reply');

    const notFound = async (call: Promise<unknown>) => expect((await failure(call)).code).toBe(404);
    await notFound(admin.api.spaces.getCommentInSpace(a, inCr.id));
    await notFound(admin.api.spaces.getCommentInChangeRequest(a, cr1, inSpace.id));
    await notFound(admin.api.spaces.getCommentInChangeRequest(a, cr2, inCr.id));
    await notFound(admin.api.spaces.getCommentInSpace(b, inSpace.id));
    await notFound(admin.api.spaces.updateCommentInSpace(a, inCr.id, { resolved: true }));
    await notFound(admin.api.spaces.updateCommentInSpace(b, inSpace.id, { resolved: true }));
    await notFound(admin.api.spaces.updateCommentInChangeRequest(a, cr2, inCr.id, { resolved: true }));
    await notFound(
      admin.api.spaces.postCommentReplyInSpace(b, inSpace.id, { body: { markdown: 'Wrong space' } }),
    );
    await notFound(
      admin.api.spaces.postCommentReplyInSpace(a, inCr.id, { body: { markdown: 'Wrong family' } }),
    );
    await notFound(
      admin.api.spaces.postCommentReplyInChangeRequest(a, cr2, inCr.id, { body: { markdown: 'Wrong CR' } }),
    );
    await notFound(
      admin.api.spaces.postCommentReplyInChangeRequest(a, cr1, inSpace.id, {
        body: { markdown: 'Wrong family' },
      }),
    );
    await notFound(admin.api.spaces.listCommentRepliesInSpace(b, inSpace.id));
    await notFound(admin.api.spaces.listCommentRepliesInSpace(a, inCr.id));
    await notFound(admin.api.spaces.getCommentReplyInSpace(b, inSpace.id, reply.id));
    await notFound(admin.api.spaces.getCommentReplyInSpace(a, inB.id, reply.id));
    await notFound(admin.api.spaces.getCommentReplyInChangeRequest(a, cr1, inSpace.id, reply.id));

    // a delete through the wrong path finds nothing there: 204, and the comment stays
    expect(await statusOf(admin.api.spaces.deleteCommentInSpace(a, inCr.id))).toBe(204);
    expect(await statusOf(admin.api.spaces.deleteCommentInSpace(b, inSpace.id))).toBe(204);
    expect(await statusOf(admin.api.spaces.deleteCommentInChangeRequest(a, cr2, inCr.id))).toBe(204);
    expect(await statusOf(admin.api.spaces.deleteCommentReplyInSpace(b, inSpace.id, reply.id))).toBe(204);

    expect(await spaceCommentIds(a)).toEqual([inSpace.id]);
    expect(await spaceCommentIds(b)).toEqual([inB.id]);
    expect(await crCommentIds(a, cr1)).toEqual([inCr.id]);
    expect(await crCommentIds(a, cr2)).toEqual([]);
    const parent = (await admin.api.spaces.getCommentInSpace(a, inSpace.id)).data;
    expect(parent.replies).toBe(1);
    expect((await admin.api.spaces.getCommentReplyInSpace(a, inSpace.id, reply.id)).data.id).toBe(reply.id);
    expect((await admin.api.spaces.getCommentInChangeRequest(a, cr1, inCr.id)).data.status).toBe('open');
    expect(await spaceCount(a)).toBe(1);
    expect(await spaceCount(b)).toBe(1);
    expect(await crCount(a, cr1)).toBe(1);
    expect(await crCount(a, cr2)).toBe(0);
  });
});

describe('commenters', () => {
  it('lists the members who commented or replied in each family, each once, paginated', async () => {
    const s = await space('Commenters');
    const cr = await newChangeRequest(admin.api, s);
    const first = await postInSpace(admin, s, 'One');
    await postInSpace(admin, s, 'Two');
    await replyInSpace(commenter, s, first.id, 'Reply');
    await replyInSpace(commenter, s, first.id, 'Another reply');
    const crComment = await postInCr(other, s, cr, 'On the CR');
    await editor.api.spaces.postCommentReplyInChangeRequest(s, cr, crComment.id, {
      body: { markdown: 'Reply' },
    });

    const { data: inSpace } = await admin.api.spaces.listCommentersInSpace(s);
    for (const member of inSpace.items) expect(member.object).toBe('member');
    expect(inSpace.items.map((m) => m.user.id).sort()).toEqual([admin.id, commenter.id].sort());
    const paged = await walk(
      async (page) => (await admin.api.spaces.listCommentersInSpace(s, { limit: 1, page })).data,
    );
    expect(paged.pages).toBe(2);
    expect(paged.items.map((m) => m.user.id).sort()).toEqual([admin.id, commenter.id].sort());

    const { data: inCr } = await admin.api.spaces.listCommentersInChangeRequest(s, cr);
    for (const member of inCr.items) expect(member.object).toBe('member');
    expect(inCr.items.map((m) => m.user.id).sort()).toEqual([other.id, editor.id].sort());
    const pagedCr = await walk(
      async (page) => (await admin.api.spaces.listCommentersInChangeRequest(s, cr, { limit: 1, page })).data,
    );
    expect(pagedCr.pages).toBe(2);
    expect(pagedCr.items.map((m) => m.user.id).sort()).toEqual([other.id, editor.id].sort());

    const empty = await space('No commenters');
    expect((await admin.api.spaces.listCommentersInSpace(empty)).data.items).toEqual([]);
  });
});

describe('permissions', () => {
  it('lets readers read but not post, reply, resolve or react', async () => {
    const s = await space('Readers');
    const cr = await newChangeRequest(admin.api, s);
    const comment = await postInSpace(admin, s, 'Read me');
    const crComment = await postInCr(admin, s, cr, 'Read me too');
    const readOnly = { view: true, edit: false, reply: false, delete: false };

    const { data: list } = await reader.api.spaces.listCommentsInSpace(s);
    expect(list.items.map((c) => c.permissions)).toEqual([readOnly]);
    expect((await reader.api.spaces.getCommentInSpace(s, comment.id)).data.permissions).toEqual(readOnly);
    expect((await reader.api.spaces.getCommentInChangeRequest(s, cr, crComment.id)).data.permissions).toEqual(
      readOnly,
    );

    const forbidden = async (call: Promise<unknown>) => expect((await failure(call)).code).toBe(403);
    await forbidden(reader.api.spaces.postCommentInSpace(s, { body: { markdown: 'Nope' } }));
    await forbidden(reader.api.spaces.postCommentInChangeRequest(s, cr, { body: { markdown: 'Nope' } }));
    await forbidden(reader.api.spaces.postCommentReplyInSpace(s, comment.id, { body: { markdown: 'Nope' } }));
    await forbidden(
      reader.api.spaces.postCommentReplyInChangeRequest(s, cr, crComment.id, { body: { markdown: 'Nope' } }),
    );
    await forbidden(reader.api.spaces.updateCommentInSpace(s, comment.id, { resolved: true }));
    await forbidden(reader.api.spaces.updateCommentInSpace(s, comment.id, { addedReactions: ['👍'] }));
    await forbidden(reader.api.spaces.deleteCommentInSpace(s, comment.id));
    expect(await spaceCommentIds(s)).toEqual([comment.id]);
    expect(await crCommentIds(s, cr)).toEqual([crComment.id]);
    const after = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;
    expect(after).toMatchObject({ status: 'open', replies: 0, reactions: [] });
  });

  it("reports each caller's permissions: edit for the author, delete for the author and admins", async () => {
    const s = await space('Permission booleans');
    const admins = await postInSpace(admin, s, "Admin's");
    const commenters = await postInSpace(commenter, s, "Commenter's");
    const seen = async (user: TestUser, id: string) =>
      (await user.api.spaces.getCommentInSpace(s, id)).data.permissions;

    expect(await seen(admin, admins.id)).toEqual({ view: true, edit: true, reply: true, delete: true });
    expect(await seen(commenter, admins.id)).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(await seen(commenter, commenters.id)).toEqual({
      view: true,
      edit: true,
      reply: true,
      delete: true,
    });
    expect(await seen(admin, commenters.id)).toEqual({ view: true, edit: false, reply: true, delete: true });
    expect(await seen(editor, commenters.id)).toEqual({
      view: true,
      edit: false,
      reply: true,
      delete: false,
    });

    // in a list, each item carries the caller's own
    const { data } = await commenter.api.spaces.listCommentsInSpace(s, { order: 'asc' });
    expect(data.items.map((c) => [c.id, c.permissions.edit, c.permissions.delete])).toEqual([
      [admins.id, false, false],
      [commenters.id, true, true],
    ]);
  });

  it("hides a space's comments from users outside the organization", async () => {
    const s = await space('Private');
    const cr = await newChangeRequest(admin.api, s);
    const comment = await postInSpace(admin, s, 'Internal');
    const crComment = await postInCr(admin, s, cr, 'Internal too');
    const notFound = async (call: Promise<unknown>) => expect((await failure(call)).code).toBe(404);
    await notFound(outsider.api.spaces.listCommentsInSpace(s));
    await notFound(outsider.api.spaces.getCommentInSpace(s, comment.id));
    await notFound(outsider.api.spaces.postCommentInSpace(s, { body: { markdown: 'Hi' } }));
    await notFound(outsider.api.spaces.postCommentReplyInSpace(s, comment.id, { body: { markdown: 'Hi' } }));
    await notFound(outsider.api.spaces.listCommentRepliesInSpace(s, comment.id));
    await notFound(outsider.api.spaces.listCommentersInSpace(s));
    await notFound(outsider.api.spaces.listCommentsInChangeRequest(s, cr));
    await notFound(outsider.api.spaces.getCommentInChangeRequest(s, cr, crComment.id));
    await notFound(outsider.api.spaces.listCommentersInChangeRequest(s, cr));
    expect(await spaceCommentIds(s)).toEqual([comment.id]);
  });
});

describe('bad input leaves nothing written', () => {
  const expectError = (res: { status: number; body: unknown }, status: number, what: string) => {
    expect(res.status, what).toBe(status);
    expect(res.body, what).toMatchObject({ error: { code: status, message: expect.any(String) } });
  };

  it('refuses bad comment bodies and targets with 400, in both families', async () => {
    const s = await space('Bad comments');
    await seed(admin.api, s, [insert('Page', 'p')]);
    const cr = await newChangeRequest(admin.api, s);
    const kept = await postInSpace(commenter, s, 'Keep me');
    const keptInCr = await postInCr(commenter, s, cr, 'Keep me too');

    const bad: Array<[string, unknown]> = [
      ['no body at all', {}],
      ['an empty body', { body: {} }],
      ['empty markdown', { body: { markdown: '' } }],
      ['whitespace only', { body: { markdown: '  \n\t  ' } }],
      ['markdown over 20,000 characters', { body: { markdown: 'x'.repeat(20_001) } }],
      ['an unknown page', { body: { markdown: 'x' }, page: 'no-such-page' }],
    ];
    for (const [base, ids] of [
      [`/v1/spaces/${s}/comments`, [kept.id]],
      [`/v1/spaces/${s}/change-requests/${cr}/comments`, [keptInCr.id]],
    ] as const) {
      for (const [what, body] of bad) {
        const res = await rawRequest(server.url, 'POST', base, {
          token: commenter.token,
          body: body as object,
        });
        expectError(res, 400, `${base}: ${what}`);
        if (what === 'an unknown page') expect(res.text).toContain('body.page');
      }
      const { data } = base.includes('change-requests')
        ? await admin.api.spaces.listCommentsInChangeRequest(s, cr)
        : await admin.api.spaces.listCommentsInSpace(s);
      expect(data.items.map((c) => c.id)).toEqual(ids);
    }
    expect(await spaceCount(s)).toBe(1);
    expect(await crCount(s, cr)).toBe(1);

    // exactly 20,000 characters is fine
    const longest = await postInSpace(commenter, s, 'x'.repeat(20_000));
    expect(markdownOf(longest)).toHaveLength(20_000);
    expect(await spaceCount(s)).toBe(2);
  });

  it('refuses bad replies, reactions and edits, leaving the comment as it was', async () => {
    const s = await space('Bad updates');
    const elsewhere = await space('Elsewhere');
    const comment = await postInSpace(commenter, s, 'Original');
    await admin.api.spaces.updateCommentInSpace(s, comment.id, { addedReactions: ['👍'] });
    const before = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;

    for (const [what, body] of [
      ['no body', {}],
      ['empty markdown', { body: { markdown: '' } }],
      ['whitespace only', { body: { markdown: ' \n ' } }],
      ['markdown over 20,000 characters', { body: { markdown: 'x'.repeat(20_001) } }],
    ] as const) {
      const res = await rawRequest(server.url, 'POST', `/v1/spaces/${s}/comments/${comment.id}/replies`, {
        token: other.token,
        body,
      });
      expectError(res, 400, what);
    }
    const wrongSpace = await rawRequest(
      server.url,
      'POST',
      `/v1/spaces/${elsewhere}/comments/${comment.id}/replies`,
      { token: admin.token, body: { body: { markdown: 'Lost' } } },
    );
    expectError(wrongSpace, 404, 'a reply through another space');

    for (const reaction of ['thumbsup', 'abc']) {
      const res = await rawRequest(server.url, 'PUT', `/v1/spaces/${s}/comments/${comment.id}`, {
        token: other.token,
        body: { addedReactions: [reaction] },
      });
      expectError(res, 400, reaction);
    }
    const hijack = await rawRequest(server.url, 'PUT', `/v1/spaces/${s}/comments/${comment.id}`, {
      token: admin.token,
      body: { body: { markdown: 'Hijacked' } },
    });
    expectError(hijack, 403, "editing someone else's comment");

    const after = (await admin.api.spaces.getCommentInSpace(s, comment.id)).data;
    expect(after).toEqual(before);
    expect(markdownOf(after)).toBe('Original');
    expect((await admin.api.spaces.listCommentRepliesInSpace(s, comment.id)).data.items).toEqual([]);
    expect(await spaceCount(s)).toBe(1);
    expect(await spaceCount(elsewhere)).toBe(0);
    expect((await admin.api.spaces.listCommentersInSpace(s)).data.items.map((m) => m.user.id)).toEqual([
      commenter.id,
    ]);
  });
});
