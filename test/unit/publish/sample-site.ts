import type { ContentRef } from '../../../src/content/document-schema.js';
import { type LinkResolver, markdownToDocument } from '../../../src/content/markdown/index.js';
import type { DocumentLinks, PageContent, SiteFrame, SiteLook } from '../../../src/publish/render/model.js';

/** A realistic site and page for the renderer tests, built the way the site server builds them. */

const ROOT = 'https://docs.example.com/';

const PAGES: Record<string, { path: string; title: string; emoji?: string; description?: string }> = {
  'page-setup': {
    path: 'guides/setup',
    title: 'Setup',
    emoji: '2699',
    description: 'Configure Quire for production.',
  },
  'page-start': { path: 'quick-start', title: 'Quick start' },
};
const FILES: Record<string, { name: string; contentType: string }> = {
  'file-cheatsheet': { name: 'cheatsheet.pdf', contentType: 'application/pdf' },
  'file-shot': { name: 'first-space.png', contentType: 'image/png' },
};

/** Markdown hrefs to references, as the content engine resolves them for a space. */
export const resolver: LinkResolver = {
  resolve(href) {
    if (href.length > 1 && href.startsWith('#')) return { kind: 'anchor', anchor: href.slice(1) };
    const page = Object.entries(PAGES).find(([, p]) => `${p.path}.md` === href);
    if (page) return { kind: 'page', page: page[0] };
    const file = Object.entries(FILES).find(([, f]) => `.gitbook/assets/${f.name}` === href);
    if (file) return { kind: 'file', file: file[0] };
    return { kind: 'url', url: href };
  },
  href(ref: ContentRef) {
    return ref.kind === 'url' ? ref.url : '';
  },
};

