import type { JsonDocument } from '../../content/document-schema.js';
import { renderDocument } from './document-html.js';
import { attr, emojiText, escapeHtml } from './escape.js';
import { pageBody } from './layout.js';
import type { DocumentLinks } from './model.js';
import { SITE_CSS } from './styles.js';

/**
 * A printed book: the pages of a change request or a space in one HTML document, for Chromium
 * to print as PDF or for a reader to print from a browser. A title page, a table of contents
 * whose entries link inside the document, then each page on sheets of its own, drawn by the
 * published-site renderer. No script: tabs show every panel (as without script on a site) and
 * expandable blocks are printed open.
 */
export interface PrintBook {
  /** The change request's subject, or the space's title. */
  title: string;
  /** Above the title: "Change request #12", "Space". */
  kicker: string;
  /** Lines of the title page, in order. */
  facts: Array<{ label: string; value: string }>;
  lang: string;
  pages: PrintPage[];
  /** Pages the selection held beyond the page cap, left out (the title page says so). */
  leftOut: number;
}

export interface PrintPage {
  id: string;
  /** The `id` of the page's section; links to the page point at it. */
  anchor: string;
  /** 0 for top-level pages (and the selected page). */
  depth: number;
  title: string;
  emoji?: string | undefined;
  description?: string | undefined;
  /** Groups have no body: they print as a divider. */
  document?: JsonDocument | undefined;
  links: DocumentLinks;
}

/** The anchor of a page in the book, and the prefix of the ids inside it. */
export function pageAnchor(pageId: string): string {
  return `page-${pageId}`;
}

export function renderPrintBook(book: PrintBook): string {
  const sections = book.pages.map(renderPrintPage).join('\n');
  const html =
    `<!doctype html>\n<html${attr('lang', book.lang)} data-theme="light" class="print-book">\n<head>\n` +
    '<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    '<meta name="robots" content="noindex, nofollow">\n' +
    '<meta name="color-scheme" content="light">\n' +
    `<title>${escapeHtml(book.title)}</title>\n` +
    `<style>${SITE_CSS}</style>\n` +
    '</head>\n<body>\n<div class="print-sheet">\n' +
    renderCover(book) +
    renderContents(book) +
    `<main>\n${sections}\n</main>\n` +
    '</div>\n</body>\n</html>\n';
  return forPrint(html);
}

function renderCover(book: PrintBook): string {
  const facts = book.facts
    .map((f) => `<div><dt>${escapeHtml(f.label)}</dt><dd>${escapeHtml(f.value)}</dd></div>`)
    .join('');
  const leftOut =
    book.leftOut > 0
      ? `<p class="print-notice">This PDF holds the first ${book.pages.length} pages; ${book.leftOut} more were left out. Print a part of the content on its own (the <code>page</code> parameter) to get the rest.</p>`
      : '';
  return (
    '<section class="print-cover">' +
    `<p class="print-kicker">${escapeHtml(book.kicker)}</p>` +
    `<h1 class="print-title">${escapeHtml(book.title)}</h1>` +
    `<dl class="print-facts">${facts}</dl>` +
    leftOut +
    '</section>\n'
  );
}

/** The contents as nested lists following the pages' depths. */
function renderContents(book: PrintBook): string {
  if (book.pages.length === 0)
    return '<nav class="print-toc"><p class="print-notice">There are no pages to print.</p></nav>\n';
  let out = '';
  let depth = -1;
  for (const page of book.pages) {
    const target = Math.min(page.depth, depth + 1);
    if (target > depth) out += '<ol>'.repeat(target - depth);
    else out += `</li>${'</ol></li>'.repeat(depth - target)}`;
    depth = target;
    const emoji = page.emoji ? `${escapeHtml(emojiText(page.emoji))} ` : '';
    out += `<li><a href="#${escapeHtml(page.anchor)}">${emoji}${escapeHtml(page.title || 'Untitled')}</a>`;
  }
  out += `</li>${'</ol></li>'.repeat(depth)}</ol>`;
  return `<nav class="print-toc" aria-labelledby="Contents"><h2 class="print-toc-title" id="Contents">Contents</h2>${out}</nav>\n`;
}

function renderPrintPage(page: PrintPage): string {
  const emoji = page.emoji
    ? `<span class="page-emoji" aria-hidden="true">${escapeHtml(emojiText(page.emoji))}</span>`
    : '';
  const head =
    '<header class="page-head">' +
    `<h1 class="page-title">${emoji}${escapeHtml(page.title || 'Untitled')}</h1>` +
    (page.description ? `<p class="page-description">${escapeHtml(page.description)}</p>` : '') +
    '</header>';
  if (!page.document)
    return `<section class="print-page print-group"${attr('id', page.anchor)}>${head}</section>`;
  const { html } = renderDocument(pageBody({ title: page.title, document: page.document }), page.links, {
    idPrefix: `${page.anchor}--`,
  });
  return `<section class="print-page"${attr('id', page.anchor)}>${head}<div class="page-body">${html}</div></section>`;
}

/**
 * What differs between a page on screen and on paper, in the HTML the renderer made (it escapes
 * all text, so these patterns only ever meet its own tags): every `<details>` printed open, and
 * images loaded at once (a printer does not scroll to lazy ones).
 */
function forPrint(html: string): string {
  return html.replace(/<details(?![^>]*\sopen)/g, '<details open').replace(/ loading="lazy"/g, '');
}
