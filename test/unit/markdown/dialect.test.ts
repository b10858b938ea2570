import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { JsonDocument } from '../../../src/content/document-schema.js';
import { CONTAINMENT_TABLES } from '../../../src/content/markdown/containers.js';
import {
  documentToMarkdown,
  markdownToDocument,
  RAW_SYNTAX,
  unknownConstructs,
} from '../../../src/content/markdown/index.js';
import { officialSpecs } from '../../helpers/official-spec.js';

/**
 * GitBook's dialect as GitBook writes it (docs/gitbook-dialect.md): every construct becomes a
 * node of the official 0.202 document, valid against that schema; the 0.146 profile stays valid
 * against both versions; the site's profile reads everything; markdown written from the
 * document reads back as the same document.
 */

const spec = (version: '0.146' | '0.202') => officialSpecs().find((s) => s.version === version)!;

function valid(version: '0.146' | '0.202', document: JsonDocument): string[] {
  const validate = spec(version).componentValidator('JSONDocument')!;
  return validate(document)
    ? []
    : (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message}`);
}

/** Every node of a document, depth first (fragments included). */
function nodes(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) nodes(v, out);
  else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    if (node.object === 'block' || node.object === 'inline') out.push(node);
    nodes(node.nodes, out);
    nodes(node.fragments, out);
  }
  return out;
}

const types = (document: JsonDocument) => nodes(document.nodes).map((n) => n.type);
const raws = (document: JsonDocument) =>
  nodes(document.nodes).filter(
    (n) => n.type === 'raw' || (n.type === 'code' && (n.data as { syntax?: string }).syntax === RAW_SYNTAX),
  );

/** Converts for 0.202, checks validity, writes it back and reads the same document again. */
function read(markdown: string): JsonDocument {
  const unknown: string[] = [];
  const document = markdownToDocument(markdown, { profile: 'v0202', onUnknown: (c) => unknown.push(c) });
  expect(unknown).toEqual([]);
  expect(valid('0.202', document)).toEqual([]);
  expect(raws(document)).toEqual([]);
  const again = markdownToDocument(documentToMarkdown(document), { profile: 'v0202' });
  expect(again).toEqual(document);
  // The 0.146 profile of the same markdown validates against both versions.
  const old = markdownToDocument(markdown, { profile: 'v0146' });
  expect(valid('0.146', old)).toEqual([]);
  expect(valid('0.202', old)).toEqual([]);
  return document;
}

describe('containment tables', () => {
  it('are what each official schema allows, read back from the specs', () => {
    const require = createRequire(import.meta.url);
    for (const [version, file] of [
      ['v0146', 'gitbook-api-0146/spec/openapi.json'],
      ['v0202', '@gitbook/api/spec/openapi.json'],
    ] as const) {
      const schemas = JSON.parse(readFileSync(require.resolve(file), 'utf8')).components.schemas;
      const typesOf = (ref: string, seen = new Set<string>()): string[] => {
        const name = ref.split('/').pop()!;
        if (seen.has(name)) return [];
        seen.add(name);
        const schema = schemas[name];
        if (schema?.oneOf)
          return schema.oneOf.flatMap((x: { $ref?: string }) => (x.$ref ? typesOf(x.$ref, seen) : []));
        return schema?.properties?.type?.enum ?? [];
      };
      const items = (array: { items: { $ref?: string; oneOf?: Array<{ $ref: string }> } }) =>
        array.items.$ref
          ? typesOf(array.items.$ref)
          : (array.items.oneOf ?? []).flatMap((x) => typesOf(x.$ref));
      const table = CONTAINMENT_TABLES[version];
      const sorted = (list: readonly string[]) => [...new Set(list)].sort();
      const drawing = (list: string[]) => list.filter((t) => t !== 'drawing');
      expect(sorted(table.document)).toEqual(
        sorted(drawing(typesOf('#/components/schemas/DocumentBlocksTopLevels'))),
      );
      for (const [container, schema] of [
        ['listItem', 'DocumentBlockListItem'],
        ['quote', 'DocumentBlockQuote'],
        ['hint', 'DocumentBlockHint'],
        ['tab', 'DocumentBlockTabsItem'],
        ['step', 'DocumentBlockStepperStep'],
      ] as const)
        expect(sorted(table[container]), `${version} ${container}`).toEqual(
          sorted(drawing(items(schemas[schema].properties.nodes))),
        );
      if (version === 'v0202')
        for (const [container, schema] of [
          ['update', 'DocumentBlockUpdate'],
          ['column', 'DocumentBlockColumn'],
        ] as const)
          expect(sorted(table[container]), container).toEqual(
            sorted(drawing(items(schemas[schema].properties.nodes))),
          );
    }
  });
});

describe('GitBook blocks', () => {
  it('stepper with steps holding headings, code and tabs', () => {
    const document = read(
      [
        '{% stepper %}',
        '{% step %}',
        '### Install',
        '',
        'Run the installer.',
        '',
        '```bash',
        'npm install lumen',
        '```',
        '{% endstep %}',
        '',
        '{% step %}',
        '### Configure',
        '',
        '{% hint style="warning" %}',
        'Keep the key secret.',
        '{% endhint %}',
        '{% endstep %}',
        '{% endstepper %}',
        '',
      ].join('\n'),
    );
    expect(types(document).slice(0, 3)).toEqual(['stepper', 'stepper-step', 'heading-2']);
    expect(types(document)).toContain('hint');
  });

  it('tabs in a step: raw markdown for 0.202 (its steps hold no tabs), tabs on the site', () => {
    const markdown = [
      '{% stepper %}',
      '{% step %}',
      '{% tabs %}',
      '{% tab title="Linux" icon="linux" %}',
      'Edit `/etc/lumen.conf`.',
      '{% endtab %}',
      '{% endtabs %}',
      '{% endstep %}',
      '{% endstepper %}',
      '',
    ].join('\n');
    const api = markdownToDocument(markdown, { profile: 'v0202' });
    expect(valid('0.202', api)).toEqual([]);
    expect(types(api).slice(0, 3)).toEqual(['stepper', 'stepper-step', 'code']);
    const old = markdownToDocument('<a href="https://example.com/x" class="button primary">Go</a>\n', {
      profile: 'v0146',
    });
    expect(nodes(old.nodes).map((n) => n.type)).toEqual(['paragraph', 'link']);
    const site = markdownToDocument(markdown, { profile: 'render' });
    expect(nodes(site.nodes).find((n) => n.type === 'tabs-item')?.data).toEqual({
      title: 'Linux',
      icon: 'linux',
    });
  });

  it('updates whose entry ends with an expandable right before its closing tag', () => {
    const document = read(
      [
        '{% updates format="full" %}',
        '{% update date="2026-04-29" tags="payments,platform" %}',
        '## Smart routing v2',
        '',
        'Routing picks the cheapest acquirer.',
        '',
        '<details>',
        '',
        '<summary><strong><code>x-routing</code></strong> header</summary>',
        '',
        'Send it to pin an acquirer.',
        '',
        '</details>',
        '{% endupdate %}',
        '',
        '{% update date="2026-04-22" %}',
        '## Faster payouts',
        '{% endupdate %}',
        '{% endupdates %}',
        '',
      ].join('\n'),
    );
    const [updates] = document.nodes;
    expect(updates).toMatchObject({ type: 'updates', data: { format: 'full' } });
    expect(
      nodes(document.nodes)
        .filter((n) => n.type === 'update')
        .map((n) => n.data),
    ).toEqual([
      {
        date: '2026-04-29T00:00:00.000Z',
        tags: [
          { kind: 'tag', tag: 'payments' },
          { kind: 'tag', tag: 'platform' },
        ],
      },
      { date: '2026-04-22T00:00:00.000Z' },
    ]);
    const expandable = nodes(document.nodes).find((n) => n.type === 'expandable')!;
    const title = (
      expandable.fragments as Array<{ nodes: Array<{ nodes: Array<{ leaves?: unknown[] }> }> }>
    )[0]!.nodes[0]!.nodes;
    expect(title[0]).toEqual({
      object: 'text',
      leaves: [
        {
          object: 'leaf',
          text: 'x-routing',
          marks: [
            { object: 'mark', type: 'bold' },
            { object: 'mark', type: 'code' },
          ],
        },
        { object: 'leaf', text: ' header', marks: [] },
      ],
    });
  });

  it('columns with widths and alignment, a hint with an icon and a button inside', () => {
    const document = read(
      [
        '{% columns fullWidth="false" %}',
        '{% column width="66.66666666666666%" valign="middle" %}',
        '{% hint style="success" icon="sparkles" %}',
        'Lumen is ready.',
        '{% endhint %}',
        '{% endcolumn %}',
        '',
        '{% column width="33.33333333333334%" %}',
        '<a href="https://example.com/signup" class="button primary" data-icon="rocket">Sign up</a>',
        '{% endcolumn %}',
        '{% endcolumns %}',
        '',
      ].join('\n'),
    );
    const [columns] = nodes(document.nodes);
    expect(columns).toMatchObject({ type: 'columns', data: { fullWidth: false } });
    expect(
      nodes(document.nodes)
        .filter((n) => n.type === 'column')
        .map((n) => n.data),
    ).toEqual([
      { width: { unit: '%', value: 66.66666666666666 }, verticalAlignment: 'middle' },
      { width: { unit: '%', value: 33.33333333333334 } },
    ]);
    expect(nodes(document.nodes).find((n) => n.type === 'hint')?.data).toEqual({
      style: 'success',
      icon: 'sparkles',
    });
    // 0.202's button schema cannot be met: a link button is a link in API documents, a button on the site.
    expect(nodes(document.nodes).find((n) => n.type === 'link')?.data).toEqual({
      ref: { kind: 'url', url: 'https://example.com/signup' },
    });
    const site = markdownToDocument(
      '<a href="https://example.com/signup" class="button primary" data-icon="rocket">Sign up</a>\n',
      { profile: 'render' },
    );
    expect(nodes(site.nodes).find((n) => n.type === 'button')?.data).toEqual({
      label: 'Sign up',
      kind: 'primary',
      icon: 'rocket',
      ref: { kind: 'url', url: 'https://example.com/signup' },
    });
  });

  it('conditional content, and else as the negated condition', () => {
    const document = markdownToDocument(
      '{% if visitor.claims.unsigned.plan === "pro" %}\nPro only.\n{% else %}\nEveryone else.\n{% endif %}\n',
      { profile: 'v0202' },
    );
    expect(valid('0.202', document)).toEqual([]);
    expect(document.nodes.map((n) => [n.type, (n.data as { expression?: string }).expression])).toEqual([
      ['if', 'visitor.claims.unsigned.plan === "pro"'],
      ['if', '!(visitor.claims.unsigned.plan === "pro")'],
    ]);
    // 0.146 has no conditional blocks: the markdown stays raw there.
    const old = markdownToDocument('{% if visitor.claims.x %}\nHidden.\n{% endif %}\n', { profile: 'v0146' });
    expect(old.nodes).toMatchObject([{ type: 'code', data: { syntax: RAW_SYNTAX } }]);
  });

  it('prompt, include, OpenAPI blocks, embeds and files with captions, integrations', () => {
    const links = {
      resolve: (href: string) =>
        href.includes('.gitbook/includes/')
          ? ({ kind: 'reusable-content', reusableContent: 'rc1' } as const)
          : href.includes('.gitbook/assets/')
            ? ({ kind: 'file', file: href.split('/').pop()! } as const)
            : ({ kind: 'url', url: href } as const),
      href: (ref: { kind: string; reusableContent?: string; file?: string; url?: string }) =>
        ref.kind === 'reusable-content'
          ? '../.gitbook/includes/warning.md'
          : ref.kind === 'file'
            ? `../.gitbook/assets/${ref.file}`
            : (ref.url ?? ''),
    };
    const markdown = [
      '{% prompt description="Integrate Lumen" icon="rectangle-terminal" openInAIProviders="true" defaultExpanded="full" %}',
      '```markdown',
      'Add Lumen to this project.',
      '```',
      '{% endprompt %}',
      '',
      '{% include "../.gitbook/includes/warning.md" %}',
      '',
      '{% openapi-operation spec="lumen-api" path="/v2/jobs/{job_id}" method="get" %}',
      '[OpenAPI lumen-api](https://api.example.com/openapi.json)',
      '{% endopenapi-operation %}',
      '',
      '{% openapi-schemas spec="lumen-api" schemas="Job,Error" grouped="true" %}',
      '[OpenAPI lumen-api](https://api.example.com/openapi.json)',
      '{% endopenapi-schemas %}',
      '',
      '{% openapi-webhook spec="lumen-api" name="job-done" method="post" %}',
      '[OpenAPI lumen-api](https://api.example.com/openapi.json)',
      '{% endopenapi-webhook %}',
      '',
      '{% swagger src="../.gitbook/assets/petstore.yaml" path="/pets" method="get" expanded="true" %}',
      '[petstore.yaml](../.gitbook/assets/petstore.yaml)',
      '{% endswagger %}',
      '',
      '{% embed url="https://www.youtube.com/watch?v=abc" %}',
      'A short tour.',
      '{% endembed %}',
      '',
      '{% file src="../.gitbook/assets/server.cfg" %}',
      'The default `server.cfg` file',
      '{% endfile %}',
      '',
    ].join('\n');
    const document = markdownToDocument(markdown, { links, profile: 'v0202' });
    expect(valid('0.202', document)).toEqual([]);
    expect(document.nodes.map((n) => n.type)).toEqual([
      'prompt',
      'reusable-content',
      'openapi-operation',
      'openapi-schemas',
      'openapi-webhook',
      'swagger',
      'embed',
      'file',
    ]);
    expect(document.nodes[3]).toMatchObject({
      data: { ref: { kind: 'openapi', spec: 'lumen-api' }, schemas: ['Job', 'Error'], grouped: true },
    });
    expect(document.nodes[6]).toMatchObject({ fragments: [{ fragment: 'caption' }] });
    const again = markdownToDocument(documentToMarkdown(document, links), { links, profile: 'v0202' });
    expect(again).toEqual(document);
  });

  it('integration blocks: raw in API documents (their props fit no official schema), an embed on the site', () => {
    const markdown = '{% @arcade/embed flowId="X1" url="https://app.arcade.software/share/X1" %}\n';
    expect(markdownToDocument(markdown, { profile: 'v0202' }).nodes).toMatchObject([
      { type: 'code', data: { syntax: RAW_SYNTAX } },
    ]);
    expect(markdownToDocument(markdown, { profile: 'render' }).nodes).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://app.arcade.software/share/X1' } },
    ]);
    // GitBook's old Mermaid block is a mermaid code block everywhere.
    const mermaid = markdownToDocument('{% @mermaid/diagram content="graph TD\n  A("Start") --> B" %}\n', {
      profile: 'v0202',
    });
    expect(mermaid.nodes).toMatchObject([{ type: 'code', data: { syntax: 'mermaid' } }]);
  });
});

