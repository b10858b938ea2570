import type { ContentRef } from '../document-schema.js';
import { parseFigures } from './images.js';
import { parseMarkdown, walk } from './parse.js';

/** Maps between the hrefs written in markdown and the content references of documents. */
export interface LinkResolver {
  /** Markdown href -> content reference: page paths, anchors, files, or plain URLs. */
  resolve(href: string): ContentRef;
  /** Content reference -> markdown href (the inverse, for documentToMarkdown). */
  href(ref: ContentRef): string;
}

/**
 * The resolver used when the caller knows no pages or files: hrefs stay URLs, `#x` is an
 * anchor in the same page. References it cannot place (a page, a user) are written as their
 * ids, which keeps the conversion total.
 */
export const plainLinks: LinkResolver = {
  resolve(href) {
    if (href.length > 1 && href.startsWith('#')) return { kind: 'anchor', anchor: href.slice(1) };
    return { kind: 'url', url: href };
  },
  href(ref) {
    switch (ref.kind) {
      case 'url':
        return ref.url;
      case 'anchor':
        return `#${ref.anchor}`;
      case 'page':
        return ref.page;
      case 'file':
        return ref.file;
      case 'space':
        return ref.space;
      case 'user':
        return ref.user;
    }
  },
};

export type LinkKind = 'link' | 'image' | 'embed' | 'content-ref' | 'file';

/** Every link target written in the markdown (inline links, images, content-ref/file/embed blocks), raw, in order. */
export function extractLinks(markdown: string): Array<{ href: string; kind: LinkKind }> {
  const found: Array<{ href: string; kind: LinkKind }> = [];
  walk(parseMarkdown(markdown), (node) => {
    switch (node.type) {
      case 'link':
        found.push({ href: node.url, kind: 'link' });
        break;
      case 'image':
        found.push({ href: node.url, kind: 'image' });
        break;
      case 'html':
        for (const figure of parseFigures(node.value) ?? []) found.push({ href: figure.src, kind: 'image' });
        break;
      case 'gitbookTag':
      case 'gitbookBlock': {
        const attrs = node.attrs ?? {};
        if (node.name === 'embed' && attrs.url !== undefined) found.push({ href: attrs.url, kind: 'embed' });
        if (node.name === 'file' && attrs.src !== undefined) found.push({ href: attrs.src, kind: 'file' });
        if (node.name === 'content-ref' && attrs.url !== undefined) {
          found.push({ href: attrs.url, kind: 'content-ref' });
          // The link inside repeats the block's target.
          return false;
        }
        break;
      }
    }
  });
  return found;
}
