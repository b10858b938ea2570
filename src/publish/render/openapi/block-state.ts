import { LIMITS } from '../../../openapi/read/read.js';
import type { SpecReader } from '../../../openapi/read/spec-reader.js';
import type { RenderContext } from '../render-context.js';

/**
 * What drawing one OpenAPI block carries along: the document, the page's render context, and
 * the budgets that keep a huge or hostile spec from making a huge page.
 */
export interface BlockState {
  reader: SpecReader;
  ctx: RenderContext;
  /** Schema-tree rows this block may still draw. */
  nodes: number;
  /** Descriptions this block may still read as markdown (the rest are drawn as plain text). */
  markdown: number;
  /**
   * Characters of descriptions and facts this block may still draw: 2,000 rows of 20,000-character
   * descriptions would be a 40 MB page. Past it rows show their names and types only.
   */
  chars: number;
  /** Outline level of the block's own heading (1..3); its sections sit one below. */
  level: number;
  /**
   * Named schemas whose properties this block has drawn: met again, they are named, not drawn
   * again. A spec whose schemas refer to one another would otherwise repeat the same trees
   * (hundreds of KB for one operation of a large spec).
   */
  drawn: Set<unknown>;
}

/** Markdown conversions per block: a few hundred microseconds each, the rest is plain text. */
const MARKDOWN_PER_BLOCK = 80;
const CHARS_PER_BLOCK = 600_000;

export function blockState(reader: SpecReader, ctx: RenderContext, level: number): BlockState {
  return {
    reader,
    ctx,
    nodes: LIMITS.nodes,
    markdown: MARKDOWN_PER_BLOCK,
    chars: CHARS_PER_BLOCK,
    level,
    drawn: new Set(),
  };
}

/** The HTML heading tag `below` levels under the block's heading (`h2` for a level-1 heading). */
export function headingTag(state: BlockState, below = 0): string {
  return `h${Math.min(6, state.level + 1 + below)}`;
}
