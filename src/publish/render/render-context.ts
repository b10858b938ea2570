import { HeadingAnchors } from '../../content/slugs.js';
import type { DocumentLinks } from './model.js';

/** One heading of a rendered document, for the on-page table of contents. */
export interface DocumentHeading {
  id: string;
  title: string;
  /** 1..3, the document's heading level (a heading-1 is drawn as `<h2>`: the page title is the `<h1>`). */
  level: number;
}

/**
 * State of one `renderDocument` call. Heading ids are lowercase (`HEADING_ID`); every other
 * id the renderer makes (tabs, panels, layout landmarks) starts with an uppercase letter, so
 * the two kinds never collide.
 */
export class RenderContext {
  readonly headings: DocumentHeading[] = [];
  private readonly anchors = new HeadingAnchors();
  private counter = 0;
  /** Nesting of the block being drawn (containers, reusable contents, annotation bodies). */
  depth = 0;
  /** Reusable contents being drawn, outermost first: one that includes itself is cut. */
  readonly reusableStack: string[] = [];
  /** Reusable contents drawn so far: a page draws at most `MAX_REUSABLE` of them. */
  reusableCount = 0;

  constructor(
    readonly links: DocumentLinks,
    /** Draws blocks one level below `depth` (set by `renderDocument`, used by inlines that hold blocks). */
    private readonly blockRenderer: (
      nodes: readonly unknown[] | undefined,
      ctx: RenderContext,
    ) => string = () => '',
    /**
     * Put before every id made here: a printed book holds many pages in one HTML document, and
     * each page's headings (`install`) must stay distinct and reachable (`page-Ab3--install`).
     */
    private readonly idPrefix = '',
  ) {}

  /** Blocks nested in the block being drawn (annotation bodies, table cells, cards). */
  renderBlocks(nodes: readonly unknown[] | undefined): string {
    return this.blockRenderer(nodes, this);
  }

  /** Inside a table cell or card, headings are not sections of the page: not in its outline. */
  private outlineHidden = 0;

  /** Blocks of a table cell or card: drawn, but their headings kept out of the page outline. */
  renderCellBlocks(nodes: readonly unknown[] | undefined): string {
    this.outlineHidden++;
    try {
      return this.renderBlocks(nodes);
    } finally {
      this.outlineHidden--;
    }
  }

  /** Adds a heading to the page's outline, unless it is in a cell or has no words. */
  outline(heading: DocumentHeading): void {
    if (this.outlineHidden === 0 && heading.title !== '') this.headings.push(heading);
  }

  /** A unique heading id: the document's own when it is well formed, else a slug of the text. */
  headingId(preferred: string | undefined, text: string): string {
    return this.idPrefix + this.anchors.next(preferred, text);
  }

  /** A fresh id for an element of a block (`Tab3`, `Tab4`…). */
  elementId(prefix: string): string {
    this.counter += 1;
    return `${this.idPrefix}${prefix}${this.counter}`;
  }
}
