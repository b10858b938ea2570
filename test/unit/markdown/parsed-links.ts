import { parseFigures } from '../../../src/content/markdown/images.js';
import type { LinkKind } from '../../../src/content/markdown/index.js';
import { parseMarkdown, walk } from '../../../src/content/markdown/parse.js';

/**
 * The links of a page read from the full CommonMark parse: slow, but the parser's answer, so
 * the fast scanner used by the link index is held to it.
 */
/** Every link target written in the markdown (inline links, images, content-ref/file/embed blocks), raw, in order. */
export function parsedLinks(markdown: string): Array<{ href: string; kind: LinkKind }> {
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
