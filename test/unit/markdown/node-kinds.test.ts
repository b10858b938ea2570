import { describe, expect, it } from 'vitest';
import { type Block, JsonDocument } from '../../../src/content/document-schema.js';
import {
  documentToMarkdown,
  type LinkResolver,
  markdownToDocument,
  RAW_SYNTAX,
} from '../../../src/content/markdown/index.js';
import { compileValidator } from '../../../src/validation.js';
import { checkSchema } from '../../helpers/official-spec.js';

/**
 * One fixture per node kind, written in the canonical form documentToMarkdown produces: each
 * must give a document valid under both official schemas and our own, convert back to the same
 * markdown byte for byte, and read back as the same document.
 */

const validateOwn: (value: unknown, field: string) => asserts value is JsonDocument =
  compileValidator<JsonDocument>(JsonDocument);

function expectValid(document: JsonDocument): void {
  expect(checkSchema('JSONDocument', document)).toEqual([]);
  validateOwn(document, 'document');
}

function withoutKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'key')
      .map(([key, v]) => [key, withoutKeys(v)]),
  );
}

/** Both round trips; returns the document. */
function roundTrip(markdown: string, links?: LinkResolver): JsonDocument {
  const document = markdownToDocument(markdown, links);
  expectValid(document);
  const back = documentToMarkdown(document, links);
  expect(back).toBe(markdown);
  expect(markdownToDocument(back, links)).toEqual(document);
  return document;
}

/** Non-canonical markdown: one conversion normalises it, the result is then stable. */
function normalises(markdown: string, canonical: string): JsonDocument {
  const document = markdownToDocument(markdown);
  expectValid(document);
  expect(documentToMarkdown(document)).toBe(canonical);
  expect(markdownToDocument(canonical)).toEqual(document);
  return document;
}

/** A document written by hand (keys included) survives document -> markdown -> document. */
function documentRoundTrip(nodes: Block[], links?: LinkResolver): string {
  const document: JsonDocument = { object: 'document', data: {}, nodes };
  expectValid(document);
  const markdown = documentToMarkdown(document, links);
  expect(withoutKeys(markdownToDocument(markdown, links))).toEqual(withoutKeys(document));
  return markdown;
}

const t = (text: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const para = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });

describe('official schema checker', () => {
  it('rejects what a version rejects: a code block inside a hint (0.146 allows only essentials)', () => {
    const document = markdownToDocument('x\n');
    const hint = {
      object: 'block',
      type: 'hint',
      data: { style: 'info' },
      nodes: [{ object: 'block', type: 'code', data: {}, nodes: [] }],
    };
    const problems = checkSchema('JSONDocument', { ...document, nodes: [hint] });
    expect(problems.map((p) => p.version)).toContain('0.146');
    // Our schema takes it (markdown can write it); the converter never returns it (below).
    validateOwn({ ...document, nodes: [hint] }, 'document');
  });
});

