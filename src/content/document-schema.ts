import { type Static, type TProperties, type TSchema, Type } from 'typebox';

/**
 * The rich-text document tree of the GitBook API (`JSONDocument`) as Quire reads and writes it:
 * the nodes of the 0.202.0 schema that GitBook's markdown has a form for. What containers may
 * hold is kept loose here (any block in any container, markdown can write all of them); which
 * nesting a response may show is decided per schema version by the converter's profiles
 * (`markdown/containers.ts`), so what we return validates against the version the client reads.
 */

const Key = Type.Optional(Type.String({ maxLength: 100 }));
const NotVoid = Type.Optional(Type.Literal(false));
const Icon = Type.String({ maxLength: 50 });

const Url = Type.Object(
  { kind: Type.Literal('url'), url: Type.String({ maxLength: 2048 }) },
  { additionalProperties: false },
);
const FileRef = Type.Object(
  { kind: Type.Literal('file'), file: Type.String(), space: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const OpenApiRef = Type.Object(
  { kind: Type.Literal('openapi'), spec: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);
const ReusableRef = Type.Object(
  {
    kind: Type.Literal('reusable-content'),
    reusableContent: Type.String(),
    space: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const TagRef = Type.Object(
  { kind: Type.Literal('tag'), tag: Type.String({ maxLength: 100 }), space: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const ContentRef = Type.Union([
  Url,
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
  FileRef,
  Type.Object({ kind: Type.Literal('space'), space: Type.String() }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('user'), user: Type.String() }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('collection'), collection: Type.String() },
    { additionalProperties: false },
  ),
  ReusableRef,
  TagRef,
  OpenApiRef,
]);
export type ContentRef = Static<typeof ContentRef>;

/** Text colours of 0.202.0; 0.146.0 knows the first twelve (`COLORS_0146`). */
export const TEXT_COLORS = [
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
  'pink',
  'violet',
  'cyan',
  '$tint',
] as const;
const TextColor = Type.Enum([...TEXT_COLORS]);
export type TextColor = (typeof TEXT_COLORS)[number];
export const COLORS_0146: ReadonlySet<string> = new Set(TEXT_COLORS.slice(0, 12));
const TEXT_COLOR_SET: ReadonlySet<string> = new Set(TEXT_COLORS);

export function isTextColor(value: string): value is TextColor {
  return TEXT_COLOR_SET.has(value);
}

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
export const ImageRef = Type.Union([Url, FileRef]);

/** A size: pixels as a number, or a value with its unit (`{unit: '%', value: 50}`). */
const Length = Type.Union([
  Type.Number({ minimum: 0 }),
  Type.Object(
    { unit: Type.String({ maxLength: 10 }), value: Type.Number() },
    { additionalProperties: false },
  ),
]);

const InlineImage = Type.Object(
  {
    object: Type.Literal('inline'),
    type: Type.Literal('inline-image'),
    key: Key,
    isVoid: Type.Literal(true),
    data: Type.Object(
      {
        ref: ImageRef,
        refDark: Type.Optional(ImageRef),
        alt: Type.Optional(Type.String()),
        caption: Type.Optional(Type.String()),
        size: Type.Optional(Type.Enum(['original', 'line'])),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const voidInline = <T extends string, D extends TSchema>(type: T, data: D) =>
  Type.Object(
    { object: Type.Literal('inline'), type: Type.Literal(type), key: Key, isVoid: Type.Literal(true), data },
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

const InlineEmoji = voidInline(
  'emoji',
  Type.Object({ code: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
);
const InlineMath = voidInline(
  'inline-math',
  Type.Object({ formula: Type.String() }, { additionalProperties: false }),
);
const InlineIcon = voidInline(
  'icon',
  Type.Object({ icon: Icon, color: Type.Optional(TextColor) }, { additionalProperties: false }),
);
const InlineExpression = voidInline(
  'expression',
  Type.Object({ expression: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }),
);
const InlineMention = voidInline(
  'mention',
  Type.Object({ ref: ContentRef }, { additionalProperties: false }),
);

const DocumentAction = Type.Union([
  Type.Object(
    { action: Type.Enum(['search', 'ask']), query: Type.Optional(Type.String({ maxLength: 1024 })) },
    { additionalProperties: false },
  ),
  Type.Object({ action: Type.Literal('select'), slug: Type.String() }, { additionalProperties: false }),
]);
const ButtonBase = {
  label: Type.String({ maxLength: 256 }),
  kind: Type.Enum(['primary', 'secondary']),
  size: Type.Optional(Type.Enum(['small', 'medium', 'large'])),
  icon: Type.Optional(Icon),
};
const InlineButton = voidInline(
  'button',
  Type.Union([
    Type.Object({ ...ButtonBase, ref: ContentRef }, { additionalProperties: false }),
    Type.Object({ ...ButtonBase, action: DocumentAction }, { additionalProperties: false }),
  ]),
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

const block = <T extends string, D extends TSchema, N extends TSchema>(type: T, data: D, nodes: N) =>
  Type.Object(
    { object: Type.Literal('block'), type: Type.Literal(type), key: Key, isVoid: NotVoid, data, nodes },
    { additionalProperties: false },
  );
const voidBlock = <T extends string, D extends TSchema, E extends TProperties = Record<never, never>>(
  type: T,
  data: D,
  extra: E = {} as E,
) =>
  Type.Object(
    {
      object: Type.Literal('block'),
      type: Type.Literal(type),
      key: Key,
      isVoid: Type.Literal(true),
      data,
      ...extra,
    },
    { additionalProperties: false },
  );

const Divider = voidBlock('divider', Type.Object({}, { additionalProperties: false }));
const MathBlock = voidBlock('math', Type.Object({ formula: Type.String() }, { additionalProperties: false }));

/** A caption under an embed or a file (GitBook writes it between the opening and closing tag). */
const Caption = Type.Optional(
  Type.Array(fragment(Type.Literal('caption'), Type.Ref('Paragraph')), { maxItems: 1 }),
);

const Embed = voidBlock(
  'embed',
  Type.Object(
    { url: Type.String({ maxLength: 2048 }), fullWidth: Type.Optional(Type.Boolean()) },
    { additionalProperties: false },
  ),
  { fragments: Caption },
);

const FileBlock = voidBlock(
  'file',
  Type.Object(
    {
      ref: Type.Object({ kind: Type.Literal('file'), file: Type.String() }, { additionalProperties: false }),
    },
    { additionalProperties: false },
  ),
  { fragments: Caption },
);

const ContentRefBlock = voidBlock(
  'content-ref',
  Type.Object({ ref: ContentRef }, { additionalProperties: false }),
);

const ReusableContent = voidBlock(
  'reusable-content',
  Type.Object({ ref: ReusableRef }, { additionalProperties: false }),
);

const OpenApiOperation = voidBlock(
  'openapi-operation',
  Type.Object(
    { ref: OpenApiRef, path: Type.String({ maxLength: 2048 }), method: Type.String({ maxLength: 16 }) },
    { additionalProperties: false },
  ),
);
const OpenApiSchemas = voidBlock(
  'openapi-schemas',
  Type.Object(
    {
      ref: OpenApiRef,
      schemas: Type.Array(Type.String({ maxLength: 256 }), { maxItems: 100 }),
      grouped: Type.Optional(Type.Boolean()),
      title: Type.Optional(Type.String({ maxLength: 256 })),
    },
    { additionalProperties: false },
  ),
);
const OpenApiWebhook = voidBlock(
  'openapi-webhook',
  Type.Object(
    { ref: OpenApiRef, name: Type.String({ maxLength: 256 }), method: Type.String({ maxLength: 16 }) },
    { additionalProperties: false },
  ),
);
/** The legacy `{% swagger %}` / `{% openapi src=… %}` block: the spec is a file or a URL. */
const Swagger = voidBlock(
  'swagger',
  Type.Object(
    {
      ref: Type.Union([FileRef, Url]),
      path: Type.String({ maxLength: 2048 }),
      method: Type.String({ maxLength: 16 }),
      expanded: Type.Optional(Type.Boolean()),
      fullWidth: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

const Integration = voidBlock(
  'integration',
  Type.Object(
    {
      integration: Type.String({ maxLength: 100 }),
      block: Type.String({ maxLength: 100 }),
      props: Type.Record(Type.String(), Type.Unknown()),
      url: Type.Optional(Type.String({ maxLength: 2048 })),
      fullWidth: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

const Image = voidBlock(
  'image',
  Type.Object(
    {
      ref: ImageRef,
      refDark: Type.Optional(ImageRef),
      alt: Type.Optional(Type.String()),
      width: Type.Optional(Length),
      height: Type.Optional(Length),
    },
    { additionalProperties: false },
  ),
  { fragments: Type.Array(fragment(Type.Literal('caption'), Type.Ref('Paragraph')), { maxItems: 1 }) },
);

const Images = Type.Object(
  {
    object: Type.Literal('block'),
    type: Type.Literal('images'),
    key: Key,
    isVoid: Type.Literal(false),
    data: Type.Object(
      {
        align: Type.Optional(Type.Enum(['center', 'left', 'right'])),
        fullWidth: Type.Optional(Type.Boolean()),
        withFrame: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    nodes: Type.Array(Image, { minItems: 1 }),
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
    nodes: Type.Array(Type.Union([Text, InlineExpression])),
  },
  { additionalProperties: false },
);

const Code = block(
  'code',
  Type.Object(
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
  Type.Array(CodeLine),
);

const TableRef = Type.Union([Url, FileRef]);
const CellValue = Type.Union([
  Type.Number(),
  Type.String(),
  Type.Null(),
  Type.Boolean(),
  Type.Array(Type.String()),
  ContentRef,
  Type.Object(
    {
      ref: TableRef,
      objectFit: Type.Optional(Type.Enum(['contain', 'fill', 'cover'])),
      alt: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
]);
const ColumnBase = { id: Type.String({ maxLength: 100 }), title: Type.String() };
const ColumnDefinition = Type.Union([
  Type.Object(
    {
      ...ColumnBase,
      type: Type.Literal('text'),
      textAlignment: Type.Enum(['left', 'center', 'right']),
      verticalAlignment: Type.Optional(Type.Enum(['top', 'middle', 'bottom'])),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { ...ColumnBase, type: Type.Enum(['number', 'checkbox', 'files', 'content-ref', 'image']) },
    { additionalProperties: false },
  ),
  Type.Object(
    { ...ColumnBase, type: Type.Literal('rating'), max: Type.Number({ minimum: 1, maximum: 100 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { ...ColumnBase, type: Type.Literal('users'), multiple: Type.Boolean() },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ...ColumnBase,
      type: Type.Literal('select'),
      multiple: Type.Boolean(),
      options: Type.Array(
        Type.Object(
          { value: Type.String(), label: Type.String(), color: Type.String({ maxLength: 32 }) },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    },
    { additionalProperties: false },
  ),
]);
export type ColumnDefinition = Static<typeof ColumnDefinition>;

/**
 * A table: columns defined by id, one record per row (`values` maps a column id to a fragment id
 * for text, or holds the value of other column types), a grid or a cards view.
 */
const Table = voidBlock(
  'table',
  Type.Object(
    {
      view: Type.Union([
        Type.Object(
          {
            type: Type.Literal('grid'),
            columns: Type.Array(Type.String()),
            columnWidths: Type.Optional(Type.Record(Type.String(), Type.Number({ minimum: 0 }))),
            hideHeader: Type.Boolean(),
          },
          { additionalProperties: false },
        ),
        Type.Object(
          {
            type: Type.Literal('cards'),
            columns: Type.Array(Type.String()),
            cardSize: Type.Enum(['medium', 'large']),
            targetDefinition: Type.Optional(Type.String()),
            coverDefinition: Type.Optional(Type.String()),
            coverDefinitionDark: Type.Optional(Type.String()),
            hideColumnTitle: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      ]),
      records: Type.Record(
        Type.String(),
        Type.Object(
          { orderIndex: Type.String(), values: Type.Record(Type.String(), CellValue) },
          { additionalProperties: false },
        ),
      ),
      definition: Type.Record(Type.String(), ColumnDefinition),
      fullWidth: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  {
    fragments: Type.Array(fragment(Type.String(), Type.Ref('Block'), { type: Type.Optional(Type.String()) })),
  },
);

const Blocks = Type.Array(Type.Ref('Block'));

/**
 * Everything that holds blocks (and inlines, which hold annotations, which hold blocks) is
 * built over named placeholders and closed with `Type.Cyclic`.
 */
export const Block = Type.Cyclic(
  {
    Inline: Type.Union([
      InlineLink,
      InlineImage,
      InlineEmoji,
      InlineMath,
      InlineIcon,
      InlineExpression,
      InlineMention,
      InlineButton,
      Type.Object(
        {
          object: Type.Literal('inline'),
          type: Type.Literal('annotation'),
          key: Key,
          isVoid: Type.Literal(false),
          data: Type.Object({}, { additionalProperties: false }),
          nodes: Type.Array(Text),
          fragments: Type.Array(
            fragment(
              Type.String(),
              Type.Ref('Block'),
              { type: Type.Literal('annotation-body') },
              { minItems: 1 },
            ),
            { minItems: 1, maxItems: 1 },
          ),
        },
        { additionalProperties: false },
      ),
    ]),
    Paragraph: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('paragraph'),
        key: Key,
        isVoid: NotVoid,
        data: Type.Optional(
          Type.Object(
            { align: Type.Optional(Type.Enum(['start', 'center', 'end'])) },
            { additionalProperties: false },
          ),
        ),
        nodes: Type.Array(Type.Union([Text, Type.Ref('Inline')])),
      },
      { additionalProperties: false },
    ),
    Heading: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Enum(['heading-1', 'heading-2', 'heading-3']),
        key: Key,
        isVoid: NotVoid,
        data: Type.Object(
          {
            id: Type.Optional(Type.String({ pattern: '^[-a-z0-9.+_]+$' })),
            align: Type.Optional(Type.Enum(['start', 'center', 'end'])),
          },
          { additionalProperties: false },
        ),
        meta: Type.Optional(Type.Object({ id: Type.String() }, { additionalProperties: false })),
        nodes: Type.Array(Type.Union([Text, Type.Ref('Inline')])),
      },
      { additionalProperties: false },
    ),
    ListItem: block(
      'list-item',
      Type.Optional(Type.Object({ checked: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
      Blocks,
    ),
    List: Type.Union([
      block(
        'list-ordered',
        Type.Object({ start: Type.Optional(Type.Number()) }, { additionalProperties: false }),
        Type.Array(Type.Ref('ListItem')),
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
    Hint: block(
      'hint',
      Type.Object(
        { style: Type.Enum(['info', 'warning', 'danger', 'success']), icon: Type.Optional(Icon) },
        { additionalProperties: false },
      ),
      Blocks,
    ),
    Quote: block('blockquote', Type.Optional(Type.Object({}, { additionalProperties: false })), Blocks),
    TabsItem: block(
      'tabs-item',
      Type.Object(
        { title: Type.Optional(Type.String()), icon: Type.Optional(Icon) },
        { additionalProperties: false },
      ),
      Blocks,
    ),
    Tabs: block(
      'tabs',
      Type.Optional(Type.Object({}, { additionalProperties: false })),
      Type.Array(Type.Ref('TabsItem')),
    ),
    StepperStep: block(
      'stepper-step',
      Type.Object({ icon: Type.Optional(Icon) }, { additionalProperties: false }),
      Blocks,
    ),
    Stepper: block(
      'stepper',
      Type.Object({}, { additionalProperties: false }),
      Type.Array(Type.Ref('StepperStep')),
    ),
    Update: block(
      'update',
      Type.Object(
        { date: Type.String({ maxLength: 64 }), tags: Type.Optional(Type.Array(TagRef, { maxItems: 50 })) },
        { additionalProperties: false },
      ),
      Blocks,
    ),
    Updates: block(
      'updates',
      Type.Object({ format: Type.Enum(['numeric', 'full', 'short']) }, { additionalProperties: false }),
      Type.Array(Type.Ref('Update')),
    ),
    Column: block(
      'column',
      Type.Object(
        {
          width: Type.Optional(Length),
          verticalAlignment: Type.Optional(Type.Enum(['top', 'middle', 'bottom'])),
        },
        { additionalProperties: false },
      ),
      Blocks,
    ),
    Columns: Type.Object(
      {
        object: Type.Literal('block'),
        type: Type.Literal('columns'),
        key: Key,
        isVoid: Type.Literal(false),
        data: Type.Object({ fullWidth: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        nodes: Type.Array(Type.Ref('Column')),
      },
      { additionalProperties: false },
    ),
    If: block(
      'if',
      Type.Object({ expression: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }),
      Blocks,
    ),
    Prompt: block(
      'prompt',
      Type.Object(
        {
          description: Type.Optional(Type.String({ maxLength: 1024 })),
          icon: Type.Optional(Icon),
          openInAIProviders: Type.Optional(Type.Boolean()),
          defaultExpanded: Type.Optional(Type.Enum(['hidden', 'partial', 'full'])),
        },
        { additionalProperties: false },
      ),
      Type.Array(Code, { minItems: 1, maxItems: 1 }),
    ),
    Expandable: voidBlock(
      'expandable',
      Type.Object({ defaultExpanded: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      {
        fragments: Type.Tuple([
          fragment(
            Type.Literal('expandable-title'),
            Type.Ref('Paragraph'),
            { type: Type.Literal('expandable-title') },
            { minItems: 1, maxItems: 1 },
          ),
          fragment(
            Type.Literal('expandable-body'),
            Type.Ref('Block'),
            { type: Type.Literal('expandable-body') },
            { minItems: 1 },
          ),
        ]),
      },
    ),
    Block: Type.Union([
      Type.Ref('Paragraph'),
      Type.Ref('Heading'),
      Type.Ref('List'),
      Divider,
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
      Type.Ref('Stepper'),
      Type.Ref('Updates'),
      Type.Ref('Columns'),
      Type.Ref('If'),
      Type.Ref('Prompt'),
      ReusableContent,
      OpenApiOperation,
      OpenApiSchemas,
      OpenApiWebhook,
      Swagger,
      Integration,
    ]),
  },
  'Block',
);
export type Block = Static<typeof Block>;

/** The same definitions, entered at the inline union. */
export const Inline = Type.Cyclic(Block.$defs, 'Inline');
export type Inline = Static<typeof Inline>;

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
