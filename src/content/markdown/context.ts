import type { Slugger } from '../slugs.js';
import type { Container, Profile } from './containers.js';
import type { AnyBlock } from './document-types.js';
import type { LinkResolver } from './links.js';
import type { FlowContent } from './syntax.js';

/** State shared by one conversion, in either direction. */
export interface Context {
  links: LinkResolver;
  slugs: Slugger;
}

export interface ToDocumentContext extends Context {
  profile: Profile;
  /**
   * Converts the children of a container, keeping as raw markdown (API profiles) or text
   * (`render`) what it may not hold.
   */
  children(nodes: readonly FlowContent[], container: Container): AnyBlock[];
  /** Blocks built for a container (from HTML), refused whole when it may not hold one of them. */
  accept(blocks: AnyBlock[], container: Container): AnyBlock[];
  /** Footnote definitions of the page by label: the bodies of annotations. */
  footnotes: ReadonlyMap<string, FlowContent[]>;
  /** Footnotes an annotation used (their definitions are then not shown again). */
  usedFootnotes: Set<string>;
  /** Told of every construct with no document form (`{% name %}`, `<tag>`, a node type). */
  unknown(construct: string): void;
}

/**
 * Thrown where markdown has no faithful document form (a link title, raw HTML, a block the
 * container may not hold). The nearest container that accepts a code block keeps the markdown
 * as a raw block instead: content is never dropped.
 */
export class Unrepresentable extends Error {
  constructor(
    what = 'markdown without a document form',
    /** Whether the construct is unknown to the converter (not merely misplaced or malformed). */
    readonly unknown = false,
  ) {
    super(what);
  }
}

/** Lengths the document schema caps; longer values stay raw markdown. */
export const MAX_URL = 2048;
