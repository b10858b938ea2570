import type { JsonDocument } from '../../content/document-schema.js';
import { RAW_SYNTAX } from '../../content/markdown/syntax.js';
import { assetUrl, SITE_CSS_FILE, SITE_JS_FILE } from './assets.js';
import { SITE_JS } from './client.js';
import { renderDocument } from './document-html.js';
import { attr, emojiText, escapeHtml, safeHref, safeSrc } from './escape.js';
import { icon } from './icons.js';
import { nodeText } from './inline-html.js';
import { renderLookCss } from './look-css.js';
import type { PageContent, SiteFrame } from './model.js';
import {
  renderBreadcrumbs,
  renderClosedToggle,
  renderHeaderLinks,
  renderSections,
  renderSidebarLinks,
  renderTree,
  renderVariants,
} from './navigation-html.js';
import {
  renderAnnouncement,
  renderBrand,
  renderFooter,
  renderPageActions,
  renderPagination,
  renderToc,
} from './page-parts-html.js';
import { SITE_CSS } from './styles.js';

/**
 * Whole pages of a published site: `renderPage` for a content page, `renderNotFound` and
 * `renderAccessDenied` for the error pages. Landmarks: header (banner), nav (sections, page
 * tree, breadcrumbs), main, aside (table of contents), footer; one `<h1>`, the page title.
 */

export function renderPage(frame: SiteFrame, page: PageContent): string {
  const { html, headings } = renderDocument(pageBody(page), page.links);
  const emoji = page.emoji ? emojiSpan(page.emoji) : '';
  const main =
    '<div class="content">' +
    renderCover(page.cover) +
    renderBreadcrumbs(page.breadcrumbs ?? []) +
    '<header class="page-head">' +
    `<h1 class="page-title">${emoji}${escapeHtml(page.title)}</h1>` +
    (page.description ? `<p class="page-description">${escapeHtml(page.description)}</p>` : '') +
    '</header>' +
    `<div class="page-body">${html}</div>` +
    renderPageActions(page.markdownHref) +
    (frame.look.pagination ? renderPagination(page.previous, page.next) : '') +
    '</div>';
  return renderShell(frame, {
    title: page.title,
    description: page.description,
    canonical: page.href,
    markdownHref: page.markdownHref,
    main,
    toc: renderToc(headings),
  });
}

/** A cover image: decorative (no alt), its light and dark variants following the theme. */
function renderCover(cover: PageContent['cover']): string {
  const src = safeSrc(cover?.src);
  if (!cover || !src) return '';
  const height = Math.min(Math.max(Number.isFinite(cover.height) ? cover.height! : 240, 10), 700);
  const y = Number.isFinite(cover.yPos) ? Math.max(Math.min(cover.yPos, 10_000), -10_000) : 0;
  const style = `height:${height}px;object-position:50% calc(50% + ${y}px)`;
  const dark = safeSrc(cover.srcDark);
  const image = (url: string, theme: string) =>
    `<img class="page-cover-image${theme}"${attr('src', url)} alt="" style="${style}" decoding="async">`;
  return (
    `<figure class="page-cover page-cover-${cover.size === 'full' ? 'full' : 'hero'}">` +
    (dark ? image(src, ' light-only') + image(dark, ' dark-only') : image(src, '')) +
    '</figure>'
  );
}

/**
 * The document without what repeats the page head: markdown written for GitBook starts with
 * front matter (kept by the converter as a raw block) and `# Title`, and the page already
 * shows its title and description.
 */
export function pageBody(page: Pick<PageContent, 'title' | 'document'>): JsonDocument {
  const nodes = [...(page.document?.nodes ?? [])];
  const first = nodes[0];
  if (first?.type === 'code' && first.data?.syntax === RAW_SYNTAX && nodeText(first).startsWith('---'))
    nodes.shift();
  else if (isRawFrontMatter(first)) nodes.shift();
  const heading = nodes[0];
  const title = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (heading?.type === 'heading-1' && title(nodeText(heading)) === title(page.title)) nodes.shift();
  return nodes.length === page.document?.nodes?.length ? page.document : { ...page.document, nodes };
}

/** Front matter kept as a `raw` node (Quire's node for markdown it could not read). */
function isRawFrontMatter(node: unknown): boolean {
  const raw = node as { type?: unknown; data?: { text?: unknown } } | undefined;
  return raw?.type === 'raw' && typeof raw.data?.text === 'string' && /^---\s/.test(raw.data.text);
}

