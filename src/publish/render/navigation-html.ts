import { attr, emojiText, escapeHtml, isExternal, safeHref } from './escape.js';
import { icon } from './icons.js';
import type { NavLink, SectionNavItem, SiteLook, TreeItem } from './model.js';

/**
 * Navigation of the site frame: header links, section tabs, variant switcher, the page tree
 * and breadcrumbs. Dropdowns are `<details>`, so they open without script. Every href goes
 * through `safeHref`: customization links are written by site editors.
 */

/** `<a>` when the href is safe, else the text alone. */
export function link(title: string, href: string | undefined, extra = ''): string {
  const safe = safeHref(href);
  if (safe === undefined) return `<span${extra}>${escapeHtml(title)}</span>`;
  return `<a${attr('href', safe)}${extra}>${escapeHtml(title)}</a>`;
}

function dropdown(summary: string, items: string, className = 'dropdown'): string {
  return `<details class="${className}"><summary>${summary}${icon('chevronDown')}</summary><ul class="dropdown-menu">${items}</ul></details>`;
}

export function renderHeaderLinks(look: SiteLook): string {
  const items = (look.headerLinks ?? []).map((entry) => {
    if (entry.links?.length) {
      const menu = entry.links.map((l) => `<li>${link(l.title, l.href)}</li>`).join('');
      return dropdown(`<span>${escapeHtml(entry.title)}</span>`, menu);
    }
    return link(entry.title, entry.href);
  });
  return items.length > 0 ? `<nav class="header-links" aria-label="Links">${items.join('')}</nav>` : '';
}

/** The header links again, as a plain list for the sidebar drawer on narrow screens. */
export function renderSidebarLinks(look: SiteLook): string {
  const items = (look.headerLinks ?? []).flatMap((entry) => {
    const own = entry.href ? [`<li>${link(entry.title, entry.href)}</li>`] : [];
    return [...own, ...(entry.links ?? []).map((l) => `<li>${link(l.title, l.href)}</li>`)];
  });
  return items.length > 0 ? `<div class="sidebar-links"><ul>${items.join('')}</ul></div>` : '';
}

function sectionActive(item: SectionNavItem): boolean {
  return item.kind === 'section' ? item.active : item.items.some(sectionActive);
}

function sectionLink(item: NavLink): string {
  return link(item.title, item.href, item.active ? ' aria-current="true"' : '');
}

function sectionMenuItems(items: SectionNavItem[]): string {
  return items
    .map((item) =>
      item.kind === 'section'
        ? `<li>${sectionLink(item)}</li>`
        : `<li class="dropdown-group"><span class="dropdown-heading">${escapeHtml(item.title)}</span><ul>${sectionMenuItems(item.items)}</ul></li>`,
    )
    .join('');
}

/** Section tabs under the header; nothing when the site has a single section. */
export function renderSections(sections: SectionNavItem[]): string {
  const hasGroups = sections.some((item) => item.kind === 'group');
  if (sections.length < 2 && !hasGroups) return '';
  const items = sections.map((item) => {
    if (item.kind === 'section') return `<li>${sectionLink(item)}</li>`;
    const className = `dropdown${sectionActive(item) ? ' active' : ''}`;
    return `<li>${dropdown(`<span>${escapeHtml(item.title)}</span>`, sectionMenuItems(item.items), className)}</li>`;
  });
  return `<nav class="section-tabs" aria-label="Sections"><ul>${items.join('')}</ul></nav>`;
}

/** The variant (site space) switcher; nothing when there is only one. */
export function renderVariants(variants: NavLink[]): string {
  if (variants.length < 2) return '';
  const current = variants.find((v) => v.active) ?? variants[0]!;
  const items = variants
    .map((v) => `<li>${link(v.title, v.href, v.active ? ' aria-current="page"' : '')}</li>`)
    .join('');
  return dropdown(
    `<span><span class="visually-hidden">Version: </span>${escapeHtml(current.title)}</span>`,
    items,
    'dropdown variants',
  );
}

/** Ids of the tree's child lists, unique within a page (uppercase: never a heading id). */
class TreeIds {
  private n = 0;
  next(): string {
    this.n += 1;
    return `Tree${this.n}`;
  }
}