export const links: DocumentLinks = {
  page: (pageId, anchor) => {
    const page = PAGES[pageId];
    if (!page) return undefined;
    return `${ROOT}${page.path}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
  },
  file: (fileId) => {
    const file = FILES[fileId];
    return file ? { href: `${ROOT}~files/${fileId}/${file.name}`, ...file } : undefined;
  },
  url: (url) => url,
  pageInfo: (pageId) => PAGES[pageId],
};

export const SAMPLE_MARKDOWN = `Quire serves your docs over the **GitBook API**. This guide takes *about five minutes* and ends with a ~~draft~~ published site.

{% hint style="info" %}
You need Node.js 20 or later. Check with \`node --version\`.
{% endhint %}

## Install

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm install -g quire
quire serve --port 8080
\`\`\`
{% endtab %}

{% tab title="Docker" %}
\`\`\`sh
docker run -p 8080:8080 quire/quire
\`\`\`
{% endtab %}
{% endtabs %}

## Configure <a href="#config" id="config"></a>

Create \`quire.json\` next to your content, then press <kbd>Ctrl</kbd> + <kbd>C</kbd> to stop the server and start it again.

{% code title="quire.json" lineNumbers="true" %}
\`\`\`json
{
  "publicUrl": "https://docs.example.com",
  "database": "sqlite:///var/lib/quire.db",
  /* comments are not JSON,
     but this one spans lines */
  "workers": 4
}
\`\`\`
{% endcode %}

| Setting     | Default      | Meaning                                  |
| ----------- | :----------: | ---------------------------------------- |
| \`publicUrl\` | *(required)* | The address readers use                  |
| \`database\`  | in memory    | SQLite file or \`postgres://\` URL<br>Both |

### Environment

1. Start the server.
2. Open [the admin page](http://localhost:8080/admin).
3. Follow [Setup](guides/setup.md) for the rest, or jump back to [the configuration](#config).
   * Nested point one
   * Nested point two

* [x] Server running
* [ ] First space published

{% hint style="warning" %}
Back up the database before you upgrade.
{% endhint %}

{% hint style="success" %}
That's it: your site is live.
{% endhint %}

{% hint style="danger" %}
Never expose the admin token.
{% endhint %}

<figure><img src=".gitbook/assets/first-space.png" alt="The first space"><figcaption><p>Your first space</p></figcaption></figure>

<details>

<summary>Troubleshooting</summary>

If the port is taken, set \`PORT\`:

\`\`\`sh
PORT=9090 quire
\`\`\`

</details>

> Quire stores every page as markdown, so git sync stays lossless.

---

The average load is $$\\frac{1}{n}\\sum_i x_i$$ per request.

$$
\\text{latency} = t_{queue} + t_{work}
$$

{% embed url="https://www.youtube.com/watch?v=quire" %}

{% file src=".gitbook/assets/cheatsheet.pdf" %}

{% content-ref url="guides/setup.md" %}
[guides/setup.md](guides/setup.md)
{% endcontent-ref %}

## Install

A second heading with the same title gets its own id.
`;

export function sampleLook(overrides: Partial<SiteLook> = {}): SiteLook {
  return {
    primaryColor: { light: '#346ddb', dark: '#7aa2ff' },
    theme: { default: 'system', toggleable: true },
    corners: 'rounded',
    font: 'Inter',
    headerLinks: [
      { title: 'Blog', href: 'https://example.com/blog', links: [] },
      {
        title: 'Community',
        links: [
          { title: 'Forum', href: 'https://forum.example.com' },
          { title: 'Chat', href: 'https://chat.example.com' },
        ],
      },
    ],
    footer: {
      groups: [
        { title: 'Product', links: [{ title: 'Pricing', href: 'https://example.com/pricing' }] },
        { title: 'Company', links: [{ title: 'About', href: 'https://example.com/about' }] },
      ],
      copyright: '© 2025 Example Inc.',
    },
    announcement: {
      message: 'Quire 1.0 is out.',
      style: 'info',
      link: { title: 'Read the release notes', href: 'https://example.com/blog/1.0' },
    },
    pagination: true,
    ...overrides,
  };
}

export function sampleFrame(overrides: Partial<SiteFrame> = {}): SiteFrame {
  return {
    siteTitle: 'Quire Docs',
    homeHref: ROOT,
    look: sampleLook(),
    sections: [
      { kind: 'section', title: 'Guides', href: ROOT, active: true },
      { kind: 'section', title: 'API reference', href: `${ROOT}api`, active: false },
      {
        kind: 'group',
        title: 'More',
        items: [
          { kind: 'section', title: 'Changelog', href: `${ROOT}changelog`, active: false },
          { kind: 'section', title: 'Integrations', href: `${ROOT}integrations`, active: false },
        ],
      },
    ],
    variants: [
      { title: 'v2', href: ROOT, active: true },
      { title: 'v1', href: `${ROOT}v1/`, active: false },
    ],
    tree: [
      {
        kind: 'group',
        title: 'Getting started',
        active: false,
        open: true,
        children: [
          {
            kind: 'document',
            title: 'Introduction',
            emoji: '1f44b',
            href: ROOT,
            active: false,
            open: false,
            children: [],
          },
          {
            kind: 'document',
            title: 'Quick start',
            href: `${ROOT}quick-start`,
            active: true,
            open: false,
            children: [],
          },
        ],
      },
      {
        kind: 'group',
        title: 'Guides',
        active: false,
        open: false,
        children: [
          {
            kind: 'document',
            title: 'Setup',
            href: `${ROOT}guides/setup`,
            active: false,
            open: false,
            children: [
              {
                kind: 'document',
                title: 'Database',
                href: `${ROOT}guides/setup/database`,
                active: false,
                open: false,
                children: [],
              },
            ],
          },
          {
            kind: 'link',
            title: 'GitHub',
            href: 'https://github.com/example/quire',
            active: false,
            open: false,
            children: [],
          },
        ],
      },
    ],
    searchHref: `${ROOT}~search`,
    noindex: false,
    lang: 'en',
    ...overrides,
  };
}

export function samplePage(overrides: Partial<PageContent> = {}): PageContent {
  return {
    title: 'Quick start',
    description: 'Install Quire and publish your first space.',
    emoji: '1f680',
    href: `${ROOT}quick-start`,
    markdownHref: `${ROOT}quick-start.md`,
    breadcrumbs: [{ title: 'Getting started' }],
    document: markdownToDocument(SAMPLE_MARKDOWN, resolver),
    links,
    previous: { title: 'Introduction', href: ROOT },
    next: { title: 'Setup', href: `${ROOT}guides/setup` },
    ...overrides,
  };
}
