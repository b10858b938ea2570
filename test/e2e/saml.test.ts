import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { failure } from '../helpers/expect-error.js';
import { addMember, createOrg, createUser, type TestUser, uniqueEmail } from '../helpers/factories.js';
import {
  makeIdp,
  postToAcs,
  type ResponseOptions,
  type SamlProvider,
  samlSignIn,
  startSignIn,
  type TestIdp,
} from '../helpers/saml-idp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;
let idp: TestIdp;
let otherIdp: TestIdp;
let teamId: string;

type Provider = SamlProvider;

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'SSO org');
  [idp, otherIdp] = await Promise.all([makeIdp(), makeIdp()]);
  teamId = (await admin.api.orgs.createOrganizationTeam(orgId, { title: 'Engineering' })).data.id;
}, 60_000);
afterAll(() => server.close());

const configured = () => ({ ssoURL: idp.ssoURL, entityID: idp.entityID, certificate: idp.certificate });

async function createProvider(body: Record<string, unknown>, org = orgId): Promise<Provider> {
  const { data } = await admin.api.orgs.createOrganizationSamlProvider(org, body as never);
  return data as unknown as Provider;
}

const start = startSignIn;
const post = postToAcs;
const signIn = (provider: Provider, options: ResponseOptions = {}, edit?: (xml: string) => string) =>
  samlSignIn(idp, provider, options, edit);

/** What a person has in the database: user, memberships, sessions. */
async function traces(email: string) {
  const { db } = server.database;
  const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (!user) return { user: false, members: 0, sessions: 0 };
  const members = await db.selectFrom('members').select('org_id').where('user_id', '=', user.id).execute();
  const sessions = await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
  return { user: true, members: members.length, sessions: sessions.length };
}

