import type { Block, JsonDocument } from '../../../src/content/document-schema.js';
import type { DocumentLinks } from '../../../src/publish/render/model.js';
import { links } from './sample-site.js';

/**
 * Hand-built nodes of the official 0.202 shapes, one or more of every block and inline the
 * renderer draws beyond plain markdown, for the block tests (and to look at in a browser).
 */

export const t = (text: string, marks: unknown[] = []) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks }],
});
export const p = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', data: {}, nodes });
export const h = (level: 1 | 2 | 3, text: string, id?: string) => ({
  object: 'block',
  type: `heading-${level}`,
  data: id === undefined ? {} : { id },
  nodes: [t(text)],
});
export const inline = (type: string, data: unknown, extra: Record<string, unknown> = {}) => ({
  object: 'inline',
  type,
  isVoid: true,
  data,
  ...extra,
});
export const codeBlock = (
  lines: string[],
  data: Record<string, unknown> = {},
  highlighted: number[] = [],
) => ({
  object: 'block',
  type: 'code',
  data,
  nodes: lines.map((line, i) => ({
    object: 'block',
    type: 'code-line',
    data: highlighted.includes(i) ? { highlighted: true } : {},
    nodes: [t(line)],
  })),
});
export const caption = (...nodes: unknown[]) => [
  { object: 'fragment', fragment: 'caption', nodes: [p(...nodes)] },
];

export function doc(...nodes: unknown[]): JsonDocument {
  return { object: 'document', data: {}, nodes: nodes as Block[] };
}

export const stepper = {
  object: 'block',
  type: 'stepper',
  data: {},
  nodes: [
    { object: 'block', type: 'stepper-step', data: {}, nodes: [h(2, 'Install'), p(t('Run the installer.'))] },
    {
      object: 'block',
      type: 'stepper-step',
      data: { icon: 'rocket' },
      nodes: [h(2, 'Launch'), codeBlock(['quire serve'], { syntax: 'sh' })],
    },
  ],
};

export const updates = {
  object: 'block',
  type: 'updates',
  data: { format: 'full' },
  nodes: [
    {
      object: 'block',
      type: 'update',
      data: {
        date: '2026-04-29T00:00:00.000Z',
        tags: [
          { kind: 'tag', tag: 'payments' },
          { kind: 'tag', tag: 'beta' },
        ],
      },
      nodes: [h(1, 'Smart routing v2'), p(t('Payments now route by cost.'))],
    },
    {
      object: 'block',
      type: 'update',
      data: { date: '2026-03-02T10:00:00.000Z' },
      nodes: [h(1, 'Selfie liveness'), p(t('Faster checks.'))],
    },
  ],
};

export const columns = {
  object: 'block',
  type: 'columns',
  isVoid: false,
  data: {},
  nodes: [
    {
      object: 'block',
      type: 'column',
      data: { width: 66.66666666666666, verticalAlignment: 'middle' },
      nodes: [h(2, 'Left'), p(t('Two thirds of the row.'))],
    },
    {
      object: 'block',
      type: 'column',
      data: { width: { unit: '%', value: 33.33 } },
      nodes: [
        p(
          inline('button', {
            label: 'Try it',
            kind: 'primary',
            ref: { kind: 'url', url: 'https://example.com/try' },
          }),
        ),
      ],
    },
  ],
};

export const prompt = (defaultExpanded: 'hidden' | 'partial' | 'full', lineCount = 3) => ({
  object: 'block',
  type: 'prompt',
  data: { description: 'Integrate the API into this project', icon: 'terminal', defaultExpanded },
  nodes: [
    codeBlock(
      Array.from({ length: lineCount }, (_, i) => `Step ${i + 1}: do the <thing> & check it.`),
      { syntax: 'markdown' },
    ),
  ],
});

export const openapiOperation = {
  object: 'block',
  type: 'openapi-operation',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets/{id}', method: 'get' },
};

