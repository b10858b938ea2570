import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderLoginPage } from '../../src/areas/sessions/pages-html.js';
import { safeReturnPath } from '../../src/areas/sessions/return-path.js';
import { SESSION_IDLE_MS, SESSION_MAX_MS, SESSION_RENEW_AFTER_MS } from '../../src/areas/sessions/service.js';
import { clearSessionCookie, SESSION_COOKIE, sessionCookie } from '../../src/auth/session-cookie.js';
import { ManualClock } from '../../src/clock.js';
import { addMember, createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { docsSpace, publishedSite } from '../helpers/sites.js';

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

  it('purges expired sessions and old login links every hour, keeping live ones', async () => {
    const { db } = server.database;
    const count = async (table: 'sessions' | 'login_links') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stale = await sessions().start(alice.id, 'link');
    await sessions().createLoginLink(alice.email);
    clock.advance(SESSION_IDLE_MS - HOUR);
    const live = await sessions().start(alice.id, 'link');
    const fresh = await sessions().createLoginLink(alice.email);
    clock.advance(2 * HOUR);
    const before = { sessions: await count('sessions'), links: await count('login_links') };
    const purged = await sessions().purgeExpired();
    expect(purged.sessions).toBeGreaterThanOrEqual(1);
    expect(purged.loginLinks).toBeGreaterThanOrEqual(1);
    expect(await count('sessions')).toBe(before.sessions - purged.sessions);
    expect(await count('login_links')).toBe(before.links - purged.loginLinks);
    expect(await sessions().expiresAt(stale.cookieValue)).toBeUndefined();
    expect(await sessions().resolve(live.cookieValue)).toBeDefined();
    // The newer link expired too, but is kept a day so a late click hears "expired".
    expect(await sessions().useLoginLink(fresh!.url.split('/').pop()!)).toEqual({
      ok: false,
      reason: 'expired',
    });
    // The hourly job does the same.
    const stale2 = await sessions().start(alice.id, 'link');
    clock.advance(SESSION_IDLE_MS + HOUR);
    const { jobs } = server.app.quire.services;
    await jobs.enqueueDueSchedules();
    await jobs.runDue();
    const purge = await db.selectFrom('jobs').select('status').where('kind', '=', 'sessions.purge').execute();
    expect(purge.map((j) => j.status)).toContain('done');
    expect(await sessions().expiresAt(stale2.cookieValue)).toBeUndefined();
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

describe('signing in with a browser and the signed-in pages', () => {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  let server: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let orgId: string;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    owner = await createUser(server, { name: 'Olive' });
    reader = await createUser(server, { name: 'Rita' });
    orgId = await createOrg(owner, 'Acme <script>alert(1)</script>');
    const published = (await owner.api.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
    await owner.api.orgs.createSpace(orgId, { title: 'Draft notes' });
    await publishedSite(owner, orgId, [published], undefined, 'Acme Docs');
    await addMember(owner, orgId, reader, 'read');
  });
  afterAll(async () => server?.close());

  const sessions = () => server.app.quire.services.sessions;
  const get = (path: string, cookie?: string) =>
    fetch(`${server.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const post = (
    path: string,
    cookie: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });

  /** Signs in through a login link, as a browser would; answers the Cookie header to send. */
  async function signIn(email: string): Promise<string> {
    const link = await sessions().createLoginLink(email);
    const res = await post(new URL(link!.url).pathname, '', {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^quire_session=quire_[A-Za-z0-9_-]+; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/,
    );
    return setCookie.split(';')[0]!;
  }
  const csrfOf = (cookie: string) => sessions().csrfToken(cookie.split('=')[1]!);

  it('signs in once with a login link; a used, expired or unknown link says what to do', async () => {
    const link = (await sessions().createLoginLink(reader.email))!;
    expect(link.url).toMatch(new RegExp(`^${server.url}/login/link/quire_[A-Za-z0-9_-]{43}$`));
    const path = new URL(link.url).pathname;
    // Opening it (as a chat's link preview would) only asks, and spends nothing.
    for (let i = 0; i < 2; i++) {
      const asked = await get(path);
      expect(asked.status).toBe(200);
      expect(asked.headers.get('set-cookie')).toBeNull();
      const page = await asked.text();
      expect(page).toContain(`signing in as <strong>${reader.email}</strong>`);
      expect(page).toContain('<form method="post">');
    }
    // Another site cannot post it for a visitor (login CSRF).
    const forged = await post(path, '', {}, { origin: 'https://evil.test' });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie')).toBeNull();
    const used = await post(path, '', {}, { origin: new URL(server.url).origin });
    expect(used.status).toBe(303);
    expect(used.headers.get('set-cookie')).toMatch(/^quire_session=/);
    expect((await post(path, '', {})).status).toBe(410);
    const again = await get(path);
    expect(again.status).toBe(410);
    expect(again.headers.get('content-type')).toContain('text/html');
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('already been used');

    const late = (await sessions().createLoginLink(reader.email))!;
    clock.advance(15 * 60 * 1000);
    const expired = await get(new URL(late.url).pathname);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    expect((await get('/login/link/quire_made_up')).status).toBe(404);
    expect(await sessions().createLoginLink('nobody@example.test')).toBeUndefined();
  });

  it('sends anonymous visitors to the login page with a same-origin return path', async () => {
    for (const path of ['/app', '/app/tokens', `/app/o/${orgId}`, '/app/s/abc/~/changes/def']) {
      const res = await get(path);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`/login?return=${encodeURIComponent(path)}`);
    }
    const login = await get('/login?return=/app/tokens');
    expect(login.status).toBe(200);
    const body = await login.text();
    expect(body).toContain('quire login-link');
    expect(login.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it("lists an organization's sign-in providers with the return path, escaped", () => {
    const page = renderLoginPage({
      orgId: 'org1',
      providers: [
        { id: 'p1', label: 'Okta <b>', startURL: 'http://127.0.0.1/sso/p1/start' },
        { id: 'p2', label: 'Azure', startURL: '/sso/p2/start?x=1' },
      ],
      returnPath: safeReturnPath('/app/tokens'),
    });
    expect(page).toContain('href="http://127.0.0.1/sso/p1/start?return=%2Fapp%2Ftokens"');
    expect(page).toContain('href="/sso/p2/start?x=1&amp;return=%2Fapp%2Ftokens"');
    expect(page).toContain('Sign in with Okta &lt;b&gt;');
    expect(renderLoginPage({ orgId: 'org1', providers: [], returnPath: '/app' })).toContain(
      'no single sign-on provider',
    );
  });

  it('refuses return paths that leave the server', () => {
    for (const bad of [
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      '/\tevil',
      'evil.test',
      '',
      undefined,
      ['/app'],
    ]) {
      expect(safeReturnPath(bad)).toBe('/app');
    }
    expect(safeReturnPath('/app/tokens?x=1#y')).toBe('/app/tokens?x=1#y');
    expect(safeReturnPath('/app/../sites/a')).toBe('/sites/a');
  });

  it('lists the organizations and spaces the person may read, with links to published sites, escaped', async () => {
    const cookie = await signIn(owner.email);
    const res = await get('/app', cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.text();
    expect(body).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).toContain('Handbook');
    expect(body).toContain('Draft notes');
    expect(body).toMatch(new RegExp(`href="${server.url}/sites/[A-Za-z0-9]+/">Acme Docs</a>`));
    expect(body).toContain(owner.email);
  });

  it('answers every urls.app target once signed in, never a 404', async () => {
    const cookie = await signIn(reader.email);
    const space = (await owner.api.orgs.listSpacesInOrganizationById(orgId)).data.items[0]!;
    const org = await get(`/app/o/${orgId}`, cookie);
    expect(org.headers.get('location')).toBe(`/app#org-${orgId}`);
    expect((await get('/app/c/someCollection', cookie)).headers.get('location')).toBe('/app');
    const change = await get(`/app/s/${space.id}/~/changes/someChange`, cookie);
    expect(change.headers.get('location')).toBe(`/app/s/${space.id}/`);
    expect((await get(new URL(space.urls.app).pathname, cookie)).status).toBe(200);
  });

  it('shows a member the current content of a space, published or not, with a banner', async () => {
    const { spaceId } = await docsSpace(owner, orgId, 'Unpublished guide');
    const cookie = await signIn(reader.email);
    const res = await get(`/app/s/${spaceId}`, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('private');
    const body = await res.text();
    expect(body).toContain('Current content, not a published site');
    expect(body).toContain('Welcome');
    expect(body).toContain('noindex');
    // Pages and the site files are under the space's app address.
    expect(body).toContain(`/app/s/${spaceId}/~assets/`);
    const install = await get(`/app/s/${spaceId}/guides/install`, cookie);
    expect(install.status).toBe(200);
    expect(await install.text()).toContain('npm install acme');
    const css = /href="([^"]+\.css)"/.exec(body)![1]!;
    expect((await get(new URL(css, server.url).pathname, cookie)).status).toBe(200);
    // The site's other views work on the preview too, with the preview's addresses.
    const markdown = await get(`/app/s/${spaceId}/guides/install.md`, cookie);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain('npm install acme');
    const llms = await get(`/app/s/${spaceId}/llms.txt`, cookie);
    expect(llms.status).toBe(200);
    expect(await llms.text()).toContain(`/app/s/${spaceId}/guides/install.md`);
    const search = await get(`/app/s/${spaceId}/~search?q=install`, cookie);
    expect(search.status).toBe(200);
    const { results } = (await search.json()) as { results: Array<{ href?: string; url?: string }> };
    expect(JSON.stringify(results)).toContain(`/app/s/${spaceId}/guides/install`);

    // Someone outside the organization sees the same page as for a space that does not exist.
    const stranger = await createUser(server);
    const strangerCookie = await signIn(stranger.email);
    const refused = await get(`/app/s/${spaceId}`, strangerCookie);
    expect(refused.status).toBe(404);
    const missing = await get('/app/s/noSuchSpace', strangerCookie);
    expect(missing.status).toBe(404);
    expect(await refused.text()).toBe(await missing.text());
    expect((await get(`/app/s/${spaceId}/~search?q=install`, strangerCookie)).status).toBe(404);
    expect((await get(`/app/s/${spaceId}/llms.txt`, strangerCookie)).status).toBe(404);
    // And anonymous visitors are sent to sign in.
    expect((await get(`/app/s/${spaceId}/llms.txt`)).status).toBe(302);
    expect((await get(`/app/s/${spaceId}/guides/install`)).headers.get('location')).toBe(
      `/login?return=${encodeURIComponent(`/app/s/${spaceId}/guides/install`)}`,
    );
  });

  it('creates a token shown once, lists it without its secret, and revokes it; forms need the CSRF token', async () => {
    const cookie = await signIn(reader.email);
    const refused = await post('/app/tokens', cookie, { label: 'laptop' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 403 } });
    const foreign = await post('/app/tokens', cookie, { label: 'laptop' }, { origin: 'https://evil.test' });
    expect(foreign.status).toBe(403);

    const created = await post('/app/tokens', cookie, { label: 'laptop <b>', csrf: csrfOf(cookie) });
    expect(created.status).toBe(201);
    const page = await created.text();
    const token = /<code id="new-token">([^<]+)<\/code>/.exec(page)![1]!;
    expect(page).toContain('laptop &lt;b&gt;');
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/v1/user`, { headers: auth })).status).toBe(200);

    const listed = await (await get('/app/tokens', cookie)).text();
    expect(listed).not.toContain(token);
    const id = /action="\/app\/tokens\/([^/]+)\/revoke"/.exec(listed)![1]!;

    // Someone else cannot revoke it, even with their own valid form.
    const other = await signIn(owner.email);
    expect((await post(`/app/tokens/${id}/revoke`, other, { csrf: csrfOf(other) })).status).toBe(404);
    expect((await fetch(`${server.url}/v1/user`, { headers: auth })).status).toBe(200);

    const revoked = await post(`/app/tokens/${id}/revoke`, cookie, { csrf: csrfOf(cookie) });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/app/tokens');
    expect((await fetch(`${server.url}/v1/user`, { headers: auth })).status).toBe(401);
  });

  it('gives a token the lifetime chosen on the page, and refuses one out of bounds without creating it', async () => {
    const cookie = await signIn(reader.email);
    const form = (await (await get('/app/tokens', cookie)).text()).match(
      /<select name="expiresInDays">.*?<\/select>/,
    )![0];
    expect(form).toContain('<option value="">never</option>');
    expect(form).toContain('<option value="30">in 30 days</option>');

    const before = (await (await get('/app/tokens', cookie)).text()).match(/\/revoke"/g)?.length ?? 0;
    for (const bad of ['0', '-3', '1.5', 'soon', '3651']) {
      const refused = await post('/app/tokens', cookie, {
        label: 'bad',
        expiresInDays: bad,
        csrf: csrfOf(cookie),
      });
      expect(refused.status, bad).toBe(400);
      expect(await refused.text()).toContain('whole number of days from 1 to 3650');
    }
    expect((await (await get('/app/tokens', cookie)).text()).match(/\/revoke"/g)?.length ?? 0).toBe(before);

    const created = await post('/app/tokens', cookie, {
      label: 'week',
      expiresInDays: '7',
      csrf: csrfOf(cookie),
    });
    expect(created.status).toBe(201);
    const page = await created.text();
    const token = /<code id="new-token">([^<]+)<\/code>/.exec(page)![1]!;
    const expiresAt = new Date(clock.now().getTime() + 7 * DAY).toISOString();
    expect(page).toContain(`expires ${expiresAt}`);
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${server.url}/v1/user`, { headers: auth })).status).toBe(200);
    clock.advance(7 * DAY);
    expect((await fetch(`${server.url}/v1/user`, { headers: auth })).status).toBe(401);
  });

  it('signs out this browser, or everywhere', async () => {
    const here = await signIn(reader.email);
    const there = await signIn(reader.email);
    expect((await post('/logout', here, {})).status).toBe(403);
    const out = await post('/logout', here, { csrf: csrfOf(here) });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^quire_session=; Path=\/; Max-Age=0/);
    expect((await get('/app', here)).status).toBe(302);
    expect((await get('/app', there)).status).toBe(200);

    const third = await signIn(reader.email);
    const everywhere = await post('/logout', third, { everywhere: '1' }, { origin: server.url });
    expect(everywhere.status).toBe(303);
    expect((await get('/app', there)).status).toBe(302);
    expect((await get('/app', third)).status).toBe(302);
    expect((await fetch(`${server.url}/v1/user`, { headers: { cookie: there } })).status).toBe(401);
  });
});
