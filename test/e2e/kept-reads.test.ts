import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { comparableHeaders } from '../helpers/headers.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * API reads answered before routing from their kept answers (src/http/kept-reads.ts,
 * src/http/front-door.ts) must be the answers the routed path gives: the same headers and body,
 * the caller's own answer, the same rate limit, and never an answer the API no longer gives.
 */

/**
 * A GET of `path` with the user's token, repeated until the front door answers it (a commit of
 * the first reads, "last used", may forget the answer the first one kept).
 */
async function readAtDoor(
  server: TestServer,
  user: TestUser | string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const door = server.app.quire.frontDoor;
  const token = typeof user === 'string' ? user : user.token;
  for (let i = 0; i < 3; i++) {
    const before = door.answeredReads;
    const answer = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, ...headers },
    });
    if (door.answeredReads === before + 1) return answer;
  }
  throw new Error(`${path} never answered before routing`);
}

const HOUR = 3_600_000;

describe('API reads answered before routing', () => {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  let server: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;
  beforeAll(async () => {
    server = await startTestServer({ clock });
    owner = await createUser(server, { name: 'Kept owner' });
    reader = await createUser(server, { name: 'Kept reader' });
    orgId = await createOrg(owner, 'Kept org');
    await addMember(owner, orgId, reader, 'read');
  });
  afterAll(async () => {
    await server.close();
  });

  const door = () => server.app.quire.frontDoor;
  const read = (user: TestUser | string, path = `/v1/orgs/${orgId}`, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${typeof user === 'string' ? user : user.token}`, ...headers },
    });
  const atDoor = (user: TestUser | string, path = `/v1/orgs/${orgId}`, headers?: Record<string, string>) =>
    readAtDoor(server, user, path, headers);

  it('answers as the routed path does: status, headers, body, request ids and rate limit', async () => {
    const routed = await read(owner, `/v1/orgs/${orgId}`, { origin: 'https://elsewhere.test' });
    expect(routed.status).toBe(200);
    const early = await atDoor(owner, `/v1/orgs/${orgId}`, { origin: 'https://elsewhere.test' });
    expect(early.status).toBe(200);
    expect(comparableHeaders(early.headers, ['x-ratelimit-remaining'])).toEqual(
      comparableHeaders(routed.headers, ['x-ratelimit-remaining']),
    );
    expect(await early.text()).toBe(await routed.text());
    expect(early.headers.get('access-control-allow-origin')).toBe('*');
    expect(early.headers.get('x-request-id')).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(early.headers.get('x-request-id')).not.toBe(routed.headers.get('x-request-id'));
    // Counted like any request of the token: one fewer left each time.
    const left = Number(early.headers.get('x-ratelimit-remaining'));
    const next = await atDoor(owner);
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
    expect(next.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('gives each token its own answer, and nothing for a token it does not know', async () => {
    const ownerAnswer = (await (await atDoor(owner)).json()) as { permissions: { admin: boolean } };
    expect(ownerAnswer.permissions.admin).toBe(true);
    const before = door().answeredReads;
    const first = await read(reader);
    expect(door().answeredReads).toBe(before);
    expect(((await first.json()) as { permissions: { admin: boolean } }).permissions.admin).toBe(false);
    const again = (await (await atDoor(reader)).json()) as { permissions: { admin: boolean } };
    expect(again.permissions.admin).toBe(false);

    const stranger = await read('quire_not-a-token');
    expect(stranger.status).toBe(401);
    const outsider = await createUser(server, { name: 'Outsider' });
    expect((await read(outsider)).status).toBe(404);
    expect((await read(outsider)).status).toBe(404);
    expect(door().answeredReads).toBe(before + 1);
  });

  it('keeps only the routes marked, and each spelling of the URL apart', async () => {
    await atDoor(owner);
    const before = door().answeredReads;
    // Not marked: the list of organizations goes the whole way every time.
    for (let i = 0; i < 3; i++) expect((await read(owner, '/v1/orgs')).status).toBe(200);
    // Another spelling of the same read is a read of its own; HEAD is never answered here.
    expect((await read(owner, `/v1/orgs/${orgId}?x=1`)).status).toBe(200);
    expect(door().answeredReads).toBe(before);
    const head = await fetch(`${server.url}/v1/orgs/${orgId}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(head.status).toBe(200);
    expect(door().answeredReads).toBe(before);
    await atDoor(owner, `/v1/orgs/${orgId}?x=1`);
  });

  it('never answers what the API no longer gives: a change, a removed member, a revoked or expired token', async () => {
    await atDoor(owner);
    await owner.api.orgs.updateOrganizationById(orgId, { title: 'Kept org, renamed' } as never);
    const renamed = await read(owner);
    expect(((await renamed.json()) as { title: string }).title).toBe('Kept org, renamed');

    await atDoor(reader);
    await owner.api.orgs.removeMemberFromOrganizationById(orgId, reader.id);
    expect((await read(reader)).status).toBe(404);

    const { tokens } = server.app.quire.services;
    const second = await tokens.create(owner.id, 'second');
    await atDoor(second.token);
    await tokens.revoke(second.token);
    expect((await read(second.token)).status).toBe(401);

    const expiresAt = new Date(clock.now().getTime() + HOUR).toISOString();
    const short = await tokens.create(owner.id, 'short', undefined, expiresAt);
    await atDoor(short.token);
    clock.advance(HOUR);
    const before = door().answeredReads;
    expect((await read(short.token)).status).toBe(401);
    expect(door().answeredReads).toBe(before);
  });
});