describe('paragraphs and marks', () => {
  it('keeps text and the four markdown marks', () => {
    const doc = roundTrip('Plain **bold** *italic* `code` ~~gone~~ and **`both`**.\n');
    expect(doc.nodes[0]).toEqual(
      para({
        object: 'text',
        leaves: [
          { object: 'leaf', text: 'Plain ', marks: [] },
          { object: 'leaf', text: 'bold', marks: [{ object: 'mark', type: 'bold' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'italic', marks: [{ object: 'mark', type: 'italic' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'code', marks: [{ object: 'mark', type: 'code' }] },
          { object: 'leaf', text: ' ', marks: [] },
          { object: 'leaf', text: 'gone', marks: [{ object: 'mark', type: 'strikethrough' }] },
          { object: 'leaf', text: ' and ', marks: [] },
          {
            object: 'leaf',
            text: 'both',
            marks: [
              { object: 'mark', type: 'bold' },
              { object: 'mark', type: 'code' },
            ],
          },
          { object: 'leaf', text: '.', marks: [] },
        ],
      }),
    );
  });

  it('keeps nested marks open across leaves', () => {
    roundTrip('*some **very** important* text\n');
    normalises('***both***\n', '**_both_**\n');
  });

  it('keeps hard breaks as line breaks in the text, soft breaks as spaces', () => {
    const doc = roundTrip('line one\\\nline two\n');
    expect(doc.nodes[0]).toEqual(para(t('line one\nline two')));
    normalises('soft\nbreak\n', 'soft break\n');
    roundTrip('ends with a break<br>\n');
  });

  it('reads keyboard, superscript and subscript HTML as marks', () => {
    const doc = roundTrip('Press <kbd>Ctrl</kbd>, x<sup>2</sup>, H<sub>2</sub>O\n');
    const leaves = (doc.nodes[0] as { nodes: Array<{ leaves: Array<{ marks: Array<{ type: string }> }> }> })
      .nodes[0]!.leaves;
    expect(leaves.flatMap((l) => l.marks.map((m) => m.type))).toEqual([
      'keyboard',
      'superscript',
      'subscript',
    ]);
  });

  it('escapes text that would read back as syntax', () => {
    const doc = roundTrip('\\# not a heading, \\*not emphasis\\*, \\$$5 and \\$$6\n\n\\{% hint %}\n');
    expect(doc.nodes).toEqual([
      para(t('# not a heading, *not emphasis*, $$5 and $$6')),
      para(t('{% hint %}')),
    ]);
  });
});

describe('headings', () => {
  it('maps levels and sets ids from the text', () => {
    // GitBook's files: `#` is the page title, the editor's three levels are `##` to `####`.
    const doc = roundTrip('## Getting started\n\n### Install *the* CLI\n\n#### Step 1.2: Configure\n');
    expect(doc.nodes.map((n) => [n.type, (n as { data: { id?: string } }).data.id])).toEqual([
      ['heading-1', 'getting-started'],
      ['heading-2', 'install-the-cli'],
      ['heading-3', 'step-1.2-configure'],
    ]);
  });

  it('numbers repeated headings and keeps custom ids as GitBook anchors', () => {
    const doc = roundTrip('## Setup\n\n## Setup\n\n## Setup <a href="#install" id="install"></a>\n');
    expect(doc.nodes.map((n) => (n as { data: { id?: string } }).data.id)).toEqual([
      'setup',
      'setup-1',
      'install',
    ]);
  });

  it('maps # to heading-1, levels 5 and 6 to heading-3, and setext headings to ATX', () => {
    normalises('# Top\n', '## Top\n');
    normalises('###### Deep\n', '#### Deep\n');
    normalises('Title\n=====\n', '## Title\n');
  });
});

describe('links and inline images', () => {
  it('links carry a content reference; anchors are anchors', () => {
    const doc = roundTrip('[site](https://example.com) and [below](#install) and <https://example.com>\n');
    const inlines = (doc.nodes[0] as { nodes: Array<{ type?: string; data?: unknown }> }).nodes.filter(
      (n) => n.type === 'link',
    );
    expect(inlines.map((n) => n.data)).toEqual([
      { ref: { kind: 'url', url: 'https://example.com' } },
      { ref: { kind: 'anchor', anchor: 'install' } },
      { ref: { kind: 'url', url: 'https://example.com' } },
    ]);
  });

  it('keeps inline images, also inside links', () => {
    const doc = roundTrip('An ![icon](icon.png) inline and [![badge](badge.svg)](https://ci.example.com)\n');
    expect((doc.nodes[0] as { nodes: unknown[] }).nodes[1]).toEqual({
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: 'icon.png' }, alt: 'icon' },
    });
  });

  it('turns reference links into inline links', () => {
    normalises(
      'See [the docs][docs].\n\n[docs]: https://docs.example.com\n',
      'See [the docs](https://docs.example.com).\n',
    );
  });

  it('writes emoji of documents as the character', () => {
    const markdown = documentToMarkdown({
      object: 'document',
      data: {},
      nodes: [
        para(t('Nice '), { object: 'inline', type: 'emoji', isVoid: true, data: { code: '1f44d' } }) as Block,
      ],
    });
    expect(markdown).toBe('Nice 👍\n');
  });
});

describe('lists', () => {
  it('unordered and nested', () => {
    const doc = roundTrip('* one\n* two\n  * nested\n');
    expect(doc.nodes[0]).toMatchObject({
      type: 'list-unordered',
      nodes: [{ type: 'list-item' }, { type: 'list-item' }],
    });
  });

  it('ordered with a start', () => {
    const doc = roundTrip('3. three\n4. four\n');
    expect(doc.nodes[0]).toMatchObject({ type: 'list-ordered', data: { start: 3 } });
    expect(roundTrip('1. first\n2. second\n').nodes[0]).toMatchObject({ type: 'list-ordered', data: {} });
  });

  it('task lists', () => {
    const doc = roundTrip('* [ ] todo\n* [x] done\n');
    expect(doc.nodes[0]).toMatchObject({
      type: 'list-tasks',
      nodes: [{ data: { checked: false } }, { data: { checked: true } }],
    });
  });

  it('items holding several blocks', () => {
    const doc = roundTrip('* intro\n\n  ```sh\n  npm i\n  ```\n\n  > note\n* next\n  1. sub\n');
    expect(
      (doc.nodes[0] as { nodes: Array<{ nodes: Array<{ type: string }> }> }).nodes[0]!.nodes.map(
        (n) => n.type,
      ),
    ).toEqual(['paragraph', 'code', 'blockquote']);
  });
});

describe('code', () => {
  it('fenced code with syntax, one code-line per line', () => {
    const doc = roundTrip('```js\nconst a = 1;\n\nconsole.log(a);\n```\n');
    expect(doc.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'js' } });
    expect((doc.nodes[0] as { nodes: unknown[] }).nodes).toHaveLength(3);
    roundTrip('```\nno syntax\n```\n');
  });

  it('the GitBook code wrapper', () => {
    const doc = roundTrip(
      '{% code title="app.js" overflow="wrap" lineNumbers="true" %}\n```js\nrun();\n```\n{% endcode %}\n',
    );
    expect(doc.nodes[0]).toMatchObject({
      type: 'code',
      data: { syntax: 'js', title: 'app.js', overflow: 'wrap', lineNumbers: true },
    });
  });

  it('indented code becomes fenced', () => {
    normalises('    indented\n', '```\nindented\n```\n');
  });
});

