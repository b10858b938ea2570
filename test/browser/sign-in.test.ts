import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/browser/chromium.js';
import { createOrg, createUser, type TestUser, uniqueEmail } from '../helpers/factories.js';
import { startIdpServer, type TestIdp } from '../helpers/saml-idp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: TestUser;
let orgId: string;
let browser: Browser;
let idpServer: { idp: TestIdp; close(): Promise<void> };
let nextEmail = '';

beforeAll(async () => {
  server = await startTestServer();
  admin = await createUser(server);
  orgId = await createOrg(admin, 'Browser SSO org');
  idpServer = await startIdpServer(() => nextEmail);
  browser = await chromium.launch(await findChromium());
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await idpServer?.close();
  await server?.close();
});

describe('signing in with a browser through a SAML identity provider', () => {
  it('goes from the sign-in page through the IdP to the landing page, signed in and provisioned', async () => {
    const { idp } = idpServer;
    const { data: provider } = await admin.api.orgs.createOrganizationSamlProvider(orgId, {
      label: 'Loopback IdP',
      ssoURL: idp.ssoURL,
      entityID: idp.entityID,
      certificate: idp.certificate,
      defaultRole: 'read' as never,
    });
    expect(provider.status).toBe('active');
    nextEmail = uniqueEmail('example.com');

    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await page.goto(`${server.url}/login?org=${orgId}`);
    await page.getByRole('link', { name: 'Sign in with Loopback IdP' }).click();
    await page.waitForURL(`${server.url}/app**`);
    expect(await page.textContent('body')).toContain('Browser SSO org');

    await page.goto(`${server.url}/app/tokens`);
    expect(page.url()).toBe(`${server.url}/app/tokens`);

    const user = await server.app.quire.services.users.findByEmail(nextEmail);
    const { data: member } = await admin.api.orgs.getMemberInOrganizationById(orgId, user!.id);
    expect(member).toMatchObject({ role: 'read', sso: true });
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'quire_session')?.httpOnly).toBe(true);
    await context.close();
  });
});

describe('signing in with a login link, then managing tokens', () => {
  it('asks before spending the link, lands on /app, makes an expiring token, revokes it and signs out', async () => {
    const person = await createUser(server, { email: uniqueEmail('example.com') });
    const link = await server.app.quire.services.sessions.createLoginLink(person.email);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8000);

    await page.goto(link!.url);
    expect(await page.textContent('body')).toContain(`signing in as ${person.email}`);
    expect((await context.cookies()).find((c) => c.name === 'quire_session')).toBeUndefined();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/app`);
    expect(await page.textContent('h1')).toBe('Your organizations');

    await page.goto(`${server.url}/app/tokens`);
    await page.getByLabel('Label').fill('laptop');
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.textContent('#new-token'))!;
    const me = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(await page.textContent('table')).toMatch(/laptop.*expires 20\d\d-/s);

    await page.goto(`${server.url}/app/tokens`);
    const row = page.getByRole('row').filter({ hasText: 'laptop' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${server.url}/app/tokens`);
    expect(await page.getByRole('row').filter({ hasText: 'laptop' }).textContent()).toContain('revoked');
    const revoked = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(401);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}/app`);
    expect(page.url()).toContain('/login?return=');
    // The link was spent by the click, not by opening it.
    await page.goto(link!.url);
    expect(await page.textContent('body')).toContain('already been used');
    await context.close();
  });
});
