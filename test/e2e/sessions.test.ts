import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearSessionCookie, SESSION_COOKIE, sessionCookie } from '../../src/areas/sessions/cookie.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS, SESSION_RENEW_AFTER_MS } from '../../src/areas/sessions/service.js';
import { ManualClock } from '../../src/clock.js';
import { createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('browser sessions on the API', () => {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  let server: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    alice = await createUser(server, { name: 'Alice' });
  });
  afterAll(async () => server?.close());

  const sessions = () => server.app.quire.services.sessions;
  const cookieOf = (value: string) => ({ cookie: `other=1; ${SESSION_COOKIE}=${value}` });
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}/v1${path}`, init);

  it('accepts the session cookie on API routes, as the same person as their tokens', async () => {
    const { cookieValue } = await sessions().start(alice.id, 'link');
    const res = await api('/user', { headers: cookieOf(cookieValue) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(alice.id);

    const unknown = await api('/user', { headers: cookieOf('quire_nope') });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ error: { code: 401 } });
  });

  it('stores only a digest of the cookie value', async () => {
    const { cookieValue } = await sessions().start(alice.id, 'link', 'Test agent');
    const rows = await server.database.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(cookieValue);
    expect(rows.some((r) => r.user_agent === 'Test agent' && r.source === 'link')).toBe(true);
  });

  it('refuses cookie writes without a same-origin Origin or the CSRF token, and accepts either', async () => {
    const { cookieValue } = await sessions().start(alice.id, 'link');
    const body = JSON.stringify({ title: 'From the browser' });
    const json = { 'content-type': 'application/json', ...cookieOf(cookieValue) };

    const bare = await api('/orgs', { method: 'POST', headers: json, body });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ error: { code: 403 } });
    const foreign = await api('/orgs', {
      method: 'POST',
      headers: { ...json, origin: 'https://evil.test' },
      body,
    });
    expect(foreign.status).toBe(403);
    const wrongToken = await api('/orgs', {
      method: 'POST',
      headers: { ...json, 'x-quire-csrf': 'guess' },
      body,
    });
    expect(wrongToken.status).toBe(403);

    const sameOrigin = await api('/orgs', { method: 'POST', headers: { ...json, origin: server.url }, body });
    expect(sameOrigin.status).toBe(201);
    const csrf = sessions().csrfToken(cookieValue);
    const withToken = await api('/orgs', {
      method: 'POST',
      headers: { ...json, 'x-quire-csrf': csrf },
      body,
    });
    expect(withToken.status).toBe(201);

    // Reads need no proof, and bearer writes are untouched by the check.
    expect((await api('/orgs', { headers: cookieOf(cookieValue) })).status).toBe(200);
    const bearer = await api('/orgs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
      body,
    });
    expect(bearer.status).toBe(201);
  });

  it('expires an idle session, renews a used one, and never past the absolute limit', async () => {
    const idle = await sessions().start(alice.id, 'link');
    const busy = await sessions().start(alice.id, 'link');
    const started = clock.now().getTime();
    // Used every few days: each use after the renewal interval pushes the expiry forward.
    for (let day = 3; day < 28; day += 3) {
      clock.set(new Date(started + day * DAY));
      expect((await api('/user', { headers: cookieOf(busy.cookieValue) })).status).toBe(200);
    }
    expect((await api('/user', { headers: cookieOf(idle.cookieValue) })).status).toBe(401);
    const row = await server.database.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('user_id', '=', alice.id)
      .orderBy('expires_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at)).toBe(started + SESSION_MAX_MS);

    clock.set(new Date(started + SESSION_MAX_MS - HOUR));
    expect((await api('/user', { headers: cookieOf(busy.cookieValue) })).status).toBe(200);
    clock.set(new Date(started + SESSION_MAX_MS));
    expect((await api('/user', { headers: cookieOf(busy.cookieValue) })).status).toBe(401);
  });

  it('does not write on every request: renewal waits for the renewal interval', async () => {
    const s = await sessions().start(alice.id, 'link');
    clock.advance(SESSION_RENEW_AFTER_MS / 2);
    await sessions().resolve(s.cookieValue);
    expect(await sessions().expiresAt(s.cookieValue)).toBe(s.expiresAt);
    clock.advance(SESSION_RENEW_AFTER_MS);
    await sessions().resolve(s.cookieValue);
    expect(Date.parse((await sessions().expiresAt(s.cookieValue))!)).toBe(
      clock.now().getTime() + SESSION_IDLE_MS,
    );
  });

  it('signs out one session, or everywhere', async () => {
    const a = await sessions().start(alice.id, 'link');
    const b = await sessions().start(alice.id, 'saml:p1');
    await sessions().end(a.cookieValue);
    expect(await sessions().resolve(a.cookieValue)).toBeUndefined();
    expect(await sessions().resolve(b.cookieValue)).toMatchObject({ userId: alice.id });
    const c = await sessions().start(alice.id, 'link');
    expect(await sessions().endAll(alice.id)).toBeGreaterThanOrEqual(2);
    expect(await sessions().resolve(b.cookieValue)).toBeUndefined();
    expect(await sessions().resolve(c.cookieValue)).toBeUndefined();
    // The person's API tokens are not sessions: they keep working.
    expect((await api('/user', { headers: { authorization: `Bearer ${alice.token}` } })).status).toBe(200);
  });

  it('refuses an expired API token like an unknown one', async () => {
    const { tokens } = server.app.quire.services;
    const expiresAt = new Date(clock.now().getTime() + HOUR).toISOString();
    const issued = await tokens.create(alice.id, 'short', undefined, expiresAt);
    const auth = { authorization: `Bearer ${issued.token}` };
    expect((await api('/user', { headers: auth })).status).toBe(200);
    clock.advance(HOUR);
    const expired = await api('/user', { headers: auth });
    const unknown = await api('/user', { headers: { authorization: 'Bearer quire_unknown' } });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual(await unknown.json());
  });

  it('builds the cookie with the right attributes', () => {
    const expires = '2026-07-01T00:00:00.000Z';
    const plain = sessionCookie({ publicUrl: 'http://localhost:3000' }, 'quire_abc', expires);
    expect(plain).toBe(
      `${SESSION_COOKIE}=quire_abc; Path=/; Expires=Wed, 01 Jul 2026 00:00:00 GMT; HttpOnly; SameSite=Lax`,
    );
    expect(sessionCookie({ publicUrl: 'https://docs.example.com' }, 'quire_abc', expires)).toMatch(
      /; Secure$/,
    );
    expect(clearSessionCookie({ publicUrl: 'https://docs.example.com' })).toMatch(
      /^quire_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax; Secure$/,
    );
  });
});
