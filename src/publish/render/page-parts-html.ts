import { escapeHtml, safeHref, safeSrc } from './escape.js';
import { icon } from './icons.js';
import type { SiteFrame, SiteLook } from './model.js';
import { link } from './navigation-html.js';
import type { DocumentHeading } from './render-context.js';

/** Parts of a page around the content: brand, announcement, table of contents, pagination, footer. */

export function renderBrand(frame: SiteFrame): string {
  const logo = frame.look.logo;
  const light = safeSrc(logo?.light);
  const dark = safeSrc(logo?.dark);
  const home = safeHref(frame.homeHref) ?? '/';
  const alt = escapeHtml(frame.siteTitle);
  let inner: string;
  if (light && dark && light !== dark) {
    inner = `<img class="logo-light" src="${escapeHtml(light)}" alt="${alt}"><img class="logo-dark" src="${escapeHtml(dark)}" alt="${alt}">`;
  } else if (light || dark) {
    inner = `<img src="${escapeHtml((light ?? dark)!)}" alt="${alt}">`;
  } else {
    inner = `<span>${alt}</span>`;
  }
  return `<a class="brand" href="${escapeHtml(home)}">${inner}</a>`;
}

const ANNOUNCEMENT_STYLES = new Set(['info', 'warning', 'danger', 'success']);

export function renderAnnouncement(look: SiteLook): string {
  const a = look.announcement;
  if (!a?.message) return '';
  const style = ANNOUNCEMENT_STYLES.has(a.style) ? a.style : 'info';
  const more = a.link ? link(a.link.title, a.link.href) : '';
  return `<div class="announcement announcement-${style}" role="region" aria-label="Announcement"><span>${escapeHtml(a.message)}</span>${more}</div>`;
}

/** The on-page table of contents; nothing when the page has no headings. */
export function renderToc(headings: DocumentHeading[]): string {
  if (headings.length === 0) return '';
  const items = headings
    .map(
      (h) =>
        `<li class="toc-level-${Math.min(Math.max(h.level, 1), 3)}"><a href="#${escapeHtml(h.id)}">${escapeHtml(h.title || h.id)}</a></li>`,
    )
    .join('');
  return `<aside class="toc"><nav aria-labelledby="TocTitle"><p class="toc-title" id="TocTitle">On this page</p><ul>${items}</ul></nav></aside>`;
}

export function renderPageActions(markdownHref: string): string {
  const href = safeHref(markdownHref);
  if (href === undefined) return '';
  return `<div class="page-actions"><a href="${escapeHtml(href)}" type="text/markdown">${icon('markdown')}<span>View as Markdown</span></a></div>`;
}

export function renderPagination(
  previous: { title: string; href: string } | undefined,
  next: { title: string; href: string } | undefined,
): string {
  const prevHref = safeHref(previous?.href);
  const nextHref = safeHref(next?.href);
  if (prevHref === undefined && nextHref === undefined) return '';
  const card = (kind: 'previous' | 'next', title: string, href: string) =>
    `<a class="${kind}" href="${escapeHtml(href)}" rel="${kind === 'previous' ? 'prev' : 'next'}">` +
    `<span class="pagination-label">${kind === 'previous' ? `${icon('arrowLeft')}Previous` : `Next${icon('arrowRight')}`}</span>` +
    `<span class="pagination-title">${escapeHtml(title)}</span></a>`;
  return (
    '<nav class="pagination" aria-label="Previous and next pages">' +
    (previous && prevHref !== undefined ? card('previous', previous.title, prevHref) : '') +
    (next && nextHref !== undefined ? card('next', next.title, nextHref) : '') +
    '</nav>'
  );
}

export function renderFooter(frame: SiteFrame | undefined): string {
  if (!frame) return '';
  const footer = frame.look.footer;
  const groups = (footer?.groups ?? [])
    .filter((g) => g.links?.length)
    .map(
      (g) =>
        `<div class="footer-group"><h2>${escapeHtml(g.title)}</h2><ul>${g.links.map((l) => `<li>${link(l.title, l.href)}</li>`).join('')}</ul></div>`,
    )
    .join('');
  const copyright = footer?.copyright ?? `© ${frame.siteTitle}`;
  return (
    '<footer class="site-footer"><div class="footer-inner">' +
    (groups ? `<div class="footer-groups">${groups}</div>` : '') +
    (copyright ? `<p class="copyright">${escapeHtml(copyright)}</p>` : '') +
    '</div></footer>'
  );
}
