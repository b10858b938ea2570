import type { Context } from './context.js';
import type { AnyBlock } from './document-types.js';

/** State of one document -> markdown conversion. */
export interface FromContext extends Context {
  /** Registers an annotation's body as a footnote of the page; answers its label. */
  footnote(blocks: readonly AnyBlock[]): string;
}
