import type { ContentRef } from './document-schema.js';
import { plainLinks } from './markdown/index.js';

/** What writing a reference as an href needs to know about the content it is written in. */
export interface HrefContext {
  /** The path of a page of the content; undefined when the content has no such page. */
  pathOf(pageId: string): string | undefined;
  /** The name of a file of the content; undefined when it has none. */
  fileName(fileId: string): string | undefined;
  /** The page being written, whose own anchors need no path. */
  page?: string | undefined;
}

/**
 * The href a content reference is written as in markdown, the way the link index and the
 * document reader read it back: pages from the top of the space (`/guides/setup`), anchors after
 * their page's path, files under `.gitbook/assets/` by name. Undefined when the reference
 * names a page or file the content does not have.
 */
export function hrefOf(ref: ContentRef, at: HrefContext): string | undefined {
  switch (ref.kind) {
    case 'page': {
      if (ref.space) return plainLinks.href(ref);
      const path = at.pathOf(ref.page);
      return path === undefined ? undefined : `/${path}`;
    }
    case 'anchor': {
      if (ref.space) return plainLinks.href(ref);
      if (!ref.page || ref.page === at.page) return `#${ref.anchor}`;
      const path = at.pathOf(ref.page);
      return path === undefined ? undefined : `/${path}#${ref.anchor}`;
    }
    case 'file': {
      if (ref.space) return plainLinks.href(ref);
      const name = at.fileName(ref.file);
      return name === undefined ? undefined : `.gitbook/assets/${name}`;
    }
    default:
      return plainLinks.href(ref);
  }
}
