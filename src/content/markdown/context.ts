import type { Allowed } from './containers.js';
import type { AnyBlock } from './document-types.js';
import type { LinkResolver } from './links.js';
import type { Slugger } from './slug.js';
import type { FlowContent } from './syntax.js';

/** State shared by one conversion, in either direction. */
export interface Context {
  links: LinkResolver;
  slugs: Slugger;
}

export interface ToDocumentContext extends Context {
  /** Converts the children of a container, keeping as raw markdown what it may not hold. */
  children<T extends AnyBlock>(nodes: readonly FlowContent[], allowed: Allowed<T>): T[];
}

/**
 * Thrown where markdown has no faithful document form (a link title, raw HTML, a block the
 * container may not hold). The nearest container that accepts a code block keeps the markdown
 * as a raw block instead: content is never dropped.
 */
export class Unrepresentable extends Error {
  constructor(what = 'markdown without a document form') {
    super(what);
  }
}

/** Lengths the document schema caps; longer values stay raw markdown. */
export const MAX_URL = 2048;
