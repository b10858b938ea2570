import type { Block } from '../document-schema.js';
import type { AnyBlock, BlockType, Expandable, Hint, ListItem, Quote, TabsItem } from './document-types.js';

/** A set of block types that also names the union of their nodes. */
export interface Allowed<T extends AnyBlock> extends ReadonlySet<BlockType> {
  readonly nodes?: T;
}

function allowed<T extends AnyBlock>(...types: Array<T['type']>): Allowed<T> {
  return new Set<BlockType>(types);
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

/** What each container may hold under both official schema versions. */
export const ALLOWED = {
  document: allowed<Block>(
    ...ESSENTIAL,
    ...(['blockquote', 'hint', 'images', 'file', 'embed', 'code', 'math'] as const),
    ...(['expandable', 'tabs', 'table', 'content-ref'] as const),
  ),
  listItem: allowed<ListItem['nodes'][number]>(...ESSENTIAL, 'code', 'hint', 'blockquote', 'math', 'table'),
  quote: allowed<Quote['nodes'][number]>(...ESSENTIAL, 'blockquote'),
  hint: allowed<Hint['nodes'][number]>(...ESSENTIAL),
  tab: allowed<TabsItem['nodes'][number]>(
    ...ESSENTIAL,
    ...(['content-ref', 'code', 'embed', 'file', 'images', 'hint', 'blockquote', 'math'] as const),
  ),
  expandable: allowed<Expandable['fragments'][1]['nodes'][number]>(
    ...ESSENTIAL,
    ...(['images', 'code', 'table', 'hint', 'blockquote'] as const),
  ),
};