describe('API reads answered before routing: the user and a space', () => {
  let server: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let spaceId: string;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Space owner' });
    reader = await createUser(server, { name: 'Space reader' });
    const orgId = await createOrg(owner);
    await addMember(owner, orgId, reader, 'read');
    spaceId = (await owner.api.orgs.createSpace(orgId, { title: 'Polled space' })).data.id;
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers GET /v1/user with the caller, and GET /v1/spaces/{id} as it is now', async () => {
    for (const user of [owner, reader]) {
      const me = (await (await readAtDoor(server, user, '/v1/user')).json()) as { id: string };
      expect(me.id).toBe(user.id);
    }
    const space = async (user: TestUser) =>
      (await (await readAtDoor(server, user, `/v1/spaces/${spaceId}`)).json()) as {
        title: string;
        permissions: { edit: boolean };
      };
    expect(await space(owner)).toMatchObject({ title: 'Polled space', permissions: { edit: true } });
    expect(await space(reader)).toMatchObject({ title: 'Polled space', permissions: { edit: false } });
    await owner.api.spaces.updateSpaceById(spaceId, { title: 'Polled space, renamed' });
    const renamed = await owner.api.spaces.getSpaceById(spaceId);
    expect(renamed.data.title).toBe('Polled space, renamed');
    expect((await space(reader)).title).toBe('Polled space, renamed');
  });
});

describe('API reads answered before routing, with a small rate limit', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { QUIRE_RATE_LIMIT: '6' } });
    owner = await createUser(server);
    orgId = await createOrg(owner);
  });
  afterAll(async () => {
    await server.close();
  });

  it('counts reads answered at the door and refuses past the limit as the routed path does', async () => {
    const read = () =>
      fetch(`${server.url}/v1/orgs/${orgId}`, { headers: { authorization: `Bearer ${owner.token}` } });
    // One request (creating the organization) is counted already.
    const left: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await read();
      expect(answer.status).toBe(200);
      left.push(Number(answer.headers.get('x-ratelimit-remaining')));
    }
    expect(left).toEqual([4, 3, 2, 1, 0]);
    expect(server.app.quire.frontDoor.answeredReads).toBeGreaterThan(0);
    const refused = await read();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(429);
  });
});
