import { type Site, SiteVisibility } from '@gitbook/api';
import { insert, seed } from './content.js';
import type { TestUser } from './factories.js';

export const WELCOME = [
  'Welcome to the **Acme** documentation.',
  '',
  '{% hint style="info" %}',
  'Remember to restart the service after changing its configuration.',
  '{% endhint %}',
  '',
  '## Configure',
  '',
  '```js',
  'const answer = 42;',
  'console.log(answer);',
  '```',
  '',
  'Read [the install guide](guides/install.md) next.',
].join('\n');

/** A space with a small realistic tree: Welcome, Guides > Install, Reference (hidden from search engines only). */
export async function docsSpace(owner: TestUser, orgId: string, title = 'Product docs') {
  const spaceId = (await owner.api.orgs.createSpace(orgId, { title })).data.id;
  const top = await seed(owner.api, spaceId, [
    insert('Welcome', WELCOME),
    insert('Guides', 'All the guides.'),
    insert('Reference', 'Every **option** of the frobnicator, explained.'),
  ]);
  const child = await seed(owner.api, spaceId, [
    insert('Install', 'Run `npm install acme` and start the frobnicator.', { into: top.get('Guides') }),
  ]);
  return { spaceId, pages: new Map([...top, ...child]) };
}

/** A site over `spaceIds`, published; answers the site as the API gives it after publishing. */
export async function publishedSite(
  owner: TestUser,
  orgId: string,
  spaceIds: string[],
  visibility: SiteVisibility = SiteVisibility.Public,
  title = 'Acme Docs',
): Promise<Site> {
  const created = await owner.api.orgs.createSite(orgId, { title, visibility, spaces: spaceIds } as never);
  const published = await owner.api.orgs.publishSite(orgId, created.data.id);
  return published.data as Site;
}

/** GET without following redirects, with optional cookies and headers. */
export async function visit(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { redirect: 'manual', headers });
  const body = await res.text();
  return { status: res.status, headers: res.headers, body };
}

/** The `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
