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