describe('quotes and dividers', () => {
  it('blockquotes nest', () => {
    const doc = roundTrip('> quoted **text**\n>\n> > nested\n');
    expect(doc.nodes[0]).toMatchObject({
      type: 'blockquote',
      nodes: [{ type: 'paragraph' }, { type: 'blockquote' }],
    });
  });

  it('dividers', () => {
    const doc = roundTrip('above\n\n---\n\nbelow\n');
    expect(doc.nodes[1]).toEqual({ object: 'block', type: 'divider', isVoid: true, data: {} });
    normalises('above\n\n***\n', 'above\n\n---\n');
  });
});

describe('tables', () => {
  it('become grid tables of text columns with cell fragments', () => {
    const doc = roundTrip(
      '| Name |  Value | Note |\n| ---- | -----: | :--: |\n| a    |  **1** |   x  |\n| b    | [2](u) |      |\n',
    );
    const table = doc.nodes[0] as Extract<Block, { type: 'table' }>;
    expect(table.data.view).toEqual({ type: 'grid', columns: ['c0', 'c1', 'c2'], hideHeader: false });
    expect(
      Object.values(table.data.definition).map((d) => [d.title, d.type === 'text' && d.textAlignment]),
    ).toEqual([
      ['Name', 'left'],
      ['Value', 'right'],
      ['Note', 'center'],
    ]);
    expect(Object.values(table.data.records).map((r) => r.orderIndex)).toEqual(['a0', 'a1']);
    expect(table.fragments.find((f) => f.fragment === table.data.records.r0!.values.c1)!.nodes).toEqual([
      para(t('1', 'bold')),
    ]);
    expect(checkSchema('DocumentBlockTable', table)).toEqual([]);
  });

  it('pads short rows and keeps line breaks in cells as <br>', () => {
    normalises('| A | B |\n| - | - |\n| 1 |\n', '| A | B |\n| - | - |\n| 1 |   |\n');
    roundTrip('| A      |\n| ------ |\n| x<br>y |\n');
  });

  it('keeps the row order of documents by order index', () => {
    const doc = markdownToDocument('| A |\n| - |\n| 1 |\n| 2 |\n') as JsonDocument;
    const table = doc.nodes[0] as Extract<Block, { type: 'table' }>;
    table.data.records.r0!.orderIndex = 'a5';
    expect(documentToMarkdown(doc)).toBe('| A |\n| - |\n| 2 |\n| 1 |\n');
  });
});