/**
 * The page tree: on a page, and alone as the fragment of the whole tree a trimmed page names
 * (`SiteFrame.treeHref`), which the script puts in place of the page's tree.
 */
export function renderTree(items: TreeItem[]): string {
  if (items.length === 0) return '';
  const ids = new TreeIds();
  return `<ul class="tree">${items.map((item) => treeItem(item, ids, 0)).join('')}</ul>`;
}

/**
 * The toggle of a branch whose children a trimmed tree did not send, once per page: the script
 * puts a copy on each such branch (`data-tree-closed`), labelled with the branch's title.
 */
export function renderClosedToggle(): string {
  return `<template id="TreeToggle"><button type="button" class="icon-button tree-toggle" aria-expanded="false" data-tree-closed>${icon('chevronRight')}</button></template>`;
}

/** Items this deep show no children (13 levels drawn); deeper pages are reached from their parents' pages. */
export const MAX_TREE_DEPTH = 12;

function treeTitle(item: TreeItem): string {
  const emoji = item.emoji ? emojiText(item.emoji) : '';
  return (
    (emoji ? `<span class="tree-emoji" aria-hidden="true">${escapeHtml(emoji)}</span>` : '') +
    `<span>${escapeHtml(item.title)}</span>`
  );
}

function treeItem(item: TreeItem, ids: TreeIds, depth: number): string {
  if (item.kind === 'more') {
    // Entries of a long list left out of this page; the script lists them from the whole tree.
    const more = `<span>${escapeHtml(item.title)}</span>`;
    const href = safeHref(item.href);
    return `<li class="tree-item tree-more"><div class="tree-row">${
      href === undefined
        ? `<span class="tree-text">${more}</span>`
        : `<a${attr('href', href)} data-tree-more>${more}</a>`
    }</div></li>`;
  }
  const children = depth < MAX_TREE_DEPTH ? (item.children ?? []) : [];
  const childList = (hidden: boolean, id?: string) =>
    `<ul${attr('id', id)} class="tree-children"${hidden ? ' hidden' : ''}>${children.map((c) => treeItem(c, ids, depth + 1)).join('')}</ul>`;

  if (item.kind === 'group') {
    const list =
      children.length > 0 ? `<ul>${children.map((c) => treeItem(c, ids, depth + 1)).join('')}</ul>` : '';
    return `<li class="tree-group"><p class="tree-heading">${escapeHtml(item.title)}</p>${list}</li>`;
  }

  const href = safeHref(item.href);
  const external = item.kind === 'link' && href !== undefined && isExternal(href);
  const current = item.active ? ' aria-current="page"' : '';
  const title = treeTitle(item) + (external ? icon('external') : '');
  const anchor =
    href === undefined
      ? `<span class="tree-text">${title}</span>`
      : `<a${attr('href', href)}${current}${external ? ' rel="noopener"' : ''}>${title}</a>`;
  if (children.length === 0 && item.closed && depth < MAX_TREE_DEPTH) {
    // Children not sent: the title leads to the page, where this branch is open. The script
    // adds the toggle (it would be hidden without script, and weighs more than the row), which
    // lists them from the whole tree.
    return `<li class="tree-item" data-tree-closed><div class="tree-row">${anchor}</div></li>`;
  }
  if (children.length === 0) return `<li class="tree-item"><div class="tree-row">${anchor}</div></li>`;

  // Children show when the active page is inside or is this page; the script adds the toggle.
  const open = item.open || item.active;
  const id = ids.next();
  const toggle = `<button type="button" class="icon-button tree-toggle" aria-expanded="${open}" aria-controls="${id}"${attr('aria-label', `${item.title}: show or hide pages`)} hidden>${icon('chevronRight')}</button>`;
  return `<li class="tree-item"><div class="tree-row">${anchor}${toggle}</div>${childList(!open, id)}</li>`;
}

export function renderBreadcrumbs(crumbs: Array<{ title: string; href?: string | undefined }>): string {
  if (crumbs.length === 0) return '';
  const items = crumbs.map((c) => `<li>${c.href ? link(c.title, c.href) : escapeHtml(c.title)}</li>`);
  return `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${items.join('')}</ol></nav>`;
}
