import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonDocument } from '../../src/content/document-schema.js';
import { documentToMarkdown, extractLinks, markdownToDocument } from '../../src/content/markdown/index.js';
import { validateDocument } from '../../src/content/validate-document.js';
import { parsePageFile } from '../../src/git/front-matter.js';
import {
  applyTranslations,
  countWords,
  placeholderProblem,
  SegmentMismatch,
  segmentsOf,
} from '../../src/translations/segments.js';

/** A page the way GitBook's git sync writes one, with every block that holds text. */
const PAGE = `---
description: Everything a reader needs to take payments.
---

# Accept payments

## Before you start

Lumen charges cards with **one _signed_ request** and \`POST /charges\`. See [the API reference](https://docs.lumen.dev/api) or [webhooks](../api/webhooks.md#signing).

Your key is <code class="expression">space.vars.apiKey</code>; press <kbd>Ctrl</kbd> + <kbd>K</kbd> to search, and read the fine print[^1].

{% hint style="warning" %}
**Never** share your secret key. Rotate it from the <mark style="color:red;">Danger zone</mark>.
{% endhint %}

{% tabs %}
{% tab title="Node.js" %}
Install the SDK first:

\`\`\`bash
npm install @lumen/node
\`\`\`
{% endtab %}

{% tab title="Python" %}
\`\`\`python
import lumen  # the client reads LUMEN_KEY
\`\`\`
{% endtab %}
{% endtabs %}

{% stepper %}
{% step %}

### Create a charge

Send the amount in cents.
{% endstep %}

{% step %}

### Confirm it

Wait for the \`charge.succeeded\` event.
{% endstep %}
{% endstepper %}

{% code title="charge.js" lineNumbers="true" %}
\`\`\`javascript
const charge = await lumen.charges.create({ amount: 1000, currency: 'usd' });
\`\`\`
{% endcode %}

| Field      | Type    | Meaning                        |
| ---------- | ------- | ------------------------------ |
| \`amount\`   | integer | Amount in **cents**            |
| \`currency\` | string  | Three-letter ISO code, 5 < 6   |

<figure><img src="../.gitbook/assets/charge-flow.png" alt="How a charge flows"><figcaption><p>A charge, from request to payout</p></figcaption></figure>

<details>

<summary>Why was my card declined?</summary>

Most declines come from the issuer. Retry with [another card](https://lumen.dev/cards).

</details>

> Payments settle in **two** business days.

1. Open the dashboard.
2. Copy the key.
   * Keep it safe.

* [x] Test mode enabled

12 / 34 — 56

\`only_code()\`

{% embed url="https://www.youtube.com/watch?v=lumen" %}
A short tour of the dashboard
{% endembed %}

[^1]: Fees apply to **international** cards.
`;

function toDocument(markdown: string): JsonDocument {
  return markdownToDocument(parsePageFile(markdown).body, { profile: 'v0202' });
}

/** Changes the text between tags (and character references) and nothing else. */
function mapText(segment: string, change: (text: string) => string): string {
  return segment
    .split(/(<[^<>]*>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);)/gi)
    .map((part, i) => (i % 2 === 1 || part === '' ? part : change(part)))
    .join('');
}

const pseudo = (segment: string) => mapText(segment, (text) => `⟦${text.toUpperCase()}⟧`);

function translateAll(document: JsonDocument, translate: (segment: string) => string): JsonDocument {
  return applyTranslations(
    document,
    segmentsOf(document).map((s) => translate(s.text)),
  );
}

/** Every fenced code block of a markdown file, as written (list items and quotes hold some). */
function fences(markdown: string): string[] {
  const found: string[] = [];
  let open: { marker: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      open.lines.push(line);
      const close = /^[\s>]*(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]![0] === open.marker[0] && close[1]!.length >= open.marker.length) {
        found.push(open.lines.join('\n'));
        open = undefined;
      }
      continue;
    }
    const fence = /^[\s>]*(?:(?:[*+-]|\d+[.)])\s+)*(`{3,}|~{3,})/.exec(line);
    if (fence) open = { marker: fence[1]!, lines: [line] };
  }
  return found;
}

/** The `{% %}` tags of a file with their attributes; tab titles are prose, so they are left out. */
function tags(markdown: string): string[] {
  return [...markdown.matchAll(/\{%-?\s*([\w-]+)(.*?)-?%\}/g)].map(([, name, rest]) =>
    name === 'tab' ? `${name}${rest!.replace(/\s*title="[^"]*"/, '')}` : `${name}${rest}`,
  );
}

