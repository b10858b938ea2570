import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Header, footer and announcement links of a site's customization are checked when written, by
 * the rule the published site applies when it draws them (src/link-urls.ts).
 */

let server: TestServer;
let path: string;

beforeAll(async () => {
  server = await startTestServer();
  const { orgId, api } = server.admin;
  const space = (await api.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  const site = (await api.orgs.createSite(orgId, { title: 'Docs site', spaces: [space] } as never)).data.id;
  path = `/v1/orgs/${orgId}/sites/${site}/customization`;
});
afterAll(() => server.close());

const put = (body: object) => rawRequest(server.url, 'PUT', path, { token: server.admin.token, body });
const url = (href: string) => ({ kind: 'url', url: href });

const placements: Array<[string, (href: string) => object]> = [
  [
    'body.header.links.0.to.url',
    (href) => ({ header: { links: [{ title: 'Bad', to: url(href), links: [] }] } }),
  ],
  [
    'body.header.links.0.links.0.to.url',
    (href) => ({
      header: { links: [{ title: 'Menu', to: null, links: [{ title: 'Bad', to: url(href) }] }] },
    }),
  ],
  [
    'body.footer.groups.0.links.0.to.url',
    (href) => ({ footer: { groups: [{ title: 'More', links: [{ title: 'Bad', to: url(href) }] }] } }),
  ],
  [
    'body.announcement.link.to.url',
    (href) => ({
      announcement: { enabled: true, message: 'Hi', style: 'info', link: { title: 'x', to: url(href) } },
    }),
  ],
];

describe('customization links', () => {
  it.each([
    ['java\tscript:alert(1)', 'control characters'],
    ['JAVASCRIPT:alert(1)', '"javascript:" links are refused'],
    [' javascript:alert(1)', '"javascript:" links are refused'],
    ['data:text/html;base64,PHNjcmlwdD4=', '"data:" links are refused'],
    ['vbscript:msgbox(1)', '"vbscript:" links are refused'],
    ['&#106;avascript:alert(1)', 'HTML character references'],
    ['javascript&colon;alert(1)', 'HTML character references'],
  ])('refuses %j with 400 naming the field and the rule', async (href, rule) => {
    for (const [field, body] of placements) {
      const res = await put(body(href));
      expect(res.status, `${field} ${JSON.stringify(href)}`).toBe(400);
      const message = (res.body as { error: { message: string } }).error.message;
      expect(message).toContain(`Invalid request: ${field} must`);
      expect(message).toContain(rule);
    }
  });

  it('accepts web, mail and relative links, and stores them as given', async () => {
    const hrefs = [
      'https://example.com/a?b=1&c=2',
      'mailto:docs@example.com',
      '/pricing',
      'guides/intro',
      '#top',
    ];
    const res = await put({
      header: { links: hrefs.map((href, i) => ({ title: `L${i}`, to: url(href), links: [] })) },
    });
    expect(res.status).toBe(200);
    const stored = (res.body as { header: { links: Array<{ to: { url: string } }> } }).header.links;
    expect(stored.map((l) => l.to.url)).toEqual(hrefs);
  });

  it('names the field when a link target has the wrong kind', async () => {
    const res = await put({ header: { links: [{ title: 'x', to: { kind: 'nope' }, links: [] }] } });
    expect(res.status).toBe(400);
    expect((res.body as { error: { message: string } }).error.message).toMatch(
      /^Invalid request: body\.header\.links\.0\.to\.kind must be one of: "url", "page"/,
    );
  });
});
