import { type Static, type TProperties, type TSchema, Type } from 'typebox';

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

/** The colours both official versions accept (0.146.0 knows fewer than 0.202.0). */
const TextColor = Type.Enum([
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
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

/** Images point at an uploaded file or at a URL, nothing else. */
export const ImageRef = Type.Union([
  Type.Object(
    { kind: Type.Literal('url'), url: Type.String({ maxLength: 2048 }) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('file'), file: Type.String() }, { additionalProperties: false }),
]);

const InlineImage = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('inline-image'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ ref: ImageRef, alt: Type.Optional(Type.String()) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const InlineLink = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('link'),
    key: Key,
    isVoid: NotVoid,
    data: Type.Object({ ref: ContentRef }, { additionalProperties: false }),
    nodes: Type.Array(Type.Union([Text, InlineImage])),
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

export const Inline = Type.Union([InlineLink, InlineImage, InlineEmoji, InlineMath]);
export type Inline = Static<typeof Inline>;
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

const MathBlock = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('math'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ formula: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const Embed = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('embed'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ url: Type.String({ maxLength: 2048 }) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

const FileBlock = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('file'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object(
      {
        ref: Type.Object(
          { kind: Type.Literal('file'), file: Type.String() },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const ContentRefBlock = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('content-ref'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object({ ref: ContentRef }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

/** Named parts of a void block (captions, titles, table cells) are fragments of blocks. */
function fragment<N extends TSchema, T extends TSchema, E extends TProperties = Record<never, never>>(
  name: N,
  nodes: T,
  extra: E = {} as E,
  size: { minItems?: number; maxItems?: number } = {},
) {
  return Type.Object(
    { object: Type.Literal('fragment'), key: Key, fragment: name, ...extra, nodes: Type.Array(nodes, size) },
    { additionalProperties: false },
  );
}

const Image = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('image'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object(
      {
        ref: ImageRef,
        alt: Type.Optional(Type.String()),
        width: Type.Optional(Type.Number({ minimum: 0 })),
        height: Type.Optional(Type.Number({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    fragments: Type.Array(fragment(Type.Literal('caption'), Paragraph), { maxItems: 1 }),
  },
  { additionalProperties: false },
);

const Images = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('images'),
    key: Key,
    isVoid: Type.Literal(false),
    data: Type.Object({}, { additionalProperties: false }),
    nodes: Type.Array(Image, { minItems: 1 }),
  },
  { additionalProperties: false },
);

/**
 * A markdown (GFM) table: a grid view of text columns, one record per row, each cell a
 * fragment holding one paragraph; `values` maps column id to fragment id.
 */
const Table = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('table'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object(
      {
        view: Type.Object(
          {
            type: Type.Literal('grid'),
            columns: Type.Array(Type.String()),
            hideHeader: Type.Literal(false),
          },
          { additionalProperties: false },
        ),
        records: Type.Record(
          Type.String(),
          Type.Object(
            { orderIndex: Type.String(), values: Type.Record(Type.String(), Type.String()) },
            { additionalProperties: false },
          ),
        ),
        definition: Type.Record(
          Type.String(),
          Type.Object(
            {
              id: Type.String(),
              title: Type.String(),
              type: Type.Literal('text'),
              textAlignment: Type.Enum(['left', 'center', 'right']),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    fragments: Type.Array(fragment(Type.String(), Paragraph, { type: Type.Optional(Type.String()) })),
  },
  { additionalProperties: false },
);

/**
 * Containers nest, so their schemas are built over named placeholders and closed with
 * `Type.Cyclic`. What each container may hold is what both official versions allow (0.146.0 is
 * the narrower one: hints hold only the essential blocks, tabs no tables).
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
        nodes: Type.Array(
          Type.Union([Type.Ref('Essential'), Code, Type.Ref('Hint'), Type.Ref('Quote'), MathBlock, Table]),
        ),
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
    TabsItem: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('tabs-item'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Object({ title: Type.Optional(Type.String()) }, { additionalProperties: false }),
        nodes: Type.Array(
          Type.Union([
            Type.Ref('Essential'),
            ContentRefBlock,
            Code,
            Embed,
            FileBlock,
            Images,
            Type.Ref('Hint'),
            Type.Ref('Quote'),
            MathBlock,
          ]),
        ),
      },
      { additionalProperties: false },
    ),
    Tabs: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('tabs'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Optional(Type.Object({}, { additionalProperties: false })),
        nodes: Type.Array(Type.Ref('TabsItem')),
      },
      { additionalProperties: false },
    ),
    Expandable: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('expandable'),
        key: Key,
        isVoid: Type.Literal(true),
        data: Type.Object({}, { additionalProperties: false }),
        fragments: Type.Tuple([
          fragment(
            Type.Literal('expandable-title'),
            Paragraph,
            { type: Type.Literal('expandable-title') },
            { minItems: 1, maxItems: 1 },
          ),
          Type.Object(
            {
              object: Type.Literal('fragment'),
              key: Key,
              fragment: Type.Literal('expandable-body'),
              type: Type.Literal('expandable-body'),
              nodes: Type.Array(
                Type.Union([Type.Ref('Essential'), Images, Code, Table, Type.Ref('Hint'), Type.Ref('Quote')]),
                { minItems: 1 },
              ),
            },
            { additionalProperties: false },
          ),
        ]),
      },
      { additionalProperties: false },
    ),
    Block: Type.Union([
      Type.Ref('Essential'),
      Type.Ref('Quote'),
      Type.Ref('Hint'),
      Images,
      FileBlock,
      Embed,
      Code,
      MathBlock,
      Type.Ref('Expandable'),
      Type.Ref('Tabs'),
      Table,
      ContentRefBlock,
    ]),
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
