import type { AnyBlock, BlockType } from './document-types.js';

/**
 * What each container may hold, per profile of the converter:
 * - `v0146`, `v0202`: what the official schema of that API version allows (the tables are
 *   those schemas' unions; a unit test reads them back from both specs). A block a container may
 *   not hold stays raw markdown there, so every response validates against the version read.
 * - `render`: the published site, which draws any block anywhere (a code block in a hint is
 *   common in GitBook content, though no API version lets a hint hold one).
 */
export type Profile = 'v0146' | 'v0202' | 'render';

export type Container =
  | 'document'
  | 'listItem'
  | 'quote'
  | 'hint'
  | 'tab'
  | 'step'
  | 'update'
  | 'column'
  | 'if'
  | 'expandable'
  | 'annotation'
  | 'cell';

/** A set of block types that also names the union of their nodes. */
export interface Allowed<T extends AnyBlock = AnyBlock> extends ReadonlySet<BlockType> {
  readonly nodes?: T;
}

const ESSENTIAL = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'divider',
] as const;

type Table = Record<Exclude<Container, 'cell'>, readonly BlockType[]>;

const TOP_0146 = [
  ...ESSENTIAL,
  ...([
    'blockquote',
    'hint',
    'images',
    'file',
    'embed',
    'code',
    'math',
    'expandable',
    'tabs',
    'table',
  ] as const),
  ...(['swagger', 'openapi-operation', 'openapi-schemas', 'openapi-webhook', 'content-ref'] as const),
  ...(['integration', 'reusable-content', 'stepper'] as const),
];
const TOP_0202 = [...TOP_0146, ...(['prompt', 'if', 'columns', 'updates'] as const)];
const MEDIA = [
  'content-ref',
  'code',
  'embed',
  'file',
  'images',
  'hint',
  'blockquote',
  'math',
  'integration',
] as const;

const V0146: Table = {
  document: TOP_0146,
  if: [],
  listItem: [...ESSENTIAL, 'code', 'hint', 'blockquote', 'math', 'table'],
  quote: [...ESSENTIAL, 'blockquote'],
  hint: [...ESSENTIAL],
  tab: [...ESSENTIAL, ...MEDIA],
  step: [...ESSENTIAL, ...MEDIA],
  update: [],
  column: [],
  expandable: [...ESSENTIAL, 'images', 'code', 'table', 'hint', 'blockquote', 'reusable-content'],
  annotation: [...ESSENTIAL, 'code'],
};

const V0202: Table = {
  document: TOP_0202,
  if: TOP_0202,
  listItem: V0146.listItem,
  quote: V0146.quote,
  hint: [...ESSENTIAL, 'embed', 'integration', 'table'],
  tab: [...ESSENTIAL, ...MEDIA, 'prompt'],
  step: [...ESSENTIAL, ...MEDIA, 'prompt', 'expandable'],
  update: [...ESSENTIAL, ...MEDIA, 'prompt', 'tabs', 'expandable'],
  column: [...ESSENTIAL, ...MEDIA, 'prompt', 'table', 'expandable', 'stepper'],
  expandable: [...V0146.expandable, 'file', 'prompt', 'integration'],
  annotation: V0146.annotation,
};

const sets = (table: Table): Record<Container, Allowed> => {
  const out = {} as Record<Container, Allowed>;
  for (const [name, types] of Object.entries(table)) out[name as Container] = new Set(types);
  // Table cells are fragments, which hold any block in both versions.
  out.cell = ANY;
  return out;
};

/** Every block type: what `render` allows everywhere. */
const ANY: Allowed = new Set<BlockType>([...TOP_0202, 'list-item', 'tabs-item', 'image', 'code-line']);

export const CONTAINMENT: Record<Profile, Record<Container, Allowed>> = {
  v0146: sets(V0146),
  v0202: sets(V0202),
  render: Object.fromEntries(
    Object.keys(V0146)
      .concat('cell')
      .map((k) => [k, ANY]),
  ) as Record<Container, Allowed>,
};

/** The exported tables, for the test that holds them to the official schemas. */
export const CONTAINMENT_TABLES = { v0146: V0146, v0202: V0202 };