describe('SAML providers (API.md 4.9)', () => {
  it('creates a pending provider from a label, activates it with the IdP configuration, lists and deletes it', async () => {
    const created = await admin.api.orgs.createOrganizationSamlProvider(orgId, { label: 'Okta' });
    expect(created.status).toBe(201);
    const provider = created.data;
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'pending',
      ssoURL: 'urn:quire:saml:unconfigured',
      entityID: '',
      certificate: '',
      defaultRole: null,
    });
    const base = `${server.url}/sso/saml/${provider.id}`;
    expect(provider.service).toEqual({
      acsURL: `${base}/acs`,
      startURL: `${base}/start`,
      entityID: `${base}/metadata`,
    });
    expect(provider.urls.location).toBe(`${server.url}/v1/orgs/${orgId}/saml/${provider.id}`);

    const { data: active } = await admin.api.orgs.updateOrganizationSamlProvider(orgId, provider.id, {
      ...configured(),
      defaultRole: 'edit' as never,
      defaultTeam: teamId,
    });
    expect(active.status).toBe('active');
    expect(active.defaultTeam).toMatchObject({ object: 'team', id: teamId, title: 'Engineering' });
    expect(active.defaultRole).toBe('edit');

    const { data: got } = await admin.api.orgs.getOrganizationSamlProviderById(orgId, provider.id);
    expect(got).toEqual(active);
    const { data: list } = await admin.api.orgs.listSamlProvidersInOrganizationById(orgId);
    expect(list.items.map((p) => p.id)).toContain(provider.id);

    expect((await admin.api.orgs.deleteOrganizationSamlProvider(orgId, provider.id)).status).toBe(204);
    expect((await admin.api.orgs.deleteOrganizationSamlProvider(orgId, provider.id)).status).toBe(204);
    expect((await failure(admin.api.orgs.getOrganizationSamlProviderById(orgId, provider.id))).code).toBe(
      404,
    );
  });

  it('keeps defaultRole null and accepts a certificate without its PEM lines', async () => {
    const body = idp.certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    const provider = await createProvider({
      label: 'Bare cert',
      ...configured(),
      certificate: body,
      defaultRole: null,
    });
    expect(provider.status).toBe('active');
    expect((provider as unknown as { defaultRole: null }).defaultRole).toBeNull();
  });

  it('refuses bad inputs, naming the field', async () => {
    const { id } = await createProvider({ label: 'Target' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'label'],
      [{ label: '' }, 'label'],
      [{ label: 'x'.repeat(31) }, 'label'],
      [{ label: 'L', ssoURL: 'not a url' }, 'ssoURL'],
      [{ label: 'L', ssoURL: 'ftp://idp.example.test/sso' }, 'ssoURL'],
      [{ label: 'L', ssoURL: `https://idp.example.test/${'a'.repeat(2048)}` }, 'ssoURL'],
      [{ label: 'L', entityID: 'e'.repeat(1025) }, 'entityID'],
      [{ label: 'L', certificate: 'c'.repeat(10001) }, 'certificate'],
      [{ label: 'L', certificate: 'abc' }, 'certificate'],
      [{ label: 'L', defaultTeam: 'no-such-team' }, 'defaultTeam'],
      [{ label: 'L', defaultRole: 'owner' }, 'defaultRole'],
      [{ label: 'L', defaultRole: 'guest' }, 'defaultRole'],
    ];
    for (const [body, field] of cases) {
      const created = await rawRequest(server.url, 'POST', `/v1/orgs/${orgId}/saml`, {
        token: admin.token,
        body,
      });
      expect(created.status, JSON.stringify(body)).toBe(400);
      expect(created.text).toContain(field);
      if (body.label === undefined || body.label === 'L') {
        const { label: _label, ...patch } = body;
        if (Object.keys(patch).length === 0) continue;
        const updated = await rawRequest(server.url, 'PATCH', `/v1/orgs/${orgId}/saml/${id}`, {
          token: admin.token,
          body: patch,
        });
        expect(updated.status, JSON.stringify(patch)).toBe(400);
        expect(updated.text).toContain(field);
      }
    }
    const otherOrg = await createOrg(admin, 'Other SSO org');
    const otherTeam = (await admin.api.orgs.createOrganizationTeam(otherOrg, { title: 'Theirs' })).data.id;
    const response = await rawRequest(server.url, 'PATCH', `/v1/orgs/${orgId}/saml/${id}`, {
      token: admin.token,
      body: { defaultTeam: otherTeam },
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain('defaultTeam');
  });

  it('answers 404 to another organization and 403 to members who are not admins', async () => {
    const { id } = await createProvider({ label: 'Guarded' });
    const stranger = await createUser(server);
    await createOrg(stranger, 'Stranger org');
    for (const call of [
      () => stranger.api.orgs.listSamlProvidersInOrganizationById(orgId),
      () => stranger.api.orgs.getOrganizationSamlProviderById(orgId, id),
      () => stranger.api.orgs.updateOrganizationSamlProvider(orgId, id, { label: 'Mine' }),
      () => stranger.api.orgs.deleteOrganizationSamlProvider(orgId, id),
    ]) {
      expect((await failure(call())).code).toBe(404);
    }
    const editor = await createUser(server);
    await addMember(admin, orgId, editor, 'edit');
    expect((await editor.api.orgs.getOrganizationSamlProviderById(orgId, id)).data.id).toBe(id);
    expect((await failure(editor.api.orgs.createOrganizationSamlProvider(orgId, { label: 'No' }))).code).toBe(
      403,
    );
    expect(
      (await failure(editor.api.orgs.updateOrganizationSamlProvider(orgId, id, { label: 'No' }))).code,
    ).toBe(403);
    expect((await failure(editor.api.orgs.deleteOrganizationSamlProvider(orgId, id))).code).toBe(403);
    const guest = await createUser(server);
    await addMember(admin, orgId, guest, null);
    expect((await failure(guest.api.orgs.listSamlProvidersInOrganizationById(orgId))).code).toBe(403);
  });

  it('lists only active providers to anyone on the sign-in list, and 404 for an unknown organization', async () => {
    const org = await createOrg(admin, 'Login list org');
    const pending = await createProvider({ label: 'Pending' }, org);
    const active = await createProvider({ label: 'Active', ...configured() }, org);
    const list = await rawRequest(server.url, 'GET', `/v1/orgs/${org}/sso`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      items: [{ id: active.id, label: 'Active', startURL: active.service.startURL }],
    });
    expect(JSON.stringify(list.body)).not.toContain(pending.id);
    expect((await rawRequest(server.url, 'GET', '/v1/orgs/no-such-org/sso')).status).toBe(404);
    // The sign-in page offers the same providers.
    const page = await (await fetch(`${server.url}/login?org=${org}`)).text();
    expect(page).toContain('Sign in with Active');
    expect(page).toContain(active.service.startURL);
    expect(page).not.toContain('Sign in with Pending');
  });

  it('serves SP metadata at the service entity ID, with the ACS location', async () => {
    const provider = await createProvider({ label: 'Meta', ...configured() });
    const response = await fetch(provider.service.entityID);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('xml');
    const xml = await response.text();
    expect(xml).toContain(`entityID="${provider.service.entityID}"`);
    expect(xml).toContain(`Location="${provider.service.acsURL}"`);
    expect((await fetch(`${server.url}/sso/saml/nope/metadata`)).status).toBe(404);
  });
});

