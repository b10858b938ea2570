import { type Static, Type } from 'typebox';

/**
 * The rich-text document tree of the GitBook API (`JSONDocument`), the subset Quire reads and
 * writes. Every shape here is also valid under the official schema, so what we accept we can
 * return unchanged.
 */

const Key = Type.Optional(Type.String({ maxLength: 100 }));
const NotVoid = Type.Optional(Type.Literal(false));

export const ContentRef = Type.Union([
  Type.Object(
    { kind: Type.Literal('url'), url: Type.String({ maxLength: 2048 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('page'), page: Type.String(), space: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('anchor'),
      anchor: Type.String(),
      page: Type.Optional(Type.String()),
      space: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { kind: Type.Literal('file'), file: Type.String(), space: Type.Optional(Type.String()) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('space'), space: Type.String() }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('user'), user: Type.String() }, { additionalProperties: false }),
]);
export type ContentRef = Static<typeof ContentRef>;

const TextColor = Type.Enum([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
]);

export const Mark = Type.Union([
  Type.Object(
    {
      object: Type.Literal('mark'),
      type: Type.Enum(['bold', 'italic', 'code', 'keyboard', 'strikethrough', 'superscript', 'subscript']),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      object: Type.Literal('mark'),
      type: Type.Literal('color'),
      data: Type.Object({ text: TextColor, background: TextColor }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
]);

export const Leaf = Type.Object(
  { object: Type.Literal('leaf'), text: Type.String(), marks: Type.Array(Mark) },
  { additionalProperties: false },
);

export const Text = Type.Object(
  { object: Type.Literal('text'), key: Key, leaves: Type.Array(Leaf) },
  { additionalProperties: false },
);
export type Text = Static<typeof Text>;

const InlineLink = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('link'),
    key: Key,
    isVoid: NotVoid,
    data: Type.Object({ ref: ContentRef }, { additionalProperties: false }),
    nodes: Type.Array(Text),
  },
  { additionalProperties: false },
);

const InlineEmoji = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('emoji'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ code: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const InlineMath = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('inline-math'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ formula: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const Inline = Type.Union([InlineLink, InlineEmoji, InlineMath]);
const InlineContent = Type.Array(Type.Union([Text, Inline]));
const Align = Type.Optional(Type.Enum(['start', 'center', 'end']));

const Paragraph = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('paragraph'),
    key: Key,
    isVoid: NotVoid,
    data: Type.Optional(Type.Object({ align: Align }, { additionalProperties: false })),
    nodes: InlineContent,
  },
  { additionalProperties: false },
);

const Heading = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Enum(['heading-1', 'heading-2', 'heading-3']),
    key: Key,
    isVoid: NotVoid,
    data: Type.Object(
      { id: Type.Optional(Type.String({ pattern: '^[-a-z0-9.+_]+$' })), align: Align },
      { additionalProperties: false },
    ),
    meta: Type.Optional(Type.Object({ id: Type.String() }, { additionalProperties: false })),
    nodes: InlineContent,
  },
  { additionalProperties: false },
);

const Divider = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('divider'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({}, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const CodeLine = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('code-line'),
    key: Key,
    isVoid: NotVoid,
    data: Type.Object({ highlighted: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    nodes: Type.Array(Text),
  },
  { additionalProperties: false },
);

const Code = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('code'),
    key: Key,
    isVoid: NotVoid,
    data: Type.Object(
      {
        syntax: Type.Optional(Type.String({ maxLength: 64 })),
        title: Type.Optional(Type.String({ maxLength: 256 })),
        overflow: Type.Optional(Type.Enum(['scroll', 'wrap'])),
        lineNumbers: Type.Optional(Type.Boolean()),
        fullWidth: Type.Optional(Type.Boolean()),
        expandable: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    nodes: Type.Array(CodeLine),
  },
  { additionalProperties: false },
);

/**
 * Lists, quotes and hints nest, so their schemas are built over a placeholder and closed with
 * `Type.Cyclic`.
 */
export const Block = Type.Cyclic(
  {
    ListItem: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('list-item'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Optional(
          Type.Object({ checked: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        ),
        nodes: Type.Array(Type.Union([Type.Ref('Essential'), Code, Type.Ref('Hint'), Type.Ref('Quote')])),
      },
      { additionalProperties: false },
    ),
    List: Type.Union([
      Type.Object(
        {
          object: Type.Literal('block'),
          type: Type.Literal('list-ordered'),
          key: Key,
          isVoid: NotVoid,
          data: Type.Object({ start: Type.Optional(Type.Number()) }, { additionalProperties: false }),
          nodes: Type.Array(Type.Ref('ListItem')),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          object: Type.Literal('block'),
          type: Type.Enum(['list-unordered', 'list-tasks']),
          key: Key,
          isVoid: NotVoid,
          data: Type.Optional(Type.Object({}, { additionalProperties: false })),
          nodes: Type.Array(Type.Ref('ListItem')),
        },
        { additionalProperties: false },
      ),
    ]),
    Essential: Type.Union([Paragraph, Heading, Type.Ref('List'), Divider]),
    Hint: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('hint'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Object(
          {
            style: Type.Enum(['info', 'warning', 'danger', 'success']),
            icon: Type.Optional(Type.String({ maxLength: 50 })),
          },
          { additionalProperties: false },
        ),
        nodes: Type.Array(Type.Ref('Essential')),
      },
      { additionalProperties: false },
    ),
    Quote: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('blockquote'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Optional(Type.Object({}, { additionalProperties: false })),
        nodes: Type.Array(Type.Union([Type.Ref('Essential'), Type.Ref('Quote')])),
      },
      { additionalProperties: false },
    ),
    Block: Type.Union([Type.Ref('Essential'), Code, Type.Ref('Hint'), Type.Ref('Quote')]),
  },
  'Block',
);
export type Block = Static<typeof Block>;

export const JsonDocument = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Object({ schemaVersion: Type.Optional(Type.Integer()) }),
    nodes: Type.Array(Block),
  },
  { additionalProperties: false },
);
export type JsonDocument = Static<typeof JsonDocument>;

export function emptyDocument(): JsonDocument {
  return { object: 'document', data: {}, nodes: [] };
}