export interface MessagePageOptions {
  /** Text under the title. */
  message?: string | undefined;
  /** A call to action, e.g. a sign-in link for a protected site. */
  action?: { title: string; href: string } | undefined;
}

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Sign in required',
  403: 'Access denied',
  404: 'Page not found',
  410: 'Page removed',
  429: 'Too many requests',
};

/**
 * The page for an HTTP error status. With a frame it has the site's header and navigation;
 * pass one only when the visitor may see them (the tree and sections name pages). Without a
 * frame (unknown site, no access) it is a bare page with the default look and no script.
 */
export function renderStatusPage(
  frame: SiteFrame | undefined,
  status: number,
  message?: string,
  action?: { title: string; href: string },
): string {
  const title = STATUS_TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Error');
  const home =
    frame && status !== 401 && status !== 403
      ? { title: 'Go to the home page', href: frame.homeHref }
      : undefined;
  return renderMessagePage(frame, title, { message, action: action ?? home }, status);
}

/** The 404 page (see `renderStatusPage`). */
export function renderNotFound(frame?: SiteFrame, message?: string): string {
  return renderStatusPage(frame, 404, message ?? 'The page you are looking for does not exist or has moved.');
}

/**
 * The page for a visitor who may not see the site (revoked share link, missing or expired
 * visitor token), with an optional call to action such as a sign-in link.
 */
export function renderAccessDenied(frame?: SiteFrame, options: MessagePageOptions = {}): string {
  return renderStatusPage(
    frame,
    403,
    options.message ?? 'You do not have access to this content.',
    options.action,
  );
}

function renderMessagePage(
  frame: SiteFrame | undefined,
  title: string,
  options: MessagePageOptions,
  status: number,
): string {
  const href = safeHref(options.action?.href);
  const action =
    options.action && href !== undefined
      ? `<a class="button" href="${escapeHtml(href)}">${escapeHtml(options.action.title)}</a>`
      : '';
  const main =
    '<div class="content message-page">' +
    `<p class="status-code">${status}</p>` +
    `<h1 class="page-title">${escapeHtml(title)}</h1>` +
    (options.message ? `<p class="page-description">${escapeHtml(options.message)}</p>` : '') +
    action +
    '</div>';
  return renderShell(frame, { title, main, toc: '', noindex: true });
}

/**
 * A page of Quire's own (sign-in, the signed-in app) in the default look of a published site,
 * without a site's header or script: `main` is HTML the caller has escaped.
 */
export function renderPlainPage(title: string, main: string): string {
  return renderShell(undefined, {
    title,
    main: `<div class="content">${main}</div>`,
    toc: '',
    noindex: true,
  });
}

interface ShellParts {
  title: string;
  description?: string | undefined;
  canonical?: string | undefined;
  markdownHref?: string | undefined;
  main: string;
  toc: string;
  noindex?: boolean;
}

const LANG = /^[a-zA-Z]{2,8}(?:-[a-zA-Z0-9]{1,8})*$/;

function renderShell(frame: SiteFrame | undefined, parts: ShellParts): string {
  const look = frame?.look;
  const lang = frame && LANG.test(frame.lang) ? frame.lang : 'en';
  const sections = frame ? renderSections(frame.sections ?? []) : '';
  const htmlAttrs =
    attr('lang', lang) +
    attr('data-theme', look && look.theme.default !== 'system' ? look.theme.default : undefined) +
    (look?.theme.toggleable ? ' data-theme-toggle' : '') +
    (sections ? ' class="has-sections"' : '');
  const siteTitle = frame?.siteTitle ?? '';
  const title = !siteTitle || parts.title === siteTitle ? parts.title : `${parts.title} | ${siteTitle}`;

  const body = frame
    ? `${renderAnnouncement(frame.look)}${renderHeader(frame, sections)}` +
      '<div class="layout">' +
      renderSidebar(frame) +
      `<main id="Main" tabindex="-1">${parts.main}</main>` +
      parts.toc +
      '</div>'
    : `<div class="layout layout-bare"><main id="Main" tabindex="-1">${parts.main}</main></div>`;

  return (
    `<!doctype html>\n<html${htmlAttrs}>\n<head>\n` +
    renderHead(frame, parts, title) +
    '</head>\n<body>\n' +
    '<a class="skip-link" href="#Main">Skip to content</a>\n' +
    body +
    renderFooter(frame) +
    '\n</body>\n</html>\n'
  );
}