export const cardsTable = {
  object: 'block',
  type: 'table',
  isVoid: true,
  data: {
    view: {
      type: 'cards',
      columns: ['title', 'text', 'target', 'cover', 'coverDark'],
      cardSize: 'medium',
      targetDefinition: 'target',
      coverDefinition: 'cover',
      coverDefinitionDark: 'coverDark',
    },
    records: {
      r1: {
        orderIndex: 'a0',
        values: {
          title: 'f-title-1',
          text: 'f-text-1',
          target: { kind: 'page', page: 'page-setup' },
          // A bare reference would match two branches of the official `oneOf` (ContentRef and
          // DocumentTableImageRecord): the record form is the one that validates.
          cover: { ref: { kind: 'url', url: 'https://x.test/cover-light.png' } },
          coverDark: { ref: { kind: 'url', url: 'https://x.test/cover-dark.png' }, objectFit: 'contain' },
        },
      },
      r2: {
        orderIndex: 'a1',
        values: { title: 'f-title-2', text: 'f-text-2', cover: ['file-shot'] },
      },
    },
    definition: {
      title: { id: 'title', title: 'Title', type: 'text', textAlignment: 'left' },
      text: { id: 'text', title: 'Text', type: 'text', textAlignment: 'left' },
      target: { id: 'target', title: 'Target', type: 'content-ref' },
      cover: { id: 'cover', title: 'Cover', type: 'image' },
      coverDark: { id: 'coverDark', title: 'Cover (dark)', type: 'image' },
    },
  },
  fragments: [
    {
      object: 'fragment',
      fragment: 'f-title-1',
      nodes: [p(t('Setup guide', [{ object: 'mark', type: 'bold' }]))],
    },
    { object: 'fragment', fragment: 'f-text-1', nodes: [p(t('Configure Quire.'))] },
    { object: 'fragment', fragment: 'f-title-2', nodes: [p(t('Screenshots'))] },
    {
      object: 'fragment',
      fragment: 'f-text-2',
      nodes: [
        p(t('See '), {
          object: 'inline',
          type: 'link',
          data: { ref: { kind: 'url', url: 'https://example.com/more' } },
          nodes: [t('more')],
        }),
      ],
    },
  ],
};

export const typedTable = {
  object: 'block',
  type: 'table',
  isVoid: true,
  data: {
    view: {
      type: 'grid',
      columns: ['name', 'done', 'count', 'link', 'files', 'state', 'stars', 'shot'],
      columnWidths: { name: 220, count: 80 },
      hideHeader: false,
    },
    records: {
      r1: {
        orderIndex: 'a0',
        values: {
          name: 'f-name',
          done: true,
          count: 42,
          link: { kind: 'page', page: 'page-setup' },
          files: ['file-cheatsheet'],
          state: ['s1', 's2'],
          stars: 3,
          shot: { ref: { kind: 'file', file: 'file-shot' }, alt: 'Shot' },
        },
      },
      r2: { orderIndex: 'a1', values: { done: false, stars: 9 } },
    },
    definition: {
      name: { id: 'name', title: 'Name', type: 'text', textAlignment: 'left' },
      done: { id: 'done', title: 'Done', type: 'checkbox' },
      count: { id: 'count', title: 'Count', type: 'number' },
      link: { id: 'link', title: 'Page', type: 'content-ref' },
      files: { id: 'files', title: 'Files', type: 'files' },
      state: {
        id: 'state',
        title: 'State',
        type: 'select',
        multiple: true,
        options: [
          { value: 's1', label: 'In progress', color: 'blue' },
          { value: 's2', label: 'Blocked', color: 'red' },
        ],
      },
      stars: { id: 'stars', title: 'Rating', type: 'rating', max: 5 },
      shot: { id: 'shot', title: 'Shot', type: 'image' },
    },
  },
  fragments: [{ object: 'fragment', fragment: 'f-name', nodes: [p(t('Alpha'))] }],
};

export const images = {
  object: 'block',
  type: 'images',
  isVoid: false,
  data: { align: 'left', withFrame: true },
  nodes: [
    {
      object: 'block',
      type: 'image',
      isVoid: true,
      data: {
        ref: { kind: 'url', url: 'https://x.test/light.png' },
        refDark: { kind: 'url', url: 'https://x.test/dark.png' },
        alt: 'Diagram',
        width: { unit: '%', value: 50 },
      },
      fragments: caption(t('The diagram')),
    },
  ],
};