const hrefs = (markdown: string) => extractLinks(markdown).map((link) => link.href);

/** Everything but words: every node's object, type, key and data, translated attributes left out. */
function skeleton(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(skeleton).filter((n) => n !== undefined);
  const n = node as Record<string, unknown>;
  if (n.object === 'text') return undefined;
  const data = structuredClone(n.data) as Record<string, unknown> | undefined;
  if (data) {
    for (const field of ['alt', 'caption', 'label']) delete data[field];
    if (n.type === 'tabs-item') delete data.title;
    for (const column of Object.values((data.definition ?? {}) as Record<string, { title?: string }>))
      delete column.title;
  }
  return {
    object: n.object,
    type: n.type,
    key: n.key,
    fragment: n.fragment,
    data,
    nodes: n.nodes ? skeleton(n.nodes) : undefined,
    fragments: n.fragments ? skeleton(n.fragments) : undefined,
  };
}

/** Gives every node a key, the way documents edited through the API carry them. */
function withKeys(document: JsonDocument): JsonDocument {
  let next = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.object === 'block' || n.object === 'inline' || n.object === 'text') n.key = `k${next++}`;
    visit(n.nodes);
    visit(n.fragments);
  };
  const copy = structuredClone(document);
  visit(copy.nodes);
  return copy;
}

function corpusPages(): Array<[string, string]> {
  const root = path.resolve('test/fixtures/gitbook');
  const pages: Array<[string, string]> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) pages.push([path.relative(root, full), readFileSync(full, 'utf8')]);
    }
  };
  walk(root);
  return pages;
}

/** What a translation of `source` must keep, whatever the words. */
function expectIntact(source: JsonDocument, translated: JsonDocument): void {
  expect(() => validateDocument(translated, 'document')).not.toThrow();
  expect(skeleton(translated)).toEqual(skeleton(source));
  const before = documentToMarkdown(source);
  const after = documentToMarkdown(translated);
  expect(fences(after)).toEqual(fences(before));
  expect(tags(after)).toEqual(tags(before));
  expect(hrefs(after)).toEqual(hrefs(before));
}

