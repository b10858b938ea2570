import type { GitBookAPI as GitBookAPI146 } from 'gitbook-api-0146';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient146, rawRequest } from '../helpers/client.js';
import { insert, seed } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Conversations through the API (GitBook 0.146's operations, with its client): ingest by admins
 * and by installations with `conversations:ingest`, idempotent per source and id, reads by
 * members, outsiders 404, bad input; the analysis into issues and clusters, and change requests
 * linked to a cluster.
 */

let server: TestServer;
let admin: TestUser;
let reader: TestUser;
let outsider: TestUser;
let orgId: string;
let api: GitBookAPI146;

const message = (role: 'user' | 'assistant' | 'team-member', body: string) => ({
  type: 'message' as const,
  role,
  body,
});

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server, { name: 'Ana Admin' });
  reader = await createUser(server, { name: 'Rob Reader' });
  outsider = await createUser(server, { name: 'Oz Outsider' });
  orgId = await createOrg(admin, 'Support');
  await createOrg(outsider, 'Elsewhere');
  await addMember(admin, orgId, reader, 'read');
  api = apiClient146(server.url, admin.token);
});
afterAll(() => server.close());

const runJobs = () => server.app.quire.services.jobs.runDue();

describe('ingesting conversations', () => {
  it('takes one or a batch, answers 204 at once, and lists them newest first', async () => {
    const one = await api.orgs.ingestConversation(orgId, {
      id: 'ticket-1',
      subject: 'Cannot reset my password',
      metadata: { url: 'https://support.example.com/tickets/1', createdAt: '2026-11-20T10:00:00.000Z' },
      parts: [
        message('user', 'The reset link in the email says it expired.'),
        message('team-member', 'Sorry!'),
      ],
    });
    expect(one.status).toBe(204);
    const batch = await api.orgs.ingestConversation(orgId, [
      { id: 'ticket-2', parts: [message('user', 'How do I export a space to PDF?')] },
      { id: 'ticket-3', parts: [message('assistant', 'Hello, how can I help?')] },
    ]);
    expect(batch.status).toBe(204);
    const { data } = await api.orgs.listConversations(orgId);
    expect(data.items).toHaveLength(3);
    const first = data.items.find((c) => c.subject === 'Cannot reset my password')!;
    expect(first).toMatchObject({
      object: 'conversation',
      createdAt: '2026-11-20T10:00:00.000Z',
      source: `integration:api:${admin.id}`,
      urls: { source: 'https://support.example.com/tickets/1' },
    });
    expect(first.processedAt).toBeUndefined();
    const { data: whole } = await api.orgs.getConversationById(orgId, first.id);
    expect(whole.parts).toHaveLength(2);
    expect(whole.metadata.url).toBe('https://support.example.com/tickets/1');
  });

  it('replaces a conversation sent again with the same id, never duplicating it', async () => {
    await api.orgs.ingestConversation(orgId, {
      id: 'ticket-1',
      subject: 'Cannot reset my password (again)',
      parts: [message('user', 'Still expired.')],
    });
    const { data } = await api.orgs.listConversations(orgId);
    expect(data.items).toHaveLength(3);
    const again = data.items.find((c) => c.subject?.startsWith('Cannot reset'))!;
    expect(again.subject).toBe('Cannot reset my password (again)');
    expect((await api.orgs.getConversationById(orgId, again.id)).data.parts).toHaveLength(1);
    const bySource = await api.orgs.listConversations(orgId, { source: `integration:api:${admin.id}` });
    expect(bySource.data.items).toHaveLength(3);
    expect((await api.orgs.listConversations(orgId, { source: 'email' })).data.items).toHaveLength(0);
  });

  it('is for admins; members read; everyone else is answered 404', async () => {
    const readerApi = apiClient146(server.url, reader.token);
    const outsiderApi = apiClient146(server.url, outsider.token);
    const body = { id: 'x', parts: [message('user', 'hi')] };
    expect((await failure(readerApi.orgs.ingestConversation(orgId, body))).code).toBe(403);
    expect((await failure(outsiderApi.orgs.ingestConversation(orgId, body))).code).toBe(404);
    expect((await readerApi.orgs.listConversations(orgId)).data.items.length).toBe(3);
    expect((await failure(outsiderApi.orgs.listConversations(orgId))).code).toBe(404);
    expect((await failure(outsiderApi.orgs.listConversationsIssuesClusters(orgId))).code).toBe(404);
    expect((await failure(api.orgs.getConversationById(orgId, 'nope'))).code).toBe(404);
    expect((await failure(api.orgs.getConversationIssueById(orgId, 'nope'))).code).toBe(404);
    expect((await failure(api.orgs.getConversationsIssuesCluster(orgId, 'nope'))).code).toBe(404);
  });

  it('names the field and the rule of bad input, and keeps nothing of a refused batch', async () => {
    const post = (body: unknown) =>
      rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/conversations`, {
        token: admin.token,
        body: body as object,
      });
    const cases: Array<[unknown, string]> = [
      [{ parts: [] }, 'id'],
      [{ id: '', parts: [] }, 'id'],
      [{ id: 'a'.repeat(256), parts: [] }, 'id'],
      [{ id: 'a' }, 'parts'],
      [{ id: 'a', parts: [{ type: 'note', role: 'user', body: 'x' }] }, 'type'],
      [{ id: 'a', parts: [{ type: 'message', role: 'bot', body: 'x' }] }, 'role'],
      [{ id: 'a', subject: 's'.repeat(513), parts: [] }, 'subject'],
      [{ id: 'a', parts: [], metadata: { createdAt: 'yesterday' } }, 'createdAt'],
      [Array.from({ length: 101 }, (_, i) => ({ id: `b${i}`, parts: [] })), 'body'],
      [[], 'body'],
      [[{ id: 'ok', parts: [] }, { id: 'bad' }], 'parts'],
      [[{ id: 'ok', parts: [] }, 'not an object'], 'body'],
      [{ id: 'a', parts: [{ type: 'message', role: 'user', body: 42 }] }, 'body'],
      [{ id: 'a', parts: [{ type: 'message', role: 'user', body: 'x'.repeat(100_001) }] }, 'body'],
      [{ id: 'a', parts: Array.from({ length: 501 }, () => message('user', 'x')) }, 'parts'],
      [{ id: 'a', parts: [], metadata: { attributes: { plan: 3 } } }, 'attributes'],
      [
        {
          id: 'a',
          parts: [],
          metadata: { attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        },
        'attributes',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect((await api.orgs.listConversations(orgId)).data.items).toHaveLength(3);
    for (const query of ['order=sideways', 'orderBy=foo', 'status=done', 'limit=1001']) {
      const res = await rawRequest(server.url, 'GET', `/v1/orgs/${orgId}/conversations-clusters?${query}`, {
        token: admin.token,
      });
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body), query).toContain(query.split('=')[0]!);
    }
  });

  it('takes conversations from an installed integration with conversations:ingest, as its own source', async () => {
    const { data } = await admin.api.integrations.publishIntegration('support-feed', {
      title: 'Support feed',
      description: 'Sends support conversations',
      script: 'export default {};',
      organization: orgId,
      scopes: ['conversations:ingest'],
    } as never);
    const installation = (await admin.api.integrations.installIntegration(data.name, { organization: orgId }))
      .data;
    const token = await server.app.quire.services.integrationIdentities.installationToken(
      { id: installation.id, org_id: orgId, integration_name: data.name },
      { title: 'Support feed', scopes: ['conversations:ingest'] },
    );
    const feed = apiClient146(server.url, token);
    expect(
      (
        await feed.orgs.ingestConversation(orgId, {
          id: 'chat-9',
          parts: [message('user', 'Where is the changelog?')],
        })
      ).status,
    ).toBe(204);
    const source = `integration:support-feed:${installation.id}`;
    const listed = (await api.orgs.listConversations(orgId, { source })).data.items;
    expect(listed.map((c) => c.source)).toEqual([source]);
    // Without the scope, the same installation is refused.
    const narrow = await server.app.quire.services.integrationIdentities.installationToken(
      { id: installation.id, org_id: orgId, integration_name: data.name },
      { title: 'Support feed', scopes: ['space:content:read'] },
    );
    const refused = await failure(
      apiClient146(server.url, narrow).orgs.ingestConversation(orgId, { id: 'x', parts: [] }),
    );
    expect(refused.code).toBe(403);
    await admin.api.integrations.unpublishIntegration(data.name);
  });
});

describe('the analysis', () => {
  const password = [
    'The password reset link I got by email says it has expired.',
    'My password reset link is expired when I click it.',
    'Reset password email link expired, how do I get a new reset link?',
    'Password reset link expired again after one hour.',
  ];
  const pdf = [
    'How can I export a whole space to PDF for our auditors?',
    'Is there a way to export the space as a PDF file?',
    'Export to PDF is missing, I need a PDF export of the space.',
  ];

  it('extracts issues, clusters them, and marks what no page answers as a gap', async () => {
    const docs = (await admin.api.orgs.createSpace(orgId, { title: 'Help' })).data.id;
    await seed(admin.api, docs, [
      insert(
        'Reset your password',
        'If your password reset link expired, ask for a new reset link from the sign-in page. Links expire after one hour.',
      ),
    ]);
    await api.orgs.ingestConversation(orgId, [
      ...password.map((body, i) => ({ id: `pw-${i}`, parts: [message('user', body)] })),
      ...pdf.map((body, i) => ({ id: `pdf-${i}`, parts: [message('user', body)] })),
      { id: 'bot-only', parts: [message('assistant', 'Is there anything else?')] },
    ]);
    await runJobs();

    const conversations = (await api.orgs.listConversations(orgId, { limit: 100 })).data.items;
    expect(conversations.every((c) => c.processedAt)).toBe(true);
    const { data: issues } = await api.orgs.listConversationsIssues(orgId, { limit: 100 });
    // One issue per conversation with a user message: not the two assistant-only ones.
    expect(issues.items).toHaveLength(conversations.length - 2);

    const { data: clusters } = await api.orgs.listConversationsIssuesClusters(orgId, { limit: 100 });
    const clusterOf = (text: string) => {
      const issue = issues.items.find((i) => i.issue.summary.includes(text))!.issue;
      return clusters.items.find((c) => c.id === issue.cluster)!;
    };
    const pw = clusterOf(password[0]!);
    const export_ = clusterOf(pdf[0]!);
    expect(pw.id).not.toBe(export_.id);
    for (const body of password) expect(clusterOf(body).id).toBe(pw.id);
    for (const body of pdf) expect(clusterOf(body).id).toBe(export_.id);
    // The four, and the earlier ticket about a reset password (sent again above).
    expect(pw.stats).toMatchObject({ issues: 5, conversations: 5, tasksTotal: 0 });
    expect(clusterOf('Still expired.').id).toBe(pw.id);
    expect(pw.weeklyPulse).toHaveLength(13);
    expect(pw.weeklyPulse.reduce((a, b) => a + b, 0)).toBe(5);
    expect(pw.sources).toEqual({ [`integration:api:${admin.id}`]: 5 });
    expect(pw.summary).toContain('5 issues from 5 conversations');
    // The help page answers the password cluster; nothing answers the PDF one.
    expect(pw.summary).not.toContain('documentation gap');
    expect(export_.summary).toContain('documentation gap');
    const members = await api.orgs.listConversationsIssues(orgId, { cluster: pw.id });
    expect(members.data.items).toHaveLength(5);
    expect((await api.orgs.getConversationsIssuesCluster(orgId, pw.id)).data.label).toBe(pw.label);
  });

  it('keeps cluster ids when it runs again, and places a new issue in its cluster', async () => {
    const before = (await api.orgs.listConversationsIssuesClusters(orgId, { limit: 100 })).data.items;
    await api.orgs.ingestConversation(orgId, {
      id: 'pw-late',
      parts: [message('user', 'The password reset link expired before I could use it.')],
    });
    await runJobs();
    const after = (await api.orgs.listConversationsIssuesClusters(orgId, { limit: 100 })).data.items;
    expect(after.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    const late = (await api.orgs.listConversationsIssues(orgId, { limit: 100 })).data.items.find((i) =>
      i.issue.summary.includes('expired before I could use it'),
    )!.issue;
    const pw = after.find((c) => c.id === late.cluster)!;
    expect(pw.label.toLowerCase()).toContain('password');
    const was = before.find((c) => c.id === pw.id)!;
    expect(pw.stats.issues).toBe(was.stats.issues + 1);
    // Ordered by size when asked.
    const bySize = (
      await api.orgs.listConversationsIssuesClusters(orgId, { orderBy: 'issues', order: 'desc' })
    ).data.items;
    expect(bySize[0]!.id).toBe(pw.id);
  });

  it('counts change requests opened for a cluster as its tasks, and filters them by it', async () => {
    const pw = (await api.orgs.listConversationsIssuesClusters(orgId, { orderBy: 'issues' })).data.items[0]!;
    const space = (await admin.api.orgs.createSpace(orgId, { title: 'Fixes' })).data.id;
    const created = await admin.api.spaces.createChangeRequest(space, {
      subject: 'Explain expired reset links',
      conversationsIssuesCluster: pw.id,
    } as never);
    expect((created.data as { conversationsIssuesCluster?: string }).conversationsIssuesCluster).toBe(pw.id);
    await admin.api.spaces.createChangeRequest(space, { subject: 'Unrelated' });
    const after = (await api.orgs.getConversationsIssuesCluster(orgId, pw.id)).data;
    expect(after.stats).toMatchObject({ tasksTotal: 1, tasksBacklog: 1, tasksStarted: 0 });
    const linked = await api.spaces.listChangeRequestsForSpace(space, {
      conversationsIssuesCluster: pw.id,
      status: 'draft' as never,
    });
    expect(linked.data.items.map((cr) => cr.subject)).toEqual(['Explain expired reset links']);
    const bad = await rawRequest(server.url, 'POST', `/v1/spaces/${space}/change-requests`, {
      token: admin.token,
      body: { subject: 'x', conversationsIssuesCluster: 'no-such-cluster' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('body.conversationsIssuesCluster');
    // Merged, it counts as completed.
    await admin.api.spaces.mergeChangeRequest(space, created.data.id);
    const merged = (await api.orgs.getConversationsIssuesCluster(orgId, pw.id)).data;
    expect(merged.stats).toMatchObject({ tasksTotal: 1, tasksBacklog: 0, tasksCompleted: 1 });
  });

  it('pages through clusters one at a time, in either order, each once', async () => {
    const walk = async (order: 'asc' | 'desc') => {
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const { data } = await api.orgs.listConversationsIssuesClusters(orgId, {
          orderBy: 'issues',
          order,
          limit: 1,
          ...(page ? { page } : {}),
        });
        seen.push(...data.items.map((c) => c.id));
        page = data.next?.page;
      } while (page);
      return seen;
    };
    const desc = await walk('desc');
    const asc = await walk('asc');
    expect(new Set(desc).size).toBe(desc.length);
    expect(desc.length).toBeGreaterThanOrEqual(2);
    const all = (await api.orgs.listConversationsIssuesClusters(orgId, { limit: 100 })).data.items;
    expect(desc.length).toBe(all.length);
    const sizes = (ids: string[]) => ids.map((id) => all.find((c) => c.id === id)!.stats.issues);
    expect(sizes(desc)).toEqual([...sizes(desc)].sort((a, b) => b - a));
    expect(sizes(asc)).toEqual([...sizes(asc)].sort((a, b) => a - b));
  });
});