describe('images', () => {
  it('an image alone in a paragraph is an images block without caption', () => {
    const doc = roundTrip('![A diagram](diagram.png)\n');
    expect(doc.nodes[0]).toEqual({
      object: 'block',
      type: 'images',
      isVoid: false,
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'diagram.png' }, alt: 'A diagram' },
          fragments: [],
        },
      ],
    });
    roundTrip('![one](1.png) ![two](2.png)\n');
  });

  it("GitBook's figures keep captions as fragments", () => {
    const doc = roundTrip(
      '<figure><img src="shot.png" alt="Screen" width="375"><figcaption><p>The <code> &amp; more</p></figcaption></figure>\n'.replace(
        '<code>',
        '&lt;code&gt;',
      ),
    );
    expect(doc.nodes[0]).toMatchObject({
      type: 'images',
      nodes: [
        {
          data: { ref: { kind: 'url', url: 'shot.png' }, alt: 'Screen', width: 375 },
          fragments: [{ object: 'fragment', fragment: 'caption', nodes: [para(t('The <code> & more'))] }],
        },
      ],
    });
    roundTrip('<figure><img src=".gitbook/assets/a.png" alt=""><figcaption></figcaption></figure>\n');
  });
});

describe('GitBook blocks', () => {
  it.each(['info', 'warning', 'danger', 'success'])('hint %s', (style) => {
    const doc = roundTrip(`{% hint style="${style}" %}\nCareful **now**.\n\n* a list\n{% endhint %}\n`);
    expect(doc.nodes[0]).toMatchObject({
      type: 'hint',
      data: { style },
      nodes: [{ type: 'paragraph' }, { type: 'list-unordered' }],
    });
  });

  it('tabs', () => {
    const doc = roundTrip(
      '{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm i quire\n```\n{% endtab %}\n\n{% tab title="Notes" %}\nPlain text.\n{% endtab %}\n{% endtabs %}\n',
    );
    expect(doc.nodes[0]).toMatchObject({
      type: 'tabs',
      nodes: [
        { type: 'tabs-item', data: { title: 'npm' }, nodes: [{ type: 'code' }] },
        { type: 'tabs-item', data: { title: 'Notes' }, nodes: [{ type: 'paragraph' }] },
      ],
    });
  });

  it('expandable', () => {
    const doc = roundTrip(
      '<details>\n\n<summary>Q &amp; A</summary>\n\nThe answer.\n\n```\ncode\n```\n\n</details>\n',
    );
    expect(doc.nodes[0]).toMatchObject({
      type: 'expandable',
      isVoid: true,
      fragments: [
        { fragment: 'expandable-title', type: 'expandable-title', nodes: [para(t('Q & A'))] },
        {
          fragment: 'expandable-body',
          type: 'expandable-body',
          nodes: [{ type: 'paragraph' }, { type: 'code' }],
        },
      ],
    });
    normalises(
      '<details>\n<summary>Short</summary>\n\nBody\n</details>\n',
      '<details>\n\n<summary>Short</summary>\n\nBody\n\n</details>\n',
    );
  });

  it('embed, file and content-ref', () => {
    const doc = roundTrip(
      '{% embed url="https://www.youtube.com/watch?v=x" %}\n\n{% file src=".gitbook/assets/guide.pdf" %}\n\n{% content-ref url="guides/setup.md" %}\n[guides/setup.md](guides/setup.md)\n{% endcontent-ref %}\n',
    );
    expect(doc.nodes).toEqual([
      { object: 'block', type: 'embed', isVoid: true, data: { url: 'https://www.youtube.com/watch?v=x' } },
      {
        object: 'block',
        type: 'file',
        isVoid: true,
        data: { ref: { kind: 'file', file: '.gitbook/assets/guide.pdf' } },
      },
      {
        object: 'block',
        type: 'content-ref',
        isVoid: true,
        data: { ref: { kind: 'url', url: 'guides/setup.md' } },
      },
    ]);
  });

  it('math blocks and inline math keep their backslashes', () => {
    const doc = roundTrip('$$\nf(x) = \\{ x \\\\ y \\}\n$$\n\nInline $$a_1^2 \\cdot b_1$$ math.\n');
    expect(doc.nodes[0]).toEqual({
      object: 'block',
      type: 'math',
      isVoid: true,
      data: { formula: 'f(x) = \\{ x \\\\ y \\}' },
    });
    expect((doc.nodes[1] as { nodes: unknown[] }).nodes[1]).toEqual({
      object: 'inline',
      type: 'inline-math',
      isVoid: true,
      data: { formula: 'a_1^2 \\cdot b_1' },
    });
  });

  it('leaves tag syntax inside code alone', () => {
    const doc = roundTrip('```liquid\n{% hint style="info" %}\n$$\n{% endhint %}\n```\n');
    expect(doc.nodes[0]).toMatchObject({ type: 'code', data: { syntax: 'liquid' } });
  });
});

