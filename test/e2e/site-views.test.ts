import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { docsSpace, publishedSite, visit } from '../helpers/sites.js';

/**
 * Page views of an organization without integration installations go to no one: once a flush
 * has found that, its views are not kept until the database changes (an installation is a
 * change). integration-delivery.test.ts covers the views that are delivered.
 */
describe('site views of an organization without installations', () => {
  let server: TestServer;
  let owner: TestUser;
  let orgId: string;
  let page: string;
  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server, { name: 'Viewed owner' });
    orgId = await createOrg(owner, 'Quiet org');
    const { spaceId } = await docsSpace(owner, orgId);
    const site = await publishedSite(owner, orgId, [spaceId]);
    page = `${site.urls.published!.replace(/\/$/, '')}/guides/install`;
    while ((await server.app.quire.services.jobs.runDue()) > 0);
  });
  afterAll(() => server.close());

  it('keeps them until a flush finds no one to tell, and again once the database changes', async () => {
    const views = server.app.quire.services.siteViews;
    const kept = () => views.kept;
    const before = kept();
    expect((await visit(page)).status).toBe(200);
    expect(kept()).toBe(before + 1);

    await views.flush();
    expect((await visit(page)).status).toBe(200);
    expect((await visit(page)).status).toBe(200);
    expect(kept()).toBe(before + 1);

    // Any commit may be the installation that makes someone listen.
    await owner.api.orgs.updateOrganizationById(orgId, { title: 'Quiet org, renamed' });
    expect((await visit(page)).status).toBe(200);
    expect(kept()).toBe(before + 2);
  });
});