function renderHead(frame: SiteFrame | undefined, parts: ShellParts, title: string): string {
  const assets = frame?.assetsHref ? safeHref(frame.assetsHref) : undefined;
  const canonical = safeHref(parts.canonical);
  const markdown = safeHref(parts.markdownHref);
  const lines = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    parts.description ? `<meta name="description"${attr('content', parts.description)}>` : '',
    frame?.noindex || parts.noindex ? '<meta name="robots" content="noindex, nofollow">' : '',
    '<meta name="color-scheme" content="light dark">',
    canonical ? `<link rel="canonical"${attr('href', canonical)}>` : '',
    markdown ? `<link rel="alternate" type="text/markdown"${attr('href', markdown)}>` : '',
    `<meta property="og:title"${attr('content', parts.title)}>`,
    frame ? `<meta property="og:site_name"${attr('content', frame.siteTitle)}>` : '',
    parts.description ? `<meta property="og:description"${attr('content', parts.description)}>` : '',
    canonical ? `<meta property="og:url"${attr('content', canonical)}>` : '',
    renderFavicons(frame),
    // Script-free pages still work: the CSS is inlined when there is nowhere to load it from.
    assets
      ? `<link rel="stylesheet"${attr('href', assetUrl(assets, SITE_CSS_FILE))}>`
      : `<style>${SITE_CSS}</style>`,
    frame ? `<style>${renderLookCss(frame.look)}</style>` : '',
    // In <head> without defer: it applies the stored theme before the first paint.
    // Inlined only without an assets URL (a page saved as a file); bare status pages need none.
    frame
      ? assets
        ? `<script${attr('src', assetUrl(assets, SITE_JS_FILE))}></script>`
        : `<script>${SITE_JS}</script>`
      : '',
  ];
  return `${lines.filter(Boolean).join('\n')}\n`;
}

const DEFAULT_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#2f6ee5"/><path d="M10 7h8l5 5v13H10z" fill="#fff"/><path d="M18 7v5h5" fill="#c7d7f9"/></svg>',
)}`;

function renderFavicons(frame: SiteFrame | undefined): string {
  const light = safeSrc(frame?.look.favicon?.light);
  const dark = safeSrc(frame?.look.favicon?.dark);
  if (light && dark && light !== dark) {
    return (
      `<link rel="icon"${attr('href', light)} media="(prefers-color-scheme: light)">\n` +
      `<link rel="icon"${attr('href', dark)} media="(prefers-color-scheme: dark)">`
    );
  }
  return `<link rel="icon"${attr('href', light ?? dark ?? DEFAULT_ICON)}>`;
}

function renderHeader(frame: SiteFrame, sections: string): string {
  const searchHref = safeHref(frame.searchHref);
  const search = searchHref
    ? `<form class="search" role="search"${attr('data-search', searchHref)}>` +
      icon('search') +
      '<input class="search-input" type="search" name="q" placeholder="Search…" aria-label="Search this site" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="SearchResults" autocomplete="off" spellcheck="false">' +
      '<div class="search-panel" hidden><ul class="search-results" id="SearchResults" role="listbox" aria-label="Search results"></ul><p class="search-status" hidden></p></div>' +
      '<p class="search-live visually-hidden" role="status" aria-live="polite"></p>' +
      '</form>'
    : '';
  const theme = frame.look.theme.toggleable
    ? `<button type="button" class="icon-button theme-toggle" data-theme-button aria-label="Switch theme" hidden>${icon('moon', 'icon icon-moon')}${icon('sun', 'icon icon-sun')}</button>`
    : '';
  return (
    '<header class="site-header"><div class="header-bar">' +
    `<button type="button" class="icon-button menu-toggle" aria-controls="Sidebar" aria-expanded="false" aria-label="Open navigation">${icon('menu')}</button>` +
    renderBrand(frame) +
    renderHeaderLinks(frame.look) +
    `<div class="header-tools">${search}${theme}</div>` +
    `</div>${sections}</header>`
  );
}

function renderSidebar(frame: SiteFrame): string {
  return (
    // A trimmed tree names the whole one: the script fetches it when a closed branch opens.
    `<nav class="sidebar" id="Sidebar" aria-label="Pages"${attr('data-tree', safeHref(frame.treeHref))}>` +
    `<div class="sidebar-header"><span>${escapeHtml(frame.siteTitle)}</span>` +
    `<button type="button" class="icon-button" data-close-sidebar aria-label="Close navigation">${icon('close')}</button></div>` +
    renderVariants(frame.variants ?? []) +
    renderTree(frame.tree ?? []) +
    (frame.treeHref ? renderClosedToggle() : '') +
    renderSidebarLinks(frame.look) +
    '</nav><div class="backdrop" data-close-sidebar></div>'
  );
}

function emojiSpan(code: string): string {
  return `<span class="page-emoji" aria-hidden="true">${escapeHtml(emojiText(code))}</span>`;
}