describe('markdown without a document form stays raw', () => {
  const raw = (markdown: string) => ({
    object: 'block',
    type: 'code',
    data: { syntax: RAW_SYNTAX },
    nodes: markdown
      .split('\n')
      .map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [t(line)] })),
  });

  it.each([
    ['HTML we do not understand', '<video src="clip.mp4" controls></video>'],
    ['inline HTML we do not understand', 'Some <video src="a.mp4">clip</video> text.'],
    ['an unknown tag', '{% swagger method="get" path="/users" %}'],
    ['a link title', '[docs](https://example.com "The docs")'],
    ['a hint with an unknown style', '{% hint style="note" %}\nText\n{% endhint %}'],
    ['an unused definition', '[unused]: https://example.com'],
    [
      'a code block in a hint (0.146 hints hold only text blocks)',
      '{% hint style="info" %}\n```js\nx\n```\n{% endhint %}',
    ],
    ['frontmatter', '---\ndescription: A page\n---'],
  ])('%s', (_, markdown) => {
    const doc = roundTrip(`${markdown}\n`);
    expect(doc.nodes).toEqual([raw(markdown)]);
  });

  it('an unknown block is raw whole, its content and closing tag included', () => {
    const doc = roundTrip('{% unknown %}\n{% nested %}\nFirst\n{% endnested %}\n{% endunknown %}\n');
    expect(doc.nodes).toEqual([raw('{% unknown %}\n{% nested %}\nFirst\n{% endnested %}\n{% endunknown %}')]);
  });

  it('a block a container may not hold is raw inside it', () => {
    const doc = roundTrip(
      '{% tabs %}\n{% tab title="Data" %}\n| A |\n| - |\n| 1 |\n{% endtab %}\n{% endtabs %}\n',
    );
    expect(doc.nodes[0]).toMatchObject({ type: 'tabs', nodes: [{ nodes: [raw('| A |\n| - |\n| 1 |')] }] });
  });
});

describe('documents written by hand', () => {
  it('survive document -> markdown -> document, keys aside', () => {
    const markdown = documentRoundTrip([
      {
        object: 'block',
        type: 'heading-1',
        key: 'k1',
        data: { id: 'welcome' },
        nodes: [t('Welcome') as never],
      },
      {
        object: 'block',
        type: 'paragraph',
        key: 'k2',
        data: {},
        nodes: [
          t('Read ') as never,
          {
            object: 'inline',
            type: 'link',
            key: 'k3',
            data: { ref: { kind: 'url', url: 'https://x.dev' } },
            nodes: [t('this', 'bold') as never],
          },
          t(' now.', 'bold') as never,
        ],
      },
      {
        object: 'block',
        type: 'hint',
        key: 'k4',
        data: { style: 'success' },
        nodes: [para(t('Done.')) as never],
      },
      {
        object: 'block',
        type: 'list-tasks',
        key: 'k5',
        data: {},
        nodes: [
          {
            object: 'block',
            type: 'list-item',
            key: 'k6',
            data: { checked: true },
            nodes: [para(t('Ship')) as never],
          },
        ],
      },
    ]);
    expect(markdown).toBe(
      '## Welcome\n\nRead **[this](https://x.dev) now.**\n\n{% hint style="success" %}\nDone.\n{% endhint %}\n\n* [x] Ship\n',
    );
  });
});
