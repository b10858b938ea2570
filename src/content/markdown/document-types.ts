import type { Block, ContentRef, Inline, Text } from '../document-schema.js';

/** Names for the document nodes the converters build, taken from the schema's static types. */

type Of<T extends string> = Extract<Block, { type: T }>;

export type Paragraph = Of<'paragraph'>;
export type Heading = Of<'heading-1' | 'heading-2' | 'heading-3'>;
export type List = Of<'list-ordered' | 'list-unordered' | 'list-tasks'>;
export type ListItem = List['nodes'][number];
export type Code = Of<'code'>;
export type CodeLine = Code['nodes'][number];
export type Hint = Of<'hint'>;
export type Quote = Of<'blockquote'>;
export type Tabs = Of<'tabs'>;
export type TabsItem = Tabs['nodes'][number];
export type Expandable = Of<'expandable'>;
export type Images = Of<'images'>;
export type Image = Images['nodes'][number];
export type ImageRef = Image['data']['ref'];
export type Table = Of<'table'>;
export type TableFragment = Table['fragments'][number];
export type FileBlock = Of<'file'>;
export type Embed = Of<'embed'>;
export type Stepper = Of<'stepper'>;
export type StepperStep = Stepper['nodes'][number];
export type Updates = Of<'updates'>;
export type Update = Updates['nodes'][number];
export type Columns = Of<'columns'>;
export type Column = Columns['nodes'][number];
export type If = Of<'if'>;
export type Prompt = Of<'prompt'>;
export type ColumnsData = Columns['data'];

/** Every block kind, wherever it may appear. */
export type AnyBlock = Block | ListItem | TabsItem | Image | CodeLine | StepperStep | Update | Column;
export type BlockType = AnyBlock['type'];

/**
 * What the `render` profile draws for markdown it cannot read as a block: its text, never its
 * markup. Not a node of the API (the API profiles keep such markdown as a raw code block).
 */
export interface RawBlock {
  object: 'block';
  type: 'raw';
  isVoid: true;
  data: { text: string };
}

export type Leaf = Text['leaves'][number];
export type Mark = Leaf['marks'][number];
export type MarkType = Mark['type'];
export type InlineNode = Text | Inline;
export type InlineImage = Extract<Inline, { type: 'inline-image' }>;
export type Link = Extract<Inline, { type: 'link' }>;
export type Button = Extract<Inline, { type: 'button' }>;
export type Annotation = Extract<Inline, { type: 'annotation' }>;

export type { ContentRef, Inline, Text };

export function text(value: string, marks: Mark[] = []): Text {
  return { object: 'text', leaves: [{ object: 'leaf', text: value, marks }] };
}

export function paragraph(nodes: InlineNode[]): Paragraph {
  return { object: 'block', type: 'paragraph', data: {}, nodes };
}

/** The text of inline nodes, marks ignored: link text included, images and math left out. */
export function plainText(nodes: ReadonlyArray<InlineNode | Text>): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves) out += leaf.text;
    else if (node.type === 'link') out += plainText(node.nodes.filter((n): n is Text => n.object === 'text'));
  }
  return out;
}

export function codeBlock(value: string, syntax?: string): Code {
  return {
    object: 'block',
    type: 'code',
    data: syntax ? { syntax } : {},
    nodes: value
      .split('\n')
      .map((line) => ({ object: 'block', type: 'code-line', data: {}, nodes: [text(line)] })),
  };
}
