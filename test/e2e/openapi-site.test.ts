import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { insert, seed } from '../helpers/content.js';
import { failure } from '../helpers/expect-error.js';
import { createOrg, createUser, type TestUser } from '../helpers/factories.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { CORPUS, importCorpus } from '../helpers/gitbook-corpus.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { publishedSite, visit } from '../helpers/sites.js';

/**
 * The developers repository of the fixture corpus (written the way GitBook's Git Sync writes an
 * API portal: `{% openapi-operation %}`, `-schemas`, `-webhook` blocks on `lumen-api`, legacy
 * `{% swagger src=… %}` blocks, and `builtin:openapi` entries in SUMMARY.md) published as a
 * site, with the organization's `lumen-api` spec made from the same repository's YAML file
 * after the import, as a team moving from GitBook would.
 */

const SPEC = readFileSync(path.join(CORPUS, 'developers/docs/.gitbook/assets/lumen-openapi.yaml'), 'utf8');

let server: TestServer;
let git: GitServer;
let owner: TestUser;
let orgId: string;
let spaceId: string;
let root: string;
let siteId: string;

async function runJobs() {
  await server.app.quire.services.jobs.runDue();
}

beforeAll(async () => {
  server = await startTestServer({
    env: { QUIRE_OUTBOUND_ALLOW: '127.0.0.1' },
  });
  git = await startGitServer();
  owner = await createUser(server);
  orgId = await createOrg(owner, 'Lumen');
  ({ spaceId } = await importCorpus(server, git, owner, orgId, 'developers'));
  await owner.api.orgs.createOpenApiSpec(orgId, { slug: 'lumen-api', source: { text: SPEC } });
  await runJobs();
  const site = await publishedSite(owner, orgId, [spaceId], undefined, 'Lumen developers');
  siteId = site.id;
  root = site.urls.published!.replace(/\/?$/, '/');
}, 120_000);
afterAll(async () => {
  await server?.close();
  await git?.close();
});

/** A page of the site, following one redirect. */
async function page(url: string) {
  let res = await visit(url);
  if (res.status === 302) res = await visit(new URL(res.headers.get('location')!, url).toString());
  return res;
}

