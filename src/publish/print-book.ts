import type { ContentService, OpenContent } from '../areas/content/service.js';
import type { PageNode } from '../content/tree.js';
import type { Db } from '../db/database.js';
import type { Urls } from '../http/urls.js';
import { VisitorView } from './adaptive.js';
import { type DocumentExtrasNeeds, documentExtras } from './document-extras.js';
import type { DocumentLinks, PageContent } from './render/model.js';
import { type PrintBook, type PrintPage, pageAnchor } from './render/print-html.js';
import { organizationSpecs } from './site-data.js';
import { specKey } from './spec-documents.js';

/** Which pages to print: all, one page and its descendants, or one page alone. */
export interface PrintSelection {
  page?: string | undefined;
  only: boolean;
}

/** The title page: what is printed, named by the caller. */
export type PrintCover = Pick<PrintBook, 'title' | 'kicker' | 'facts'>;

export interface PrintBookNeeds extends DocumentExtrasNeeds {
  content: DocumentExtrasNeeds['content'] & Pick<ContentService, 'body'>;
}

/**
 * The pages a selection prints, in tree order with their depth below the selection: documents
 * and groups (link pages lead elsewhere, computed API pages have no body of their own). Hidden
 * pages are printed: they are content of the revision, which a reviewer or auditor reads whole.
 */
export function selectPages(
  open: OpenContent,
  selection: PrintSelection,
): Array<{ page: PageNode; depth: number }> {
  const pages = open.snapshot.content.pages;
  const depthOf = (page: PageNode): number => {
    let depth = 0;
    for (let p = page.parent ? pages.get(page.parent) : undefined; p && depth < 1000; depth++)
      p = p.parent ? pages.get(p.parent) : undefined;
    return depth;
  };
  const printable = (page: PageNode) => page.type === 'document' || page.type === 'group';
  if (selection.page === undefined)
    return open.index
      .inOrder()
      .filter(printable)
      .map((page) => ({ page, depth: depthOf(page) }));
  const root = pages.get(selection.page);
  if (!root) return [];
  if (selection.only) return printable(root) ? [{ page: root, depth: 0 }] : [];
  const base = depthOf(root);
  const inside = new Set([root.id]);
  const out: Array<{ page: PageNode; depth: number }> = [];
  for (const page of open.index.inOrder()) {
    if (page.id !== root.id && !(page.parent && inside.has(page.parent))) continue;
    inside.add(page.id);
    if (printable(page)) out.push({ page, depth: depthOf(page) - base });
  }
  return out;
}

/**
 * The book of a selection of a revision's pages, at most `maxPages` of them: each page's
 * document as the published site draws it (reusable contents, mentions, API blocks), with links
 * between printed pages turned into links inside the book. Adaptive branches are all printed
 * (the book is for people who review the content, not one visitor's view of it).
 */
export async function buildPrintBook(
  db: Db,
  services: PrintBookNeeds,
  urls: Urls,
  open: OpenContent,
  cover: PrintCover,
  selection: PrintSelection,
  maxPages: number,
): Promise<PrintBook> {
  const selected = selectPages(open, selection);
  const printed = selected.slice(0, maxPages);
  const inBook = new Set(printed.map(({ page }) => page.id));
  const specs = await organizationSpecs(db, open.space.org_id);
  const view = new VisitorView({}, open.snapshot.content);
  const { pages, files } = open.snapshot.content;
  const base: DocumentLinks = {
    page: (pageId, anchor) => {
      if (!inBook.has(pageId)) return undefined;
      const target = pageAnchor(pageId);
      return anchor ? `#${target}--${encodeURIComponent(anchor)}` : `#${target}`;
    },
    file: (fileId) => {
      const file = files.get(fileId);
      return file
        ? { href: urls.file(file.blob, file.name), name: file.name, contentType: file.contentType }
        : undefined;
    },
    url: (url) => url,
    pageInfo: (pageId) => {
      const target = pages.get(pageId);
      return target
        ? { title: target.title, emoji: target.emoji, description: target.description }
        : undefined;
    },
  };
  const out: PrintPage[] = [];
  for (const { page, depth } of printed) {
    const anchor = pageAnchor(page.id);
    const entry: PrintPage = {
      id: page.id,
      anchor,
      depth,
      title: page.title,
      emoji: page.emoji,
      description: page.description,
      links: base,
    };
    if (page.type === 'document') {
      const { document } = (await services.content.body(open, page, 'document', 'render')) as {
        document: PageContent['document'];
      };
      const extras = await documentExtras(db, services, open, document, specs);
      entry.document = document;
      entry.links = {
        ...base,
        // A link to a heading of the same page (`#install`) points at the heading's id in the book.
        url: (url) => (url.startsWith('#') && url.length > 1 ? `#${anchor}--${url.slice(1)}` : url),
        visible: () => true,
        expression: (expression) => view.text(expression, page),
        reusable: (id) => extras.reusable.get(id),
        user: (id) => extras.users.get(id),
        tag: (slug) => {
          const label = extras.tags.get(slug);
          return label === undefined ? undefined : { label };
        },
        openapi: (source) => extras.specs.get(specKey(source)),
      };
    }
    out.push(entry);
  }
  return {
    ...cover,
    lang: open.space.language ?? 'en',
    pages: out,
    leftOut: selected.length - printed.length,
  };
}
