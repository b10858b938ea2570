import type { ContentRef } from '../document-schema.js';

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
const USER = /^https:\/\/app\.gitbook\.com\/u\/([\w-]+)\/?$/;

export const plainLinks: LinkResolver = {
  resolve(href) {
    if (href.length > 1 && href.startsWith('#')) return { kind: 'anchor', anchor: href.slice(1) };
    // GitBook writes a mention of a person as a link to their profile.
    const user = USER.exec(href);
    if (user) return { kind: 'user', user: user[1]! };
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
        return `https://app.gitbook.com/u/${ref.user}`;
      case 'collection':
        return ref.collection;
      case 'reusable-content':
        return ref.reusableContent;
      case 'tag':
        return ref.tag;
      case 'openapi':
        return ref.spec;
    }
  },
};

export type LinkKind = 'link' | 'image' | 'embed' | 'content-ref' | 'file';
