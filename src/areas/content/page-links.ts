import type { ContentRef } from '../../content/document-schema.js';
import { hrefOf } from '../../content/hrefs.js';
import { classifyHref, type LinkTarget } from '../../content/link-targets.js';
import { type LinkResolver, plainLinks } from '../../content/markdown/index.js';
import type { RevisionContent } from '../../content/tree.js';
import { RepoLayout } from '../../git/repo-layout.js';
import type { PageIndex } from './page-index.js';

/**
 * How the links written in one page (or reusable content) of a revision resolve, and how
 * references are written back. A link is read the way GitBook's repositories lay content out
 * (relative to the page's file: `../publish/custom-domain.md#audience`, a folder, a README, an
 * asset next to the page, an include), then as a path of the space (`/guides/setup`, what
 * Quire writes), then it is a URL. The document reader, the site and the link index all read
 * links here, so a link that works in one works in all.
 */

export interface LinkSource {
  page?: string | undefined;
  /** A reusable content: its links are relative to its own file. */
  reusable?: string | undefined;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function pageLinks(content: RevisionContent, index: PageIndex, from: LinkSource): LinkResolver {
  // The layout only when a link asks for it: a page without relative links never needs it.
  let layout: RepoLayout | undefined;
  let fromPath: string | undefined;
  const laidOut = (): { layout: RepoLayout; fromPath: string | undefined } => {
    if (!layout) {
      layout = RepoLayout.of(content);
      fromPath = from.page
        ? layout.pathOf(from.page)
        : from.reusable
          ? layout.reusablePath(from.reusable)
          : undefined;
    }
    return { layout, fromPath };
  };
  return {
    resolve: (href) => resolveHref(href.trim(), content, index, laidOut, from),
    href: (ref) =>
      ref.kind === 'reusable-content' && !ref.space
        ? RepoLayout.relative(
            laidOut().fromPath,
            laidOut().layout.reusablePath(ref.reusableContent) ?? `${ref.reusableContent}.md`,
          )
        : (hrefOf(ref, {
            pathOf: (id) => (content.pages.has(id) ? index.pathOf(id) : undefined),
            fileName: (id) => content.files.get(id)?.name,
            page: from.page,
          }) ?? plainLinks.href(ref)),
  };
}

function resolveHref(
  href: string,
  content: RevisionContent,
  index: PageIndex,
  laidOut: () => { layout: RepoLayout; fromPath: string | undefined },
  from: LinkSource,
): ContentRef {
  if (href.length > 1 && href.startsWith('#')) {
    const anchor = decode(href.slice(1));
    return from.page ? { kind: 'anchor', anchor, page: from.page } : { kind: 'anchor', anchor };
  }
  if (SCHEME.test(href) || href.startsWith('//')) return plainLinks.resolve(href);
  const hash = href.indexOf('#');
  const path = decode(hash >= 0 ? href.slice(0, hash) : href).replace(/^<|>$/g, '');
  const anchor = hash >= 0 && hash < href.length - 1 ? decode(href.slice(hash + 1)) : undefined;

  const { layout, fromPath } = laidOut();
  const joined = RepoLayout.join(fromPath, path);
  const found = joined !== undefined ? layout.find(joined) : undefined;
  if (found?.kind === 'page')
    return anchor ? { kind: 'anchor', anchor, page: found.id } : { kind: 'page', page: found.id };
  if (found?.kind === 'file') return { kind: 'file', file: found.id };
  if (found?.kind === 'reusable') return { kind: 'reusable-content', reusableContent: found.id };

  // A path of the space, as Quire writes links (`/guides/setup#install`).
  const pagePath = from.page ? index.pathOf(from.page) : '';
  const folder = from.page ? index.childrenOf(from.page).length > 0 : false;
  const target = classifyHref(href, pagePath, folder);
  if (target.target_kind === 'page') {
    const page = index.pageAt(target.target);
    if (page)
      return target.anchor
        ? { kind: 'anchor', anchor: target.anchor, page: page.id }
        : { kind: 'page', page: page.id };
  }
  if (target.target_kind === 'file') {
    const file = [...content.files.values()].find((f) => f.name === target.target);
    if (file) return { kind: 'file', file: file.id };
  }
  return { kind: 'url', url: href };
}

function decode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}

/** The link index's row for a link: what it points at, as paths of the space. */
export function linkTarget(
  href: string,
  resolver: LinkResolver,
  index: PageIndex,
  content: RevisionContent,
  fallback: () => LinkTarget,
): LinkTarget {
  const ref = resolver.resolve(href);
  switch (ref.kind) {
    case 'page':
      return { target_kind: 'page', target: index.pathOf(ref.page), anchor: null };
    case 'anchor':
      return ref.page && !href.startsWith('#')
        ? { target_kind: 'page', target: index.pathOf(ref.page), anchor: ref.anchor }
        : { target_kind: 'anchor', target: '', anchor: ref.anchor };
    case 'file':
      return { target_kind: 'file', target: content.files.get(ref.file)?.name ?? ref.file, anchor: null };
    case 'url':
      // Not found in the content: what the href says (a broken page link stays one).
      return fallback();
    default:
      return { target_kind: 'url', target: href, anchor: null };
  }
}