describe('segmentsOf', () => {
  const document = toDocument(PAGE);
  const segments = segmentsOf(document);
  const texts = segments.map((s) => s.text);

  it('gives the inline content of every text block, marks and inline nodes as numbered tags', () => {
    expect(texts).toContain(
      'Lumen charges cards with <x id="1">one <x id="2">signed</x> request</x> and <x id="3"/>. ' +
        'See <x id="4">the API reference</x> or <x id="5">webhooks</x>.',
    );
    expect(texts).toContain(
      'Your key is <x id="1"/>; press <x id="2"/> + <x id="3"/> to search, and read the fine print<x id="4"/>.',
    );
    expect(texts).toContain(
      '<x id="1">Never</x> share your secret key. Rotate it from the <x id="2">Danger zone</x>.',
    );
  });

  it('walks into hints, tabs, steps, tables, figures, expandables, quotes, lists, embeds and annotations', () => {
    for (const expected of [
      'Before you start',
      'Node.js',
      'Python',
      'Install the SDK first:',
      'Create a charge',
      'Wait for the <x id="1"/> event.',
      'Field',
      'Meaning',
      'Amount in <x id="1">cents</x>',
      'Three-letter ISO code, 5 &lt; 6',
      'How a charge flows',
      'A charge, from request to payout',
      'Why was my card declined?',
      'Most declines come from the issuer. Retry with <x id="1">another card</x>.',
      'Payments settle in <x id="1">two</x> business days.',
      'Keep it safe.',
      'Test mode enabled',
      'A short tour of the dashboard',
      'Fees apply to <x id="1">international</x> cards.',
    ])
      expect(texts).toContain(expected);
  });

  it('names where each segment is, in document order', () => {
    const at = (text: string) => segments.find((s) => s.text === text)?.path;
    expect(at('Before you start')).toBe('nodes.0');
    expect(at('Node.js')).toMatch(/^nodes\.\d+\.nodes\.0\.data\.title$/);
    expect(at('Why was my card declined?')).toMatch(/^nodes\.\d+\.fragments\.0\.nodes\.0$/);
    expect(at('Fees apply to <x id="1">international</x> cards.')).toMatch(
      /^nodes\.\d+\.nodes\.\d+\.fragments\.0\.nodes\.0$/,
    );
    const order = ['Before you start', 'Node.js', 'Install the SDK first:', 'Python', 'Create a charge'];
    const positions = order.map((text) => texts.indexOf(text));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('never puts code, inline code, URLs, expressions or tag attributes in a segment', () => {
    const all = texts.join('\n');
    for (const hidden of [
      'POST /charges',
      'npm install',
      'import lumen',
      'lumen.charges.create',
      'charge.js',
      'lineNumbers',
      'charge.succeeded',
      'only_code',
      'space.vars',
      'Ctrl',
      'https://',
      'webhooks.md',
      'charge-flow.png',
      'style=',
      'warning',
      'youtube',
      '1000',
    ])
      expect(all).not.toContain(hidden);
  });

  it('leaves out segments with nothing to translate', () => {
    expect(texts.some((t) => t.includes('12 / 34'))).toBe(false);
    expect(texts).not.toContain('<x id="1"/>');
    expect(
      segmentsOf(toDocument('`a()` 42 — `b()`\n\n***\n\n```\nconst words = "all code";\n```\n')),
    ).toEqual([]);
  });

  it('keeps marks that nest inside links and links inside marks apart', () => {
    const [bold, mixed] = segmentsOf(
      toDocument('**[all bold](https://a.b/c)** here\n\nplain [link with **bold**](https://a.b/d) text\n'),
    );
    expect(bold!.text).toBe('<x id="1"><x id="2">all bold</x></x> here');
    expect(mixed!.text).toBe('plain <x id="1">link with <x id="2">bold</x></x> text');
  });

  it('never splits a link when a mark starts outside it and ends inside', () => {
    const bold = { object: 'mark', type: 'bold' } as const;
    const source: JsonDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          key: 'p',
          nodes: [
            { object: 'text', key: 't1', leaves: [{ object: 'leaf', text: 'Read the ', marks: [bold] }] },
            {
              object: 'inline',
              type: 'link',
              key: 'l',
              data: { ref: { kind: 'page', page: 'p2' } },
              nodes: [
                {
                  object: 'text',
                  key: 't2',
                  leaves: [
                    { object: 'leaf', text: 'full', marks: [bold] },
                    { object: 'leaf', text: ' guide', marks: [] },
                  ],
                },
              ],
            },
            { object: 'text', key: 't3', leaves: [{ object: 'leaf', text: ' first.', marks: [] }] },
          ],
        },
      ],
    };
    const [segment] = segmentsOf(source);
    expect(segment!.text).toBe('<x id="1">Read the </x><x id="2"><x id="3">full</x> guide</x> first.');
    const wrapped = translateAll(source, (s) => mapText(s, (text) => `⟦${text}⟧`));
    expect(translateAll(wrapped, (s) => s.replace(/[⟦⟧]/g, ''))).toEqual(source);
  });

  it('keeps links whose text is their address as they are', () => {
    const [segment] = segmentsOf(
      toDocument('Go to <https://lumen.dev/start> or [lumen.dev](https://lumen.dev) now.\n'),
    );
    expect(segment!.text).toBe('Go to <x id="1"/> or <x id="2"/> now.');
  });

  it('turns line breaks into tags, which services keep where they fold whitespace', () => {
    const [segment] = segmentsOf(toDocument('First line\\\nsecond line\n'));
    expect(segment!.text).toBe('First line<x id="1"/>second line');
  });
});

