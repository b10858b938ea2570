import type { ContentRef } from './document-schema.js';

/**
 * The content of one revision, as the engine works on it: pages and files by id. Revisions are
 * immutable; a change makes a new `RevisionContent` sharing every unchanged node.
 *
 * Page bodies are markdown (GitBook-flavoured), referenced by the SHA-256 of their text
 * (`body`), stored once in the content-addressed object store.
 */

/** `computed`: pages generated from a source (an OpenAPI reference listed in SUMMARY.md). */
export type PageType = 'document' | 'group' | 'link' | 'computed';

export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
}

export const DEFAULT_LAYOUT: PageLayout = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};

export interface PageCover {
  ref: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos: number;
  height?: number;
}

export interface GitBlob {
  oid: string;
  path: string;
}

export interface PageNode {
  id: string;
  type: PageType;
  /** Parent page id; null at the top level. Groups are only at the top level. */
  parent: string | null;
  /** Order among the siblings of the same parent (any numbers; only their order matters). */
  order: number;
  title: string;
  /** Path segment of the page (documents and groups); the page path joins its ancestors' slugs. */
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageLayout;
  cover?: PageCover;
  /** Sidebar title, when it differs from the title (`linkTitle`). */
  linkTitle?: string;
  /** Adaptive-content condition: the page is shown only to visitors it holds for. */
  condition?: string;
  /**
   * The text of the page's file before its body (front matter, title line) as the repository
   * had it: exported unchanged while the fields it gives are unchanged.
   */
  fileHead?: string;
  /** Documents: hash of the markdown body; null for an empty page. */
  body?: string | null;
  /** Links: where the link page points. */
  target?: ContentRef;
  href?: string;
  /** Computed pages: their source as the repository describes it (`type`, `props`, `dependencies`). */
  computed?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  git?: GitBlob;
}

export interface FileNode {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** SHA-256 of the bytes in the blob store. */
  blob: string;
  dimensions?: { width: number; height: number };
  git?: GitBlob;
}

export interface ReusableContentNode {
  id: string;
  title: string;
  body: string | null;
  git?: GitBlob;
  /** The front matter of its file (`title:`), as the repository had it. */
  fileHead?: string;
}

export type VariableValue = string | number | boolean;

/**
 * What a git-synced space keeps of its repository besides pages, files and reusable contents,
 * so exporting an unchanged space gives back the files it was imported from. Texts are hashes
 * of string objects of the content store (as page bodies are).
 */
export interface RepositoryFiles {
  /** Git path of the content root (project directory and `.gitbook.yaml` root), '' for the top. */
  root?: string;
  /** SUMMARY.md as read, and the digest of the page tree it gave: written back while that holds. */
  summary?: { text: string; tree: string };
  /** Files of GitBook's format kept as they are (`.gitbook/tags.yaml` …): project path -> text. */
  files: Record<string, string>;
}

export interface RevisionContent {
  pages: ReadonlyMap<string, PageNode>;
  files: ReadonlyMap<string, FileNode>;
  reusableContents: ReadonlyMap<string, ReusableContentNode>;
  variables: Readonly<Record<string, VariableValue>>;
  repository?: RepositoryFiles;
}

export const EMPTY_CONTENT: RevisionContent = {
  pages: new Map(),
  files: new Map(),
  reusableContents: new Map(),
  variables: {},
};

/** Sibling order (ties broken by id so every reader sees the same order). */
export function byOrder(a: PageNode, b: PageNode): number {
  return a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The page's path: the slugs from the top down to it, joined by '/'. Groups only head a part of
 * the table of contents: their own path is their slug, but pages inside them do not carry it.
 */
export function pathOf(content: RevisionContent, pageId: string): string {
  const page = content.pages.get(pageId);
  if (!page) return '';
  const slugs: string[] = page.slug ? [page.slug] : [];
  let current = page.parent ? content.pages.get(page.parent) : undefined;
  let guard = 0;
  while (current && guard++ < 1000) {
    if (current.type !== 'group' && current.slug) slugs.unshift(current.slug);
    current = current.parent ? content.pages.get(current.parent) : undefined;
  }
  return slugs.join('/');
}