export const annotation = {
  object: 'inline',
  type: 'annotation',
  isVoid: false,
  data: {},
  nodes: [t('annotated words')],
  fragments: [
    {
      object: 'fragment',
      fragment: 'note-1',
      type: 'annotation-body',
      nodes: [
        p(t('The note, with '), t('code', [{ object: 'mark', type: 'code' }])),
        p(t('Second paragraph.')),
      ],
    },
  ],
};

/** The site's hooks as a site server would give them: variables, conditions, reusable content. */
export const showcaseLinks: DocumentLinks = {
  ...links,
  visible: (expression) => expression === 'visitor.claims.unsigned.persona === "partner"',
  expression: (expression) => (expression === 'space.vars.PRODUCT' ? 'Quire' : undefined),
  reusable: (id) =>
    id === 'rc-note'
      ? doc({
          object: 'block',
          type: 'hint',
          data: { style: 'success', icon: 'sparkles' },
          nodes: [p(t('Reused hint'))],
        })
      : undefined,
  user: (id) => (id === 'u1' ? 'Jane Doe' : undefined),
  tag: (slug) => (slug === 'payments' ? { label: 'Payments' } : undefined),
};

/** Every block above on one page. */
export function showcase(): JsonDocument {
  return doc(
    p(
      t('Product: '),
      inline('expression', { expression: 'space.vars.PRODUCT' }),
      t(' '),
      inline('icon', { icon: 'github', color: '$primary' }),
      t(' Read '),
      annotation,
      t(', ask '),
      inline('mention', { ref: { kind: 'user', user: 'u1' } }),
      t(', see '),
      inline('mention', { ref: { kind: 'page', page: 'page-setup' } }),
      t(' or press '),
      t('Ctrl', [{ object: 'mark', type: 'keyboard' }]),
      t('. '),
      t('pink on cyan', [{ object: 'mark', type: 'color', data: { text: 'pink', background: 'cyan' } }]),
    ),
    p(
      inline('button', {
        label: 'Search the docs',
        kind: 'primary',
        icon: 'magnifying-glass',
        action: { action: 'search', query: 'install' },
      }),
      t(' '),
      inline('button', {
        label: 'Setup',
        kind: 'secondary',
        size: 'small',
        ref: { kind: 'page', page: 'page-setup' },
      }),
    ),
    {
      object: 'block',
      type: 'hint',
      data: { style: 'info', icon: 'hand-wave' },
      nodes: [p(t('Hello with a custom icon.'))],
    },
    stepper,
    updates,
    columns,
    {
      object: 'block',
      type: 'if',
      data: { expression: 'visitor.claims.unsigned.persona === "partner"' },
      nodes: [p(t('Partners only.'))],
    },
    { object: 'block', type: 'if', data: { expression: 'false' }, nodes: [h(2, 'Secret heading')] },
    prompt('full'),
    prompt('partial', 14),
    prompt('hidden'),
    {
      object: 'block',
      type: 'reusable-content',
      isVoid: true,
      data: { ref: { kind: 'reusable-content', reusableContent: 'rc-note' } },
    },
    openapiOperation,
    {
      object: 'block',
      type: 'openapi-schemas',
      isVoid: true,
      data: { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Pet', 'Error'], grouped: true },
    },
    images,
    cardsTable,
    typedTable,
    codeBlock(
      [
        'const message = "a long line that goes on and on so that it has to wrap inside the code block when wrapping is on";',
        '',
        'console.log(message);',
      ],
      { syntax: 'js', title: 'wrap.js', overflow: 'wrap', lineNumbers: true },
      [2],
    ),
    codeBlock(
      Array.from({ length: 16 }, (_, i) => `line ${i + 1}`),
      { syntax: 'text', expandable: true, lineNumbers: true },
    ),
    {
      object: 'block',
      type: 'embed',
      isVoid: true,
      data: { url: 'https://www.youtube.com/watch?v=quire' },
      fragments: caption(t('A video caption')),
    },
    { object: 'block', type: 'math', isVoid: true, data: { formula: 'E = mc^2' } },
    {
      object: 'block',
      type: 'raw',
      isVoid: true,
      data: { text: 'Unreadable <b>markup</b>\nsecond line\n\nNext part' },
    },
  );
}
