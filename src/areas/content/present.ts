import type { JsonDocument } from '../../content/document-schema.js';
import type { GitCommit } from '../../content/revisions.js';
import type { FileNode, PageLayout, PageNode, RevisionContent } from '../../content/tree.js';
import type { RevisionsTable } from '../../db/tables.js';
import type { Urls } from '../../http/urls.js';
import type { ChangeRequest } from '../change-requests/schemas.js';
import type { PageIndex } from './page-index.js';

/** What page and revision presenters need besides the content itself. */
export interface ContentContext {
  spaceId: string;
  urls: Urls;
  index: PageIndex;
  /** Include git metadata (`metadata=false` leaves it out). */
  metadata: boolean;
}

type Json = Record<string, unknown>;

/**
 * A page's optional labels, added to its object. Objects are built whole and added to, never
 * spread: a 100,000-page tree spent most of its 1.2 s presenting in spreads (bench/tmp).
 */
function withLabels(out: Json, page: PageNode): Json {
  if (page.linkTitle) out.linkTitle = page.linkTitle.slice(0, 100);
  if (page.emoji) out.emoji = page.emoji;
  if (page.icon) out.icon = page.icon;
  return out;
}

/**
 * A computed page in the official shape, or null when its source is not one the API describes
 * (only OpenAPI references are): such a page is kept for git sync but not listed.
 */
function presentComputed(page: PageNode): Json | null {
  const source = page.computed;
  const spec = (source?.dependencies as { spec?: { ref?: { kind?: unknown; spec?: unknown } } } | undefined)
    ?.spec?.ref;
  const props = source?.props as { models?: unknown; downloadLink?: unknown; grouping?: unknown } | undefined;
  if (source?.type !== 'builtin:openapi' || spec?.kind !== 'openapi' || typeof spec.spec !== 'string')
    return null;
  const computedProps: Json = { models: props?.models === true };
  if (typeof props?.downloadLink === 'boolean') computedProps.downloadLink = props.downloadLink;
  if (props?.grouping === 'by-tag' || props?.grouping === 'by-operation')
    computedProps.grouping = props.grouping;
  return withLabels(
    {
      id: page.id,
      title: page.title,
      type: 'computed',
      computed: {
        type: 'builtin:openapi',
        props: computedProps,
        dependencies: { spec: { ref: { kind: 'openapi', spec: spec.spec } } },
      },
    },
    page,
  );
}

function layoutOf(page: PageNode): Json {
  // Both API versions' layout fields: 0.202 requires the last four, 0.146 accepts them.
  const layout = page.layout;
  if (!layout) return { coverMask: 'none', tags: true, actions: true, anchors: true };
  const out: Json = {};
  for (const key in layout) out[key] = layout[key as keyof PageLayout];
  out.coverMask = 'none';
  out.tags = true;
  out.actions = true;
  out.anchors = true;
  return out;
}

/**
 * One page without the pages below it: `pages` is empty where the page has some (documents and
 * groups), in its place among the members. A computed page of a source the API does not
 * describe is null.
 */
export function presentPageItself(page: PageNode, ctx: ContentContext): Json | null {
  if (page.type === 'link') {
    const out = withLabels(
      {
        id: page.id,
        title: page.title,
        kind: 'link',
        type: 'link',
        target: page.target ?? { kind: 'url', url: page.href ?? '' },
      },
      page,
    );
    if (page.href) out.href = page.href;
    if (page.hidden) out.hidden = true;
    return out;
  }
  if (page.type === 'computed') return presentComputed(page);
  const path = ctx.index.pathOf(page.id);
  if (page.type === 'group') {
    const out = withLabels(
      {
        id: page.id,
        title: page.title,
        kind: 'group',
        type: 'group',
        slug: page.slug,
        path,
        pages: [],
      },
      page,
    );
    if (page.hidden) out.hidden = true;
    return out;
  }
  const out: Json = {
    id: page.id,
    title: page.title,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    kind: 'sheet',
    type: 'document',
    urls: { app: ctx.urls.app(`/s/${ctx.spaceId}/${path}`) },
    slug: page.slug,
    path,
    pages: [],
    layout: layoutOf(page),
    tags: [],
  };
  withLabels(out, page);
  if (page.description) out.description = page.description;
  if (page.cover) out.cover = page.cover;
  if (page.hidden) out.hidden = true;
  if (page.noIndex) out.noIndex = true;
  if (page.noRobotsIndex) out.noRobotsIndex = true;
  if (page.git && ctx.metadata) out.git = page.git;
  return out;
}

/** Whether the presented page lists the pages below it (see `presentPageItself`). */
export function holdsPages(page: PageNode): boolean {
  return page.type === 'document' || page.type === 'group';
}

/** One page of the tree, its pages below it, and optionally its body. */
export function presentPage(
  page: PageNode,
  ctx: ContentContext,
  body?: { markdown: string } | { document: JsonDocument },
): Json {
  const out = presentPageItself(page, ctx) ?? {};
  // Set in the place `pages` already holds among the members.
  if (holdsPages(page)) out.pages = presentChildren(page.id, ctx);
  if (body) Object.assign(out, body);
  return out;
}

export function presentFile(file: FileNode, ctx: Pick<ContentContext, 'urls' | 'metadata'>): Json {
  const out: Json = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: ctx.urls.file(file.blob, file.name),
    size: file.size,
  };
  if (file.dimensions) out.dimensions = file.dimensions;
  if (file.git && ctx.metadata) out.git = file.git;
  return out;
}

function presentChildren(parent: string | null, ctx: ContentContext): Json[] {
  const out: Json[] = [];
  for (const child of ctx.index.childrenOf(parent)) {
    const presented = presentPageItself(child, ctx);
    if (!presented) continue;
    if (holdsPages(child)) presented.pages = presentChildren(child.id, ctx);
    out.push(presented);
  }
  return out;
}

export function presentPages(content: RevisionContent, ctx: ContentContext): Json[] {
  void content;
  return presentChildren(null, ctx);
}

/** A revision without its `pages` (the whole tree, presented apart: see tree-json.ts). */
export function presentRevisionBesidesPages(
  row: RevisionsTable,
  content: RevisionContent,
  ctx: ContentContext,
  mergedFrom?: ChangeRequest,
): Json {
  const out: Json = {
    object: 'revision',
    id: row.id,
    parents: JSON.parse(row.parents) as string[],
    files: [...content.files.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map((f) => presentFile(f, ctx)),
    reusableContents: [...content.reusableContents.values()].map((r) => ({
      id: r.id,
      title: r.title,
      ...(r.git && ctx.metadata ? { git: r.git } : {}),
    })),
    tags: [],
    variables: content.variables,
    createdAt: row.created_at,
    urls: { app: ctx.urls.app(`/s/${ctx.spaceId}/~/revisions/${row.id}`) },
    type: row.type === 'merge' && !mergedFrom ? 'edits' : row.type,
  };
  if (row.git && ctx.metadata) out.git = JSON.parse(row.git) as GitCommit;
  if (row.type === 'merge' && mergedFrom) out.mergedFrom = mergedFrom;
  return out;
}