describe('GitBook HTML', () => {
  it('figures with captions and sizes, dark variants, frames, alignment and galleries', () => {
    const document = read(
      [
        '<figure><img src="https://example.com/a.png" alt="Dashboard" width="563"><figcaption><p>The <strong>new</strong> dashboard</p></figcaption></figure>',
        '',
        '<figure><picture><source srcset="https://example.com/dark.png" media="(prefers-color-scheme: dark)"><img src="https://example.com/light.png" alt=""></picture><figcaption></figcaption></figure>',
        '',
        '<div data-with-frame="true"><figure><img src="https://example.com/b.png" alt=""><figcaption></figcaption></figure></div>',
        '',
        '<div align="left"><figure><img src="https://example.com/c.png" alt="" width="50%"><figcaption></figcaption></figure> <figure><img src="https://example.com/d.png" alt=""><figcaption></figcaption></figure></div>',
        '',
      ].join('\n'),
    );
    const blocks = document.nodes as Array<{ data: unknown; nodes: Array<{ data: unknown }> }>;
    expect(blocks[0]!.nodes[0]!.data).toEqual({
      ref: { kind: 'url', url: 'https://example.com/a.png' },
      alt: 'Dashboard',
      width: 563,
    });
    expect(blocks[1]!.nodes[0]!.data).toMatchObject({
      refDark: { kind: 'url', url: 'https://example.com/dark.png' },
    });
    expect(blocks[2]!.data).toEqual({ withFrame: true });
    expect(blocks[3]!.data).toEqual({ align: 'left' });
    expect(blocks[3]!.nodes.map((n) => n.data)).toMatchObject([{ width: { unit: '%', value: 50 } }, {}]);
  });

  it('one-line tables: widths, hidden and typed columns, and cards with cover and target', () => {
    const document = read(
      [
        '<table data-full-width="false"><thead><tr><th width="229.63671875">Field</th><th align="right">Type</th><th data-type="checkbox">Required</th><th data-hidden>Internal</th></tr></thead><tbody><tr><td><strong>name</strong></td><td>string</td><td>true</td><td></td></tr><tr><td>age</td><td>number</td><td>false</td><td></td></tr></tbody></table>',
        '',
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="image">Cover</th></tr></thead><tbody><tr><td><strong>Quickstart</strong><br>Ship in five minutes.</td><td><a href="https://example.com/start">start</a></td><td><a href="https://example.com/cover.png">cover.png</a></td></tr></tbody></table>',
        '',
      ].join('\n'),
    );
    const [grid, cards] = document.nodes as Array<{ data: Record<string, unknown> }>;
    expect(grid!.data.view).toEqual({
      type: 'grid',
      columns: ['c0', 'c1', 'c2'],
      hideHeader: false,
      columnWidths: { c0: 229.63671875 },
    });
    expect(Object.values(grid!.data.records as object)[0]).toMatchObject({ values: { c2: true } });
    expect(cards!.data.view).toEqual({
      type: 'cards',
      columns: ['c0'],
      cardSize: 'medium',
      targetDefinition: 'c1',
      coverDefinition: 'c2',
    });
    // An external card target has no value both schemas read unambiguously: only the site keeps it.
    expect(Object.values(cards!.data.records as object)[0]).toMatchObject({
      values: { c1: null, c2: { ref: { kind: 'url', url: 'https://example.com/cover.png' } } },
    });
  });

  it('tables with <colgroup> widths', () => {
    const document = read(
      '<table><colgroup><col width="240"><col></colgroup><thead><tr><th>Field</th><th>Meaning</th></tr></thead><tbody><tr><td>id</td><td>The id</td></tr></tbody></table>\n',
    );
    expect((document.nodes[0] as { data: { view: unknown } }).data.view).toEqual({
      type: 'grid',
      columns: ['c0', 'c1'],
      hideHeader: false,
      columnWidths: { c0: 240 },
    });
  });

  it("code with highlighted lines and options in GitBook's <pre> form", () => {
    const document = read(
      '<pre class="language-json" data-title="Sample message" data-overflow="wrap" data-line-numbers data-full-width="true"><code class="lang-json">{\n<strong>    "marketId": 2764,\n</strong>    "side": "bids &#x3C; asks"\n}\n</code></pre>\n',
    );
    const [code] = document.nodes as Array<{ data: unknown; nodes: Array<{ data: unknown }> }>;
    expect(code!.data).toEqual({
      syntax: 'json',
      title: 'Sample message',
      overflow: 'wrap',
      lineNumbers: true,
      fullWidth: true,
    });
    expect(code!.nodes.map((l) => l.data)).toEqual([{}, { highlighted: true }, {}, {}]);
  });

  it('inline: icons, expressions, colours, keyboard, action buttons, inline images, mentions, annotations', () => {
    const document = read(
      [
        'Star us <i class="fa-github" style="color:purple;">:github:</i> and use <code class="expression">space.vars.PRODUCT_NAME</code> today: <mark style="color:red;">stop</mark> or <mark style="background-color:$primary;">go</mark>, press <kbd>Ctrl</kbd> + <kbd>K</kbd>.',
        '',
        '<button type="button" class="button secondary" data-action="ask" data-query="How long does it take?" data-icon="clock">Timing</button> and <img src="https://example.com/logo.svg" alt="" data-size="line"> logo.',
        '',
        'See [setup.md](https://example.com/setup.md "mention") by [Ann Lee](https://app.gitbook.com/u/abc123 "mention").',
        '',
        'Payouts are [batched daily](#user-content-fn-1)[^1].',
        '',
        '[^1]: Except on bank holidays.',
        '',
      ].join('\n'),
    );
    const inline = nodes(document.nodes).filter((n) => n.object === 'inline');
    // An action button is its label in API documents (no official schema can carry it).
    expect(inline.map((n) => n.type)).toEqual([
      'icon',
      'expression',
      'inline-image',
      'mention',
      'mention',
      'annotation',
    ]);
    expect(inline[0]!.data).toEqual({ icon: 'github', color: 'purple' });
    expect(inline[4]!.data).toEqual({ ref: { kind: 'user', user: 'abc123' } });
    const marks = nodes(document.nodes)
      .flatMap((n) =>
        ((n.nodes as Array<{ leaves?: Array<{ marks: unknown[] }> }>) ?? []).flatMap((t) => t.leaves ?? []),
      )
      .flatMap((l) => l.marks);
    expect(marks).toContainEqual({
      object: 'mark',
      type: 'color',
      data: { text: 'red', background: 'default' },
    });
    expect(marks).toContainEqual({
      object: 'mark',
      type: 'color',
      data: { text: 'default', background: '$primary' },
    });
    expect(marks).toContainEqual({ object: 'mark', type: 'keyboard' });
    // The footnote is the annotation's body, not a block of its own.
    expect(document.nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph', 'paragraph', 'paragraph']);
  });
});

describe('legacy API methods', () => {
  const markdown = [
    '{% swagger method="get" path="/payments/{id}" baseUrl="https://api.example.com/v1" summary="Retrieve a payment" %}',
    '{% swagger-description %}',
    'Returns a payment.',
    '{% endswagger-description %}',
    '',
    '{% swagger-parameter in="path" name="id" type="String" required="true" %}',
    'The payment id',
    '{% endswagger-parameter %}',
    '',
    '{% swagger-response status="200: OK" description="The payment" %}',
    '```json',
    '{ "id": "ch_1" }',
    '```',
    '{% endswagger-response %}',
    '{% endswagger %}',
    '',
  ].join('\n');

  it('are drawn on the site from blocks documents have, and stay raw in API documents', () => {
    const unknown: string[] = [];
    const site = markdownToDocument(markdown, { profile: 'render', onUnknown: (c) => unknown.push(c) });
    expect(unknown).toEqual([]);
    expect(site.nodes.map((n) => n.type)).toEqual([
      'paragraph',
      'paragraph',
      'paragraph',
      'paragraph',
      'list-unordered',
      'expandable',
    ]);
    expect(JSON.stringify(site.nodes[0])).toContain('https://api.example.com/v1/payments/{id}');
    expect(JSON.stringify(site.nodes[5])).toContain('200: OK — The payment');
    const api = markdownToDocument(markdown, { profile: 'v0202' });
    expect(api.nodes).toMatchObject([{ type: 'code', data: { syntax: RAW_SYNTAX } }]);
  });
});

describe('the report of unknown constructs', () => {
  it('names tags and elements the converter does not read, and nothing in pages it reads whole', () => {
    expect(
      unknownConstructs('Text.\n\n{% mystery %}\nx\n{% endmystery %}\n\n<video src="a.mp4"></video>\n'),
    ).toEqual(['{% mystery %}', '<video>']);
    expect(
      unknownConstructs('{% hint style="info" %}\n<mark style="color:red;">Hi</mark>\n{% endhint %}\n'),
    ).toEqual([]);
  });
});

describe('the site profile', () => {
  it('draws blocks where no API version allows them, and shows unknown markup as text', () => {
    const unknown: string[] = [];
    const document = markdownToDocument(
      [
        '{% hint style="info" %}',
        '```bash',
        'lumen start',
        '```',
        '{% endhint %}',
        '',
        '{% mystery %}',
        'Inside a block nobody knows.',
        '{% endmystery %}',
        '',
        '<video src="clip.mp4">Your browser plays no video.</video>',
        '',
        '{% if visitor.claims.plan == "pro" %}',
        '{% weird %}',
        'Secret.',
        '{% endif %}',
        '',
      ].join('\n'),
      { profile: 'render', onUnknown: (c) => unknown.push(c) },
    );
    expect(types(document)).toEqual([
      'hint',
      'code',
      'code-line',
      'paragraph',
      'paragraph',
      'if',
      'paragraph',
    ]);
    expect(JSON.stringify(document.nodes[2])).toContain('Your browser plays no video.');
    expect(unknown).toEqual(['{% mystery %}', '<video>', '{% weird %}']);
  });
});
