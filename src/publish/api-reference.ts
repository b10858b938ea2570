import type { PageIndex } from '../areas/content/page-index.js';
import { derivationOf } from '../content/page-indexes.js';
import type { PageNode, RevisionContent } from '../content/tree.js';
import { type Grouping, type ReferencePage, referencePages } from '../openapi/reference-pages.js';

/**
 * Computed pages on a published site: a `builtin:openapi` entry of SUMMARY.md stands, in the
 * sidebar and at its own address, for the pages of the reference its specification makes (one
 * per tag, and the models), drawn from the latest processed version each time it changes. They
 * have no stored body: `/<entry path>/<page slug>` is answered from the specification.
 */

export interface ComputedSource {
  spec: string;
  grouping: Grouping;
  models: boolean;
}

export interface ComputedReference {
  node: PageNode;
  spec: string;
  pages: ReferencePage[];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The specification a computed page is made from, when it is an OpenAPI reference. */
export function computedSource(page: PageNode): ComputedSource | undefined {
  if (page.type !== 'computed' || !page.computed || page.computed.type !== 'builtin:openapi')
    return undefined;
  const ref = record(record(record(page.computed.dependencies)?.spec)?.ref);
  if (ref?.kind !== 'openapi' || typeof ref.spec !== 'string' || ref.spec === '') return undefined;
  const props = record(page.computed.props) ?? {};
  return {
    spec: ref.spec,
    grouping: props.grouping === 'by-operation' ? 'by-operation' : 'by-tag',
    // GitBook lists the models unless told not to.
    models: props.models !== false,
  };
}

/** The computed pages of one revision content: page id to the specification it is made from. */
const computedOf = new WeakMap<RevisionContent, ReadonlyMap<string, ComputedSource>>();

/**
 * The computed pages of a revision, read once per content. A revision made from another (a
 * write, a merge) starts from the other's and looks only at the pages that changed, so the first
 * view after a merge of a 100,000-page space does not walk every page to find the few computed ones.
 */
function computedPages(content: RevisionContent, depth = 0): ReadonlyMap<string, ComputedSource> {
  let computed = computedOf.get(content);
  if (computed) return computed;
  const made = derivationOf(content);
  if (made && (computedOf.has(made.base) || depth < 16)) {
    const next = new Map(computedPages(made.base, depth + 1));
    for (const id of made.derivation.pages) {
      const page = content.pages.get(id);
      const source = page && computedSource(page);
      if (source) next.set(id, source);
      else next.delete(id);
    }
    computed = next;
  } else {
    const all = new Map<string, ComputedSource>();
    for (const page of content.pages.values()) {
      const source = computedSource(page);
      if (source) all.set(page.id, source);
    }
    computed = all;
  }
  computedOf.set(content, computed);
  return computed;
}

const specsOf = new WeakMap<ReadonlyMap<string, ComputedSource>, Set<string>>();

/** Slugs of the specifications the computed pages of a space are made from (read once per revision). */
export function computedSpecs(index: PageIndex): Set<string> {
  const computed = computedPages(index.content);
  let specs = specsOf.get(computed);
  if (!specs) {
    specs = new Set([...computed.values()].map((source) => source.spec));
    specsOf.set(computed, specs);
  }
  return specs;
}

/** The reference of each computed page whose specification is processed, by page id. */
export function computedReferences(
  index: PageIndex,
  documentOf: (spec: string) => unknown,
): Map<string, ComputedReference> {
  const out = new Map<string, ComputedReference>();
  for (const [id, source] of computedPages(index.content)) {
    const page = index.content.pages.get(id)!;
    const document = documentOf(source.spec);
    if (document === undefined) continue;
    const pages = referencePages(document, source);
    if (pages.length > 0) out.set(page.id, { node: page, spec: source.spec, pages });
  }
  return out;
}

/** A page of a computed reference, as a visitor reaches it. */
export interface ReferenceTarget {
  reference: ComputedReference;
  page: ReferencePage;
}

/** Where a reference page is: below its computed page's own path. */
export function referenceHref(
  spaceRoot: string,
  index: PageIndex,
  reference: ComputedReference,
  page: ReferencePage,
): string {
  const base = spaceRoot.endsWith('/') ? spaceRoot : `${spaceRoot}/`;
  const path = `${index.pathOf(reference.node.id)}/${page.slug}`;
  return base + path.split('/').map(encodeURIComponent).join('/');
}

/** Previous and next pages inside one reference. */
export function referenceNeighbours(
  spaceRoot: string,
  index: PageIndex,
  target: ReferenceTarget,
): { previous?: { title: string; href: string }; next?: { title: string; href: string } } {
  const { pages } = target.reference;
  const at = pages.indexOf(target.page);
  const link = (page: ReferencePage | undefined) =>
    page ? { title: page.title, href: referenceHref(spaceRoot, index, target.reference, page) } : undefined;
  const out: { previous?: { title: string; href: string }; next?: { title: string; href: string } } = {};
  const previous = link(pages[at - 1]);
  const next = link(pages[at + 1]);
  if (previous) out.previous = previous;
  if (next) out.next = next;
  return out;
}

/**
 * The computed page and reference page a path names: `reference/lumen-api/payments` is the page
 * `payments` of the computed page at `reference/lumen-api`; the computed page's own path is its
 * first page.
 */
export function locateReference(
  index: PageIndex,
  references: Map<string, ComputedReference>,
  path: string,
): ReferenceTarget | undefined {
  const clean = path.replace(/^\/+|\/+$/g, '');
  const own = index.pageAt(clean);
  if (own?.type === 'computed') {
    const reference = references.get(own.id);
    return reference ? { reference, page: reference.pages[0]! } : undefined;
  }
  const cut = clean.lastIndexOf('/');
  if (cut < 0) return undefined;
  const parent = index.pageAt(clean.slice(0, cut));
  if (parent?.type !== 'computed') return undefined;
  const reference = references.get(parent.id);
  const slug = clean.slice(cut + 1);
  const page = reference?.pages.find((p) => p.slug === slug);
  return reference && page ? { reference, page } : undefined;
}