/** Why each bad response must be refused (so that it is not refused for another reason). */
const REASONS: Record<string, RegExp> = {
  unsolicited: /InResponseTo is missing/,
  'unknown request id': /InResponseTo is not valid/,
  'other key': /Invalid signature/,
  'tampered NameID': /Invalid signature/,
  unsigned: /Invalid signature/,
  expired: /expired|No valid subject confirmation/,
  'not yet valid': /not yet valid/,
  'wrong audience': /audience mismatch/,
  'wrong Destination': /Destination/,
  'wrong Recipient': /Recipient/,
  'wrong Issuer': /Issuer/,
  DOCTYPE: /DOCTYPE/,
};

describe('signing in through SAML', () => {
  let provider: Provider;

  beforeAll(async () => {
    provider = await createProvider({
      label: 'Test IdP',
      ...configured(),
      defaultRole: 'edit',
      defaultTeam: teamId,
    });
  });

  it('redirects to the IdP with an AuthnRequest for our ACS, and honours only same-origin return paths', async () => {
    const request = await start(provider, '/app/x');
    expect(request.acsURL).toBe(provider.service.acsURL);
    expect(request.issuer).toBe(provider.service.entityID);
    expect(request.id).not.toBe('');
    expect(Buffer.byteLength(request.relayState!)).toBeLessThanOrEqual(80);
    for (const bad of ['https://evil.test/', '//evil.test/x', 'app', '/\\evil.test']) {
      const url = new URL(provider.service.startURL);
      url.searchParams.set('return', bad);
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status, bad).toBe(400);
      expect(await response.text()).toContain('return');
    }
  });

  it('signs a new person in, just in time: user, membership with the default role and team, sso, a session', async () => {
    const email = uniqueEmail('example.com');
    const request = await start(provider, '/app/welcome');
    const response = await idp.respond(provider.service, { inResponseTo: request.id, email });
    const answer = await post(provider, { SAMLResponse: response, RelayState: request.relayState! });
    expect(answer.status, answer.text).toBe(303);
    expect(answer.headers.get('location')).toBe('/app/welcome');
    expect(answer.headers.get('set-cookie')).toMatch(/^quire_session=.+HttpOnly/);
    expect(answer.headers.get('cache-control')).toBe('no-store');

    const user = await server.app.quire.services.users.findByEmail(email);
    expect(user).toBeDefined();
    const { data: member } = await admin.api.orgs.getMemberInOrganizationById(orgId, user!.id);
    expect(member.role).toBe('edit');
    expect(member.sso).toBe(true);
    const { data: team } = await admin.api.orgs.listTeamMembersInOrganizationById(orgId, teamId);
    expect(team.items.map((m) => m.organization.user.id)).toContain(user!.id);
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 1 });

    // The session cookie works on the API.
    const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    const me = await rawRequest(server.url, 'GET', '/v1/user', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((me.body as { id: string }).id).toBe(user!.id);

    // Replaying the same response is refused, and leaves no second session.
    const replay = await post(provider, { SAMLResponse: response, RelayState: request.relayState! });
    expect(replay.status).toBe(403);
    expect(replay.text).toContain('InResponseTo');
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 1 });
  });

  it('accepts one of two simultaneous posts of the same response (the request id is spent once)', async () => {
    const email = uniqueEmail('example.com');
    const request = await start(provider);
    const response = await idp.respond(provider.service, { inResponseTo: request.id, email });
    const form = { SAMLResponse: response, RelayState: request.relayState! };
    const answers = await Promise.all([post(provider, form), post(provider, form), post(provider, form)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 403, 403]);
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 1 });
  });

  it('signs one new person in from two tabs at once: both succeed, one account, one membership', async () => {
    const email = uniqueEmail('example.com');
    const forms = await Promise.all(
      [0, 1, 2].map(async () => {
        const request = await start(provider);
        const response = await idp.respond(provider.service, { inResponseTo: request.id, email });
        return { SAMLResponse: response, RelayState: request.relayState! };
      }),
    );
    const answers = await Promise.all(forms.map((form) => post(provider, form)));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 3 });
  });

  it('lands on /app without a return path; a second login changes no role', async () => {
    const email = uniqueEmail('example.com');
    const first = await signIn(provider, { email });
    expect(first.status, first.text).toBe(303);
    expect(first.headers.get('location')).toBe('/app');
    const user = await server.app.quire.services.users.findByEmail(email);
    await admin.api.orgs.updateMemberInOrganizationById(orgId, user!.id, { role: 'admin' as never });
    expect((await signIn(provider, { email: email.toUpperCase() })).status).toBe(303);
    const { data: member } = await admin.api.orgs.getMemberInOrganizationById(orgId, user!.id);
    expect(member.role).toBe('admin');
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 2 });
  });

  it('takes the email from an attribute when the NameID is not one', async () => {
    const email = uniqueEmail('example.com');
    const answer = await signIn(provider, {
      email: 'opaque-id-123',
      attributes: { 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': email },
    });
    expect(answer.status, answer.text).toBe(303);
    expect((await traces(email)).user).toBe(true);
  });

  it('signs in an existing account only when it is a member of this organization and of no other', async () => {
    // Someone with an account of their own: the IdP of an organization they never joined cannot
    // sign them in, whatever email it asserts.
    const stranger = await createUser(server, { email: uniqueEmail('example.com') });
    const refusedStranger = await signIn(provider, { email: stranger.email });
    expect(refusedStranger.status).toBe(403);
    expect(refusedStranger.text).toContain('must invite it first');
    expect(await traces(stranger.email)).toEqual({ user: true, members: 0, sessions: 0 });

    // Invited here, it signs in; its role stays what the invitation gave.
    await addMember(admin, orgId, stranger, 'read');
    expect((await signIn(provider, { email: stranger.email })).status).toBe(303);
    expect((await admin.api.orgs.getMemberInOrganizationById(orgId, stranger.id)).data.role).toBe('read');

    // Once it belongs to another organization too, this IdP no longer speaks for it.
    const elsewhere = await createOrg(stranger, 'Elsewhere');
    expect(elsewhere).toBeTruthy();
    const refusedShared = await signIn(provider, { email: stranger.email });
    expect(refusedShared.status).toBe(403);
    expect(refusedShared.text).toContain('belongs to other organizations');
    expect(await traces(stranger.email)).toEqual({ user: true, members: 2, sessions: 1 });
  });

  it('refuses every response that is not exactly right, leaving no user, membership or session', async () => {
    const past = new Date(Date.now() - 60 * 60_000);
    const cases: Array<[string, (email: string) => Promise<{ status: number; text: string }>]> = [
      [
        'unsolicited',
        async (email) => {
          const response = await idp.respond(provider.service, { email, inResponseTo: null });
          return post(provider, { SAMLResponse: response });
        },
      ],
      [
        'unknown request id',
        async (email) => {
          const response = await idp.respond(provider.service, { email, inResponseTo: '_never-sent' });
          return post(provider, { SAMLResponse: response });
        },
      ],
      [
        'other key',
        async (email) => {
          const request = await start(provider);
          const response = await otherIdp.respond(provider.service, { email, inResponseTo: request.id });
          return post(provider, { SAMLResponse: response, RelayState: request.relayState! });
        },
      ],
      [
        'tampered NameID',
        (email) =>
          signIn(provider, { email: `x${email}` }, (xml) => xml.replace(`>x${email}<`, `>${email}<`)),
      ],
      [
        'unsigned',
        (email) =>
          signIn(provider, { email }, (xml) => xml.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')),
      ],
      [
        'expired',
        (email) =>
          signIn(provider, { email, notBefore: new Date(past.getTime() - 60_000), notOnOrAfter: past }),
      ],
      [
        'not yet valid',
        (email) => signIn(provider, { email, notBefore: new Date(Date.now() + 60 * 60_000) }),
      ],
      [
        'wrong audience',
        (email) => signIn(provider, { email, audience: 'https://other.example.test/metadata' }),
      ],
      [
        'wrong Destination',
        (email) => signIn(provider, { email, destination: 'https://other.example.test/acs' }),
      ],
      [
        'wrong Recipient',
        (email) => signIn(provider, { email, recipient: 'https://other.example.test/acs' }),
      ],
      ['wrong Issuer', (email) => signIn(provider, { email, issuer: 'https://evil.example.test/saml' })],
      ['DOCTYPE', (email) => signIn(provider, { email }, (xml) => `<!DOCTYPE x [<!ENTITY e "e">]>${xml}`)],
    ];
    for (const [name, attempt] of cases) {
      const email = uniqueEmail('example.com');
      const answer = await attempt(email);
      expect(answer.text, name).toMatch(REASONS[name]!);
      expect([400, 403], `${name}: ${answer.text}`).toContain(answer.status);
      expect(await traces(email), name).toEqual({ user: false, members: 0, sessions: 0 });
    }
  });

  it("refuses an email outside the organization's domains, a pending provider and a deleted one", async () => {
    const org = await createOrg(admin, 'Domain org');
    await admin.api.orgs.updateOrganizationById(org, { emailDomains: ['corp.example'] } as never);
    const scoped = await createProvider({ label: 'Scoped', ...configured() }, org);
    const outside = uniqueEmail('example.com');
    expect((await signIn(scoped, { email: outside })).status).toBe(403);
    expect(await traces(outside)).toEqual({ user: false, members: 0, sessions: 0 });
    const inside = uniqueEmail('corp.example');
    expect((await signIn(scoped, { email: inside })).status).toBe(303);
    const { data: member } = await admin.api.orgs.listMembersInOrganizationById(org);
    expect(member.items.find((m) => m.user.email === inside)?.role).toBeNull();

    // Started while active, answered once the provider is pending again: refused.
    const request = await start(scoped);
    const email = uniqueEmail('corp.example');
    const response = await idp.respond(scoped.service, { email, inResponseTo: request.id });
    await admin.api.orgs.updateOrganizationSamlProvider(org, scoped.id, { entityID: '' });
    expect((await post(scoped, { SAMLResponse: response, RelayState: request.relayState! })).status).toBe(
      403,
    );
    expect((await fetch(scoped.service.startURL, { redirect: 'manual' })).status).toBe(403);
    await admin.api.orgs.updateOrganizationSamlProvider(org, scoped.id, { entityID: idp.entityID });

    const again = await start(scoped);
    const late = await idp.respond(scoped.service, { email, inResponseTo: again.id });
    await admin.api.orgs.deleteOrganizationSamlProvider(org, scoped.id);
    expect((await post(scoped, { SAMLResponse: late, RelayState: again.relayState! })).status).toBe(404);
    expect((await fetch(scoped.service.startURL, { redirect: 'manual' })).status).toBe(404);
    expect(await traces(email)).toEqual({ user: false, members: 0, sessions: 0 });
  });

  it('refuses malformed posts: no SAMLResponse, not base64, too large, RelayState over 80 bytes', async () => {
    expect((await post(provider, {})).status).toBe(400);
    const notBase64 = await post(provider, { SAMLResponse: '%%% not base64 %%%' });
    expect(notBase64.status).toBe(400);
    expect(notBase64.text).toContain('SAMLResponse');
    const relay = await post(provider, {
      SAMLResponse: Buffer.from('<x/>').toString('base64'),
      RelayState: 'r'.repeat(81),
    });
    expect(relay.status).toBe(400);
    expect(relay.text).toContain('RelayState');
    const big = await post(provider, { SAMLResponse: 'A'.repeat(600 * 1024) });
    expect(big.status).toBe(413);
    const page = await fetch(provider.service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'SAMLResponse=',
    });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Sign-in failed');
    const json = await fetch(provider.service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'SAMLResponse=x',
    });
    expect(json.status).toBe(415);
  });
});