describe('applyTranslations', () => {
  const document = toDocument(PAGE);

  it('gives back the same document when each segment is its own translation', () => {
    expect(
      applyTranslations(
        document,
        segmentsOf(document).map((s) => s.text),
      ),
    ).toEqual(document);
    const keyed = withKeys(document);
    expect(
      applyTranslations(
        keyed,
        segmentsOf(keyed).map((s) => s.text),
      ),
    ).toEqual(keyed);
  });

  it('rebuilds the same nodes from a string that reads the same', () => {
    const wrapped = translateAll(document, (s) => mapText(s, (text) => `⟦${text}⟧`));
    expect(wrapped).not.toEqual(document);
    const unwrapped = translateAll(wrapped, (s) => s.replace(/[⟦⟧]/g, ''));
    expect(unwrapped).toEqual(document);
  });

  it('changes words only: keys, types, data, code, tags and links stay', () => {
    const keyed = withKeys(document);
    const translated = translateAll(keyed, pseudo);
    expectIntact(keyed, translated);
    const markdown = documentToMarkdown(translated);
    expect(markdown).toContain('{% hint style="warning" %}\n**⟦NEVER⟧**⟦ SHARE YOUR SECRET KEY.');
    expect(markdown).toContain('{% tab title="⟦NODE.JS⟧" %}');
    expect(markdown).toContain('[⟦THE API REFERENCE⟧](https://docs.lumen.dev/api)');
    expect(markdown).toContain('<code class="expression">space.vars.apiKey</code>');
    expect(markdown).toContain('<kbd>Ctrl</kbd>');
    expect(markdown).toContain('alt="⟦HOW A CHARGE FLOWS⟧"');
    expect(markdown).toContain('| ⟦FIELD⟧');
    expect(markdown).toContain('[^1]: ⟦FEES APPLY TO ⟧**⟦INTERNATIONAL⟧**⟦ CARDS.⟧');
  });

  it('follows tags the translation moved, each inline node keeping its key and data', () => {
    const source = withKeys(
      toDocument('Read **the guide** about [webhooks](https://lumen.dev/hooks) today.\n'),
    );
    const [segment] = segmentsOf(source);
    expect(segment!.text).toBe('Read <x id="1">the guide</x> about <x id="2">webhooks</x> today.');
    const [paragraph] = applyTranslations(source, [
      'Lisez aujourd’hui <x id="1">le guide</x> sur les <x id="2">webhooks</x> &amp; les crochets.',
    ]).nodes as Array<{ nodes: Array<Record<string, unknown>> }>;
    const link = paragraph!.nodes.find((n) => n.type === 'link')!;
    const original = (source.nodes[0] as { nodes: Array<Record<string, unknown>> }).nodes.find(
      (n) => n.type === 'link',
    )!;
    expect(link.key).toBe(original.key);
    expect(link.data).toEqual(original.data);
    expect(documentToMarkdown({ ...source, nodes: [paragraph as never] })).toBe(
      'Lisez aujourd’hui **le guide** sur les [webhooks](https://lumen.dev/hooks) & les crochets.\n',
    );
  });

  it('restores void tags byte for byte, wherever the translation put them', () => {
    const source = toDocument(
      'Press <kbd>Ctrl</kbd> then run `make  all` with <code class="expression">page.title</code>.\n',
    );
    const translated = applyTranslations(source, [
      'Exécutez <x id="2"/> avec <x id="3"/> après <x id="1"/>.',
    ]);
    expect(documentToMarkdown(translated)).toBe(
      'Exécutez `make  all` avec <code class="expression">page.title</code> après <kbd>Ctrl</kbd>.\n',
    );
  });

  it('keeps injected markup as text', () => {
    const source = toDocument('Say **hello** to everyone.\n');
    for (const attack of [
      'Dites <x id="1">bonjour</x> <script>alert(1)</script> à tous.',
      'Dites <x id="1">bonjour</x> &lt;script&gt;alert(1)&lt;/script&gt; à tous.',
    ]) {
      const translated = applyTranslations(source, [attack]);
      expectIntact(source, translated);
      const markdown = documentToMarkdown(translated);
      // Escaped as markdown writes text: a reader sees the characters, no browser runs them.
      expect(markdown).toContain('\\<script>alert(1)\\</script>');
      expect(markdownToDocument(markdown, { profile: 'v0202' })).toEqual(translated);
    }
  });

  it('throws naming the segment when a translation breaks its placeholders', () => {
    const source = toDocument('## Title\n\nSay **hello** to [everyone](https://a.b/c).\n');
    const attempt = () => applyTranslations(source, ['Titre', 'Dites <x id="1">bonjour</x> à tous.']);
    expect(attempt).toThrow(SegmentMismatch);
    expect(attempt).toThrow(/segment nodes\.1: placeholder missing: <x id="2">/);
    try {
      attempt();
    } catch (error) {
      expect(error).toMatchObject({ path: 'nodes.1', problem: 'placeholder missing: <x id="2">' });
    }
  });

  it('throws when the number of translations is not the number of segments', () => {
    const source = toDocument('## Title\n\nBody text.\n');
    expect(() => applyTranslations(source, ['Titre'])).toThrow(/1 translations for 2 segments/);
  });

  it('keeps button labels within what the schema allows', () => {
    const source: JsonDocument = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            { object: 'text', leaves: [{ object: 'leaf', text: 'Ready? ', marks: [] }] },
            {
              object: 'inline',
              type: 'button',
              isVoid: true,
              data: { label: 'Start now', kind: 'primary', ref: { kind: 'url', url: 'https://a.b' } },
            },
          ],
        },
      ],
    };
    expect(segmentsOf(source)).toEqual([
      { path: 'nodes.0', text: 'Ready? <x id="1"/>' },
      { path: 'nodes.0.nodes.1.data.label', text: 'Start now' },
    ]);
    const translated = applyTranslations(source, ['Prêt ? <x id="1"/>', 'Commencer']);
    expect(translated.nodes[0]).toMatchObject({
      nodes: [{}, { data: { label: 'Commencer', kind: 'primary' } }],
    });
    expect(() => applyTranslations(source, ['Prêt ? <x id="1"/>', 'x'.repeat(257)])).toThrow(
      /nodes\.0\.nodes\.1\.data\.label: longer than 256 characters/,
    );
  });
});

