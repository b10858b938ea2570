import type { JsonDocument } from '../../content/document-schema.js';

/**
 * What the published-site renderer draws: plain data prepared by the site server (which
 * decided already what this visitor may see). Every URL here is absolute or root-relative and
 * already resolved; every string is raw text the renderer escapes.
 */

export interface NavLink {
  title: string;
  href: string;
  /** The visitor is on this item (or inside it). */
  active: boolean;
  icon?: string | undefined;
}

/** Top navigation: sections, possibly inside section groups. */
export type SectionNavItem =
  | (NavLink & { kind: 'section' })
  | { kind: 'group'; title: string; items: SectionNavItem[] };

/**
 * One entry of the page tree in the sidebar. `more` stands for the entries of a long list left
 * out of a page (`title` says how many; `href`, when there is one, leads to the first of them).
 */
export interface TreeItem {
  kind: 'document' | 'group' | 'link' | 'more';
  title: string;
  emoji?: string | undefined;
  /** Absent on groups (headings without a page of their own). */
  href?: string | undefined;
  active: boolean;
  /** The active page is below this item: it is drawn open. */
  open: boolean;
  children: TreeItem[];
  /** The item has children that were not sent (the whole tree is at `SiteFrame.treeHref`). */
  closed?: boolean | undefined;
}

/** Light/dark pairs as the customization gives them. */
export interface ColorPair {
  light?: string | undefined;
  dark?: string | undefined;
}

/** The customization keys the renderer uses (API.md 2.8); everything is optional. */
export interface SiteLook {
  primaryColor?: ColorPair | undefined;
  tint?: ColorPair | undefined;
  infoColor?: ColorPair | undefined;
  successColor?: ColorPair | undefined;
  warningColor?: ColorPair | undefined;
  dangerColor?: ColorPair | undefined;
  corners?: 'straight' | 'rounded' | 'circular' | undefined;
  font?: string | undefined;
  /** Default theme; `toggleable` lets the visitor switch (kept in localStorage). */
  theme: { default: 'light' | 'dark' | 'system'; toggleable: boolean };
  logo?: ColorPair | undefined;
  favicon?: ColorPair | undefined;
  headerLinks: Array<{
    title: string;
    href?: string | undefined;
    links: Array<{ title: string; href: string }>;
  }>;
  footer?:
    | {
        groups: Array<{ title: string; links: Array<{ title: string; href: string }> }>;
        copyright?: string | undefined;
      }
    | undefined;
  announcement?:
    | {
        message: string;
        style: 'info' | 'warning' | 'danger' | 'success';
        link?: { title: string; href: string } | undefined;
      }
    | undefined;
  /** Previous/next links at the bottom of pages. */
  pagination: boolean;
}

export interface SiteFrame {
  siteTitle: string;
  /** Root URL of the site (trailing slash). */
  homeHref: string;
  look: SiteLook;
  sections: SectionNavItem[];
  /** Site spaces of the current section (variants), when there are several. */
  variants: NavLink[];
  tree: TreeItem[];
  /**
   * Where the whole tree is, as an HTML fragment (`renderTree` alone), when `tree` is trimmed:
   * the script fetches it when the visitor opens a closed branch.
   */
  treeHref?: string | undefined;
  /** GET endpoint answering `?q=` with JSON `{results: [{title, href, snippet}]}`. */
  searchHref: string;
  /** Whether robots must not index (unlisted and protected sites). */
  noindex: boolean;
  /** Language of the content, for `<html lang>`. */
  lang: string;
  /**
   * Base URL (with or without trailing slash) under which the site serves the files of
   * `SITE_ASSETS` (render/assets.ts) by name; they carry their hash in their names, so they can
   * be cached forever. Pages load the stylesheet and the script from there (a CSP of
   * `script-src 'self'` needs that). Optional: without it both are inlined (for pages saved as
   * files, or a server without a strict CSP).
   */
  assetsHref?: string | undefined;
}

export interface PageContent {
  title: string;
  description?: string | undefined;
  emoji?: string | undefined;
  /** The page's cover image, drawn above its title (`hero`: within the text column, `full`: the width of the page). */
  cover?:
    | {
        src: string;
        srcDark?: string | undefined;
        yPos: number;
        height?: number | undefined;
        size: 'hero' | 'full';
      }
    | undefined;
  /** Canonical URL of the page. */
  href: string;
  /** Link to the markdown view of the page. */
  markdownHref: string;
  breadcrumbs: Array<{ title: string; href?: string | undefined }>;
  document: JsonDocument;
  /** Maps content references of the document (pages, files, anchors) to URLs. */
  links: DocumentLinks;
  previous?: { title: string; href: string } | undefined;
  next?: { title: string; href: string } | undefined;
}

/** How references inside a document become URLs; undefined leaves the text unlinked. */
export interface DocumentLinks {
  page(pageId: string, anchor?: string): string | undefined;
  file(fileId: string): { href: string; name: string; contentType?: string | undefined } | undefined;
  /** A URL the author wrote; the renderer drops unsafe schemes before calling this. */
  url(url: string): string;
  /**
   * Title (and emoji, description) of a page, for content-reference cards. Optional: without
   * it a card shows the page's URL.
   */
  pageInfo?(
    pageId: string,
  ): { title: string; emoji?: string | undefined; description?: string | undefined } | undefined;
  /**
   * Whether the condition of an `if` block (a GitBook expression such as
   * `visitor.claims.unsigned.persona === "partner"`) holds for this visitor. Only `true` shows
   * the branch: without this hook, or when it returns false or throws, the branch is left out
   * of the page entirely (no text, no heading in the table of contents, no hint it was there).
   */
  visible?(expression: string): boolean;
  /**
   * The value of an inline expression (`space.vars.PRODUCT_NAME`) as text. Undefined (or no
   * hook) draws nothing.
   */
  expression?(expression: string): string | undefined;
  /**
   * The document of a reusable content, drawn in place of a `reusable-content` block.
   * Undefined (or no hook) draws nothing. Reusable contents that include themselves are cut.
   */
  reusable?(id: string): JsonDocument | undefined;
  /** The display name of a user, for user mentions; without it a mention reads "a user". */
  user?(id: string): string | undefined;
  /** A tag of the space by slug, for the tags of changelog updates; without it the slug shows. */
  tag?(slug: string): { label: string } | undefined;
  /**
   * The processed OpenAPI document (3.x, bundled: every $ref is local, e.g. `#/components/schemas/X` or `#/x-ext/...`)
   * an OpenAPI block points at, as parsed JSON. Undefined (or no hook): the block renders a notice.
   */
  openapi?(
    source: { kind: 'openapi'; spec: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string },
  ): unknown;
}