describe('organizations that require SSO (sso: true)', () => {
  it('refuses a disabled membership at sign-in, leaving no session', async () => {
    const provider = await createProvider({ label: 'Disabled check', ...configured() });
    const email = uniqueEmail('example.com');
    expect((await signIn(provider, { email })).status).toBe(303);
    const user = await server.app.quire.services.users.findByEmail(email);
    await server.database.db
      .updateTable('members')
      .set({ disabled: 1 })
      .where('org_id', '=', orgId)
      .where('user_id', '=', user!.id)
      .execute();
    const refused = await signIn(provider, { email });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('disabled');
    expect(await traces(email)).toEqual({ user: true, members: 1, sessions: 1 });
  });

  it('lets its SSO members in only through its own providers; other members and tokens are not concerned', async () => {
    const owner = await createUser(server, { email: uniqueEmail('example.com') });
    const enforced = await createOrg(owner, 'Enforced');
    const { data: space } = await owner.api.orgs.createSpace(enforced, { title: 'Handbook' });
    const { data: created } = await owner.api.orgs.createOrganizationSamlProvider(enforced, {
      label: 'Corp IdP',
      ...configured(),
      defaultRole: 'read',
    } as never);
    const provider = created as unknown as Provider;
    const email = uniqueEmail('example.com');
    const viaSso = await signIn(provider, { email });
    expect(viaSso.status, viaSso.text).toBe(303);
    const ssoCookie = viaSso.headers.get('set-cookie')!.split(';')[0]!;
    const member = (await server.app.quire.services.users.findByEmail(email))!;
    const { sessions } = server.app.quire.services;
    const cookieOf = async (userId: string, source: string) =>
      `quire_session=${(await sessions.start(userId, source)).cookieValue}`;
    const linkCookie = await cookieOf(member.id, 'link');
    // A session opened by another organization's provider does not open this one either.
    const otherOrg = await createOrg(admin, 'Other IdP org');
    const other = await createProvider({ label: 'Other', ...configured() }, otherOrg);
    const otherCookie = await cookieOf(member.id, `saml:${other.id}`);
    const ownerLink = await cookieOf(owner.id, 'link');
    const get = (path: string, cookie: string) =>
      rawRequest(server.url, 'GET', path, { headers: { cookie } });
    const orgPath = `/v1/orgs/${enforced}`;
    const spacePath = `/v1/spaces/${space.id}`;

    // Stored only: every way in works while the setting is off.
    expect((await get(orgPath, linkCookie)).status).toBe(200);
    await owner.api.orgs.updateOrganizationById(enforced, { sso: true });
    try {
      for (const path of [orgPath, `${orgPath}/spaces`, spacePath]) {
        expect((await get(path, ssoCookie)).status, path).toBe(200);
        for (const cookie of [linkCookie, otherCookie]) {
          const refused = await get(path, cookie);
          expect(refused.status, path).toBe(403);
          expect(refused.text).toContain('sign in through its identity provider');
        }
        // The owner is no SSO member: setting the rule locks no admin out.
        expect((await get(path, ownerLink)).status, path).toBe(200);
      }
      // An API token is the person's own, not a session.
      const issued = await server.app.quire.services.tokens.create(member.id, 'cli');
      const bearer = await rawRequest(server.url, 'GET', orgPath, { token: issued.token });
      expect(bearer.status).toBe(200);

      // The signed-in pages offer the organization's own sign-in rather than an error.
      const landing = await fetch(`${server.url}/app`, { headers: { cookie: linkCookie } });
      expect(landing.status).toBe(200);
      expect(await landing.text()).toContain(`href="/login?org=${enforced}"`);
      const preview = await fetch(`${server.url}/app/s/${space.id}/`, {
        headers: { cookie: linkCookie },
        redirect: 'manual',
      });
      expect(preview.status).toBe(302);
      expect(preview.headers.get('location')).toBe(
        `/login?org=${enforced}&return=${encodeURIComponent(`/app/s/${space.id}/`)}`,
      );
      const login = await (await fetch(`${server.url}${preview.headers.get('location')}`)).text();
      expect(login).toContain(provider.service.startURL);
    } finally {
      await owner.api.orgs.updateOrganizationById(enforced, { sso: false });
    }
    expect((await get(orgPath, linkCookie)).status).toBe(200);
  });
});