/** The hrefs of links in a page's sidebar. */
function sidebarLinks(html: string): string[] {
  const nav = html.slice(html.indexOf('<nav'), html.indexOf('</nav>', html.indexOf('<nav')));
  return [...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
}

describe('API references on a published site', () => {
  it('draws operation blocks as a reference: method, path, parameters, responses, curl', async () => {
    const res = await page(`${root}api/payments`);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('{%');
    expect(res.body).not.toMatch(/not available on this site/);
    // POST /v1/payments and GET /v1/payments/{payment_id}
    expect(res.body).toMatch(/>POST</i);
    expect(res.body).toContain('/v1/payments');
    expect(res.body).toContain('payment_id');
    expect(res.body).toContain('Create a payment');
    expect(res.body).toContain('Retrieve a payment');
    expect(res.body).toContain('The payment was declined.');
    expect(res.body).toMatch(/curl/);
    expect(res.body).toContain('https://api.lumen.example/v1/payments');
    // Nothing needs a script to read: expandable parts are <details>.
    expect(res.body).toContain('<details');
  });

  it('draws webhooks and schemas', async () => {
    const webhooks = await page(`${root}api/webhooks`);
    expect(webhooks.status).toBe(200);
    expect(webhooks.body).toContain('payment.succeeded');
    expect(webhooks.body).toContain('payout.failed');
    const schemas = await page(`${root}api/schemas`);
    expect(schemas.body).toContain('PaymentCreate');
    expect(schemas.body).toContain('Amount in minor units.');
  });

  it('draws a legacy swagger block from its spec file, and a notice for a URL it cannot reach', async () => {
    const home = await page(root);
    const legacy = sidebarLinks(home.body).find((href) => href.endsWith('/api-methods'))!;
    const res = await page(new URL(legacy, root).toString());
    expect(res.status).toBe(200);
    expect(res.body).toContain('Create a payment');
    expect(res.body).not.toContain('{%');
    // https://api.lumen.example/openapi.yaml does not resolve from here.
    expect(res.body).toMatch(/api\.lumen\.example\/openapi\.yaml[^<]*is not available/);
  });

  it('lists the builtin:openapi entries of SUMMARY.md as reference pages, one per tag', async () => {
    const home = await page(root);
    const links = sidebarLinks(home.body);
    for (const tag of ['payments', 'refunds', 'customers'])
      expect(links.some((href) => href.endsWith(`/lumen-api/${tag}`))).toBe(true);
    // A computed entry whose spec the organization does not have (lumen-events) shows nothing.
    expect(links.some((href) => href.includes('lumen-events'))).toBe(false);
    const refunds = links.find((href) => href.endsWith('/lumen-api/refunds'))!;
    const res = await page(new URL(refunds, root).toString());
    expect(res.status).toBe(200);
    expect(res.body).toContain('Refund a payment');
    expect(res.body).toContain('/v1/payments/{payment_id}/refunds');
    // The entry's own address leads to its first page.
    const entry = refunds.replace(/\/refunds$/, '');
    const redirect = await visit(new URL(entry, root).toString());
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/\/lumen-api\/payments$/);
    // An unknown reference page is a 404, not a 500.
    expect((await visit(new URL(`${entry}/nope`, root).toString())).status).toBe(404);
  });

  it('writes operations out in the markdown view', async () => {
    const res = await visit(`${root}api/payments.md`);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('{% openapi-operation');
    expect(res.body).toContain('Create a payment');
    expect(res.body).toMatch(/POST .*\/v1\/payments/);
    expect(res.body).toContain('payment_id');
  });

  it('finds operations in search, and follows a new version of the spec', async () => {
    await runJobs();
    const hits = async (query: string) =>
      (await owner.api.spaces.searchSpaceContent(spaceId, { query })).data.items.map(
        (hit) => (hit as { title: string }).title,
      );
    // The operation id of GET /v1/payments/{payment_id} is only in the spec.
    expect(await hits('getPayment')).toContain('Payments');

    const indexed = () =>
      server.database.db
        .selectFrom('search_spaces')
        .select(['revision_id', 'indexed_at'])
        .where('space_id', '=', spaceId)
        .executeTakeFirstOrThrow();
    const indexedBefore = await indexed();
    const before = await visit(`${root}api/payments`);
    const changed = SPEC.replace('summary: Create a payment', 'summary: Initiate a zorbulated payment');
    const put = await owner.api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'lumen-api', {
      source: { text: changed },
    });
    expect(put.status).toBe(200);
    await runJobs();
    const after = await visit(`${root}api/payments`);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body).toContain('Initiate a zorbulated payment');
    expect(await hits('zorbulated')).toContain('Payments');
    // Only the pages that draw the spec were indexed again, not the space.
    expect(await indexed()).toEqual(indexedBefore);
  });

  it('renders a notice, never an error, for a spec the organization does not have', async () => {
    const other = (await owner.api.orgs.createSpace(orgId, { title: 'Scratch' })).data.id;
    await seed(owner.api, other, [
      insert(
        'Missing spec',
        'Before.\n\n{% openapi-operation spec="no-such-spec" path="/x" method="get" %}\n{% endopenapi-operation %}\n\nAfter.',
      ),
    ]);
    const site = await publishedSite(owner, orgId, [other], undefined, 'Scratch site');
    const res = await page(site.urls.published!);
    expect(res.status).toBe(200);
    expect(res.body).toContain('no-such-spec');
    expect(res.body).toContain('After.');
  });

  it('points header links to a spec at its reference', async () => {
    const res = await rawRequest(server.url, 'PUT', `/v1/orgs/${orgId}/sites/${siteId}/customization`, {
      token: owner.token,
      body: { header: { links: [{ title: 'API', to: { kind: 'openapi', spec: 'lumen-api' }, links: [] }] } },
    });
    expect(res.status).toBe(200);
    const home = await page(root);
    const link = home.body.match(/<a[^>]*href="([^"]+)"[^>]*>\s*API\s*</);
    expect(link?.[1]).toMatch(/\/lumen-api$/);
  });
});

describe('the api-reference template', () => {
  it('makes one page per tag, and the models, from a spec', async () => {
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Reference' })).data.id;
    const res = await owner.api.spaces.applyTemplateToSpace(space, {
      id: 'api-reference',
      params: { contentRefs: { spec: { kind: 'openapi', spec: 'lumen-api' } } },
    } as never);
    expect(res.status).toBe(201);
    const crId = res.headers.get('location')!.split('/').pop()!;
    const { pages } = (await owner.api.spaces.listPagesInChangeRequest(space, crId)).data as unknown as {
      pages: Array<{ title: string }>;
    };
    expect(pages.map((p) => p.title)).toEqual(['Payments', 'Refunds', 'Customers', 'Models']);
  });

  it('names the field when the spec is missing or unknown', async () => {
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Reference 2' })).data.id;
    for (const params of [{}, { contentRefs: { spec: { kind: 'openapi', spec: 'nope' } } }]) {
      const error = await failure(
        owner.api.spaces.applyTemplateToSpace(space, { id: 'api-reference', params } as never),
      );
      expect(error.code).toBe(400);
      expect(error.message).toContain('params.contentRefs.spec');
    }
  });
});