describe('placeholderProblem', () => {
  const source =
    'Read <x id="1">the <x id="2">whole</x> guide</x> in <x id="3">the docs</x> with <x id="4"/>.';

  it('accepts a translation that keeps every tag, in any order', () => {
    expect(placeholderProblem(source, source)).toBeUndefined();
    expect(
      placeholderProblem(
        source,
        'Avec <x id="4"/>, lisez <x id="3">la doc</x> : <x id="1">le guide <x id="2">entier</x></x>.',
      ),
    ).toBeUndefined();
    expect(
      placeholderProblem(source, source.replace('<x id="2">whole</x> guide', '<x id="2">whole guide</x>')),
    ).toBeUndefined();
    expect(
      placeholderProblem(source, source.replaceAll('"', "'").replace("<x id='4'/>", '<x id="4" />')),
    ).toBeUndefined();
  });

  it('reports what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      [source.replace('<x id="3">the docs</x>', 'the docs'), /placeholder missing: <x id="3">/],
      [`${source} <x id="9"/>`, /not in the source: <x id="9"\/>/],
      [
        source.replace('<x id="3">', '<x id="5">'),
        /renumbered: <x id="3"> missing, <x id="5"> not in the source/,
      ],
      [
        source.replace(
          '<x id="1">the <x id="2">whole</x> guide</x>',
          '<x id="2">the <x id="1">whole</x> guide</x>',
        ),
        /badly nested/,
      ],
      [source.replace('<x id="4"/>', '<x id="4">code</x>'), /<x id="4"\/> must stay self-closing/],
      [source.replace('<x id="3">the docs</x>', '<x id="3"/>'), /<x id="3"> must stay a pair/],
      [source.replace('</x> with', ' with'), /badly nested: <x id="3"> is not closed/],
      [`${source}</x>`, /badly nested: a closing <\/x> has no opening tag/],
      [source.replace('<x id="4"/>', '<x id=4 class="c"/>'), /malformed placeholder <x id=4 class="c"\/>/],
      [`${source} <x id="4"/>`, /<x id="4"\/> appears more than once/],
    ];
    for (const [translated, problem] of cases) {
      expect(placeholderProblem(source, translated), translated).toMatch(problem);
    }
  });

  it('takes markup that is not a placeholder as text', () => {
    expect(placeholderProblem('Say hello.', 'Dites <b>bonjour</b> <script>x</script>.')).toBeUndefined();
    expect(placeholderProblem('Say hello.', 'Dites <x id="1">bonjour</x>.')).toMatch(/not in the source/);
  });
});

