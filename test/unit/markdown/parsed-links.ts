import type { Element } from 'hast';
import { fromHtml } from 'hast-util-from-html';
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
        found.push(...htmlTargets(node.value));
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

/** Links and images of parsed HTML (an independent reading of what html-links.ts scans). */
function htmlTargets(html: string): Array<{ href: string; kind: LinkKind }> {
  const found: Array<{ href: string; kind: LinkKind }> = [];
  const visit = (nodes: ReadonlyArray<{ type: string }>) => {
    for (const node of nodes) {
      if (node.type !== 'element') continue;
      const element = node as Element;
      const props = element.properties ?? {};
      const anchor = typeof props.href === 'string' && props.href.startsWith('#') && props.id !== undefined;
      if (
        element.tagName === 'a' &&
        typeof props.href === 'string' &&
        !props.href.startsWith('#user-content-fn') &&
        !anchor
      )
        found.push({ href: props.href, kind: 'link' });
      if (element.tagName === 'img' && typeof props.src === 'string')
        found.push({ href: props.src, kind: 'image' });
      if (element.tagName === 'source' && props.srcSet !== undefined)
        found.push({
          href: String(Array.isArray(props.srcSet) ? props.srcSet[0] : props.srcSet).split(/\s+/)[0]!,
          kind: 'image',
        });
      visit(element.children);
    }
  };
  visit(fromHtml(html, { fragment: true }).children);
  return found;
}
