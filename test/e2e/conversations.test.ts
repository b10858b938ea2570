import type { GitBookAPI as GitBookAPI146 } from 'gitbook-api-0146';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient146, rawRequest } from '../helpers/client.js';
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
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(body).slice(0, 80)).toContain(field);
    }
    expect((await api.orgs.listConversations(orgId)).data.items).toHaveLength(3);
  });
});