describe('countWords', () => {
  it('counts words in English and French, placeholders and references set aside', () => {
    expect(countWords('The quick brown fox jumps over the lazy dog.', 'en')).toBe(9);
    expect(countWords('Read <x id="1">the <x id="2">whole</x> guide</x> with <x id="3"/>.', 'en')).toBe(5);
    expect(countWords('<x id="1">un</x>done &amp; dusted', 'en')).toBe(2);
    expect(countWords('Nous sommes allés à la plage l’été dernier.', 'fr')).toBe(8);
  });

  it('counts Japanese and Chinese words though no spaces separate them', () => {
    expect(countWords('東京は日本の首都です。', 'ja')).toBeGreaterThanOrEqual(4);
    expect(countWords('東京は日本の首都です。', 'ja')).toBeLessThanOrEqual(7);
    expect(countWords('我喜欢学习中文', 'zh')).toBeGreaterThanOrEqual(3);
    expect(countWords('我喜欢学习中文', 'zh')).toBeLessThanOrEqual(5);
  });

  it('takes any language tag and no text', () => {
    expect(countWords('two words', 'not a tag!')).toBe(2);
    expect(countWords('')).toBe(0);
    expect(countWords('12 — 34 !', 'en')).toBe(2);
  });
});

describe('the GitBook corpus', () => {
  const pages = corpusPages();

  it('holds pages to translate', () => {
    expect(pages.length).toBeGreaterThan(50);
  });

  it.each(pages)('%s: translates words only, and back', (_, markdown) => {
    const document = toDocument(markdown);
    const segments = segmentsOf(document);
    expect(
      applyTranslations(
        document,
        segments.map((s) => s.text),
      ),
    ).toEqual(document);
    const translated = translateAll(document, pseudo);
    expectIntact(document, translated);
    // Every segment went through the translation, and nothing else became one.
    expect(segmentsOf(translated).map((s) => s.text)).toEqual(segments.map((s) => pseudo(s.text)));
    for (const segment of segments) {
      expect(placeholderProblem(segment.text, pseudo(segment.text))).toBeUndefined();
      expect(segment.text).not.toMatch(/https?:\/\/|\{%|space\.vars|```/);
    }
    const wrapped = translateAll(document, (s) => mapText(s, (text) => `⟦${text}⟧`));
    expect(translateAll(wrapped, (s) => s.replace(/[⟦⟧]/g, ''))).toEqual(document);
  });
});

describe('raw markdown (what the schema cannot nest where it stands)', () => {
  const HINT_WITH_TABS = [
    '{% hint style="info" %}',
    'Pick your platform:',
    '',
    '{% tabs %}',
    '{% tab title="macOS" %}',
    'Run the **installer** from `Downloads`.',
    '{% endtab %}',
    '',
    '{% tab title="Linux" %}',
    '```bash',
    'sudo apt install acme',
    '```',
    '{% endtab %}',
    '{% endtabs %}',
    '{% endhint %}',
  ].join('\n');
  const upper = (segment: string) =>
    segment.replace(/(^|>)([^<]*)/g, (_, a: string, b: string) => a + b.toUpperCase());

  it('is read where it can stand, translated, and written back with its tags and code as they were', () => {
    const doc = markdownToDocument(HINT_WITH_TABS, { profile: 'v0202' });
    expect(JSON.stringify(doc)).toContain('markdown-raw');
    const segments = segmentsOf(doc).map((s) => s.text);
    expect(segments).toEqual([
      'Pick your platform:',
      'macOS',
      'Run the <x id="1">installer</x> from <x id="2"/>.',
      'Linux',
    ]);
    const markdown = documentToMarkdown(applyTranslations(doc, segments.map(upper)));
    expect(markdown).toContain('PICK YOUR PLATFORM:');
    expect(markdown).toContain('{% tab title="MACOS" %}\nRUN THE **INSTALLER** FROM `Downloads`.');
    expect(markdown).toContain('```bash\nsudo apt install acme\n```');
    expect(markdown.match(/\{% (end)?(hint|tabs|tab)\b/g)).toEqual(
      HINT_WITH_TABS.match(/\{% (end)?(hint|tabs|tab)\b/g),
    );
  });

  it('stays as written when reading it would change it (a legacy API block)', () => {
    const legacy = [
      '- Before',
      '',
      '  {% api-method method="post" host="https://api.example.com" path="/v1/charges" %}',
      '  {% api-method-summary %}',
      '  Create a charge',
      '  {% endapi-method-summary %}',
      '  {% endapi-method %}',
    ].join('\n');
    const doc = markdownToDocument(legacy, { profile: 'v0202' });
    const texts = segmentsOf(doc).map((s) => s.text);
    expect(texts.join('\n')).not.toContain('Create a charge');
  });
});
