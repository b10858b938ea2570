/**
 * The documentation bench/site publishes: 40 sections, each with 7 topics of 6 pages
 * (40 × (1 + 7 × (1 + 6)) = 2,000 pages, three levels deep like real product docs), every page
 * about 1.5 KB of markdown with headings, a hint, a list, a code block and links to other pages.
 */

export const SECTIONS = [
  'Getting started',
  'Installation',
  'Configuration',
  'Authentication',
  'Authorization',
  'Users',
  'Teams',
  'Projects',
  'Repositories',
  'Pipelines',
  'Deployments',
  'Environments',
  'Secrets',
  'Webhooks',
  'Integrations',
  'Notifications',
  'Billing',
  'Usage limits',
  'Monitoring',
  'Logging',
  'Metrics',
  'Alerts',
  'Backups',
  'Storage',
  'Networking',
  'Domains',
  'Certificates',
  'Caching',
  'Search',
  'Analytics',
  'Exports',
  'Imports',
  'Migrations',
  'Command line',
  'SDKs',
  'REST API',
  'GraphQL API',
  'Security',
  'Compliance',
  'Release notes',
];
export const TOPICS = [
  'Overview',
  'Quickstart',
  'Concepts',
  'Guides',
  'Reference',
  'Examples',
  'Troubleshooting',
];
export const LEAVES = ['Basics', 'Advanced options', 'Limits', 'Best practices', 'Common errors', 'FAQ'];

export interface PageSpec {
  /** Client reference, also the key of the page in the bench. */
  ref: string;
  title: string;
  slug: string;
  /** The page's path in the space (its slugs from the top). */
  path: string;
  /** Ref of the parent page; undefined at the top. */
  parent?: string;
  level: number;
  markdown: string;
}

export const slugOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const CODE = [
  (slug: string) =>
    [
      '```bash',
      `quire ${slug} enable --project my-project --region eu-west-1`,
      `quire ${slug} status --format json | jq '.state'`,
      '```',
    ].join('\n'),
  (slug: string) =>
    [
      '```json',
      '{',
      `  "feature": "${slug}",`,
      '  "enabled": true,',
      '  "timeoutSeconds": 30,',
      '  "retries": { "max": 5, "backoff": "exponential" }',
      '}',
      '```',
    ].join('\n'),
  (slug: string) =>
    [
      '```yaml',
      `${slug.replace(/-/g, '_')}:`,
      '  enabled: true',
      '  timeout: 30s',
      '  regions: [eu-west-1, us-east-1]',
      '```',
    ].join('\n'),
  (slug: string) =>
    [
      '```typescript',
      "import { Client } from '@example/sdk';",
      '',
      'const client = new Client({ token: process.env.EXAMPLE_TOKEN });',
      `const result = await client.${slug.replace(/-(.)/g, (_, c: string) => c.toUpperCase())}.enable({ project: 'my-project' });`,
      'console.log(result.state);',
      '```',
    ].join('\n'),
];

function body(n: number, title: string, slug: string, links: Array<{ title: string; path: string }>): string {
  const [a, b, c] = [links[0]!, links[1] ?? links[0]!, links[2] ?? links[0]!];
  return [
    `${title} explains how this part of the product behaves once it is configured for production use, which settings matter most, and what to check first when something does not work as expected.`,
    '## Before you begin',
    `You need an account with the **Admin** role and a project set up as described in [${a.title}](/${a.path}). If you are new to the product, read [${b.title}](/${b.path}) first: it introduces the terms this page uses.`,
    '{% hint style="info" %}',
    `Changes made here apply to every environment of the project. Try them on a staging project first, then promote them as explained in [${c.title}](/${c.path}).`,
    '{% endhint %}',
    '## Steps',
    [
      '1. Open the **Settings** page of your project.',
      `2. Select **${title}** in the sidebar and turn it on.`,
      '3. Review the defaults below and save; the change takes effect within a minute.',
    ].join('\n'),
    CODE[n % CODE.length]!(slug),
    '## Options',
    [
      '- `enabled`: whether the feature runs at all (default `false`).',
      '- `timeout`: how long one attempt may take before it is retried.',
      '- `retries`: how many attempts are made before the job is marked as failed.',
      '- `regions`: where the work runs; the first region is the primary one.',
    ].join('\n'),
    '## Next steps',
    `Continue with [${a.title}](/${a.path}) or browse the rest of this section. Questions are welcome on the community forum.`,
  ].join('\n\n');
}

/** Every page, parents before children (so a page's parent exists when it is inserted). */
export function docsPages(): PageSpec[] {
  const sections: PageSpec[] = [];
  const topics: PageSpec[] = [];
  const leaves: PageSpec[] = [];
  let n = 0;
  const top = { title: SECTIONS[0]!, path: slugOf(SECTIONS[0]!) };
  SECTIONS.forEach((sectionTitle, s) => {
    const sectionSlug = slugOf(sectionTitle);
    const previous = s > 0 ? { title: SECTIONS[s - 1]!, path: slugOf(SECTIONS[s - 1]!) } : top;
    const section: PageSpec = {
      ref: `s${s}`,
      title: sectionTitle,
      slug: sectionSlug,
      path: sectionSlug,
      level: 0,
      markdown: body(n++, sectionTitle, sectionSlug, [previous, top, previous]),
    };
    sections.push(section);
    TOPICS.forEach((topicTitle, t) => {
      const topicSlug = slugOf(topicTitle);
      const topic: PageSpec = {
        ref: `s${s}t${t}`,
        title: `${topicTitle}`,
        slug: topicSlug,
        path: `${sectionSlug}/${topicSlug}`,
        parent: section.ref,
        level: 1,
        markdown: body(n++, `${sectionTitle}: ${topicTitle}`, topicSlug, [
          { title: sectionTitle, path: section.path },
          top,
          previous,
        ]),
      };
      topics.push(topic);
      LEAVES.forEach((leafTitle, l) => {
        const leafSlug = slugOf(leafTitle);
        leaves.push({
          ref: `s${s}t${t}l${l}`,
          title: leafTitle,
          slug: leafSlug,
          path: `${topic.path}/${leafSlug}`,
          parent: topic.ref,
          level: 2,
          markdown: body(n++, `${sectionTitle} ${topicTitle.toLowerCase()}: ${leafTitle}`, leafSlug, [
            { title: topicTitle, path: topic.path },
            { title: sectionTitle, path: section.path },
            {
              title: TOPICS[(t + 1) % TOPICS.length]!,
              path: `${sectionSlug}/${slugOf(TOPICS[(t + 1) % TOPICS.length]!)}`,
            },
          ]),
        });
      });
    });
  });
  return [...sections, ...topics, ...leaves];
}
