import { PageIndex } from '../areas/content/page-index.js';
import type { OpenApiService } from '../areas/openapi/service.js';
import type { ContentStore, Snapshot } from '../content/store.js';
import type { PageNode, RevisionContent } from '../content/tree.js';
import type { Db } from '../db/database.js';
import { TimeSlices } from '../time-slices.js';
import { termsOf } from './analyzer.js';
import { apiBlockText, specSlugsIn } from './api-text.js';
import type { IndexedPage, IndexedSection, PagePlace } from './search-index.js';
import { splitSections } from './sections.js';

/**
 * What a search index sync reads of a revision before it writes (indexer.ts): the changed pages'
 * markdown cut into sections and their terms, and the places of pages below moved ones. All of
 * it outside the sync's transaction, the parsing in slices.
 */

/** What the reading needs. */
export interface SyncReads {
  db: Db;
  store: Pick<ContentStore, 'readBodies'>;
  /** The words of API reference blocks come from the organization's specifications. */
  openapi: Pick<OpenApiService, 'latestDocument'>;
}

/** A change of these moves the pages below a page: their paths, ancestors or visibility. */
const STRUCTURE: Array<keyof PageNode> = [
  'title',
  'slug',
  'parent',
  'hidden',
  'noIndex',
  'condition',
  'type',
];

/** The processed specifications the pages draw, by lower-case slug. */
async function specDocuments(
  openapi: SyncReads['openapi'],
  orgId: string,
  slugs: Set<string>,
): Promise<Map<string, unknown>> {
  const documents = new Map<string, unknown>();
  for (const slug of slugs) {
    const document = await openapi.latestDocument(orgId, slug);
    if (document) documents.set(slug, document);
  }
  return documents;
}

/** The changed document pages read and cut into sections; new places of pages below moved ones. */
export async function preparePages(
  reads: SyncReads,
  orgId: string,
  next: Snapshot,
  previous: RevisionContent | undefined,
  changed: Set<string>,
): Promise<{ pages: IndexedPage[]; places: PagePlace[] }> {
  const content = next.content;
  const tree = PageIndex.of(content);
  const documents = [...changed]
    .map((id) => content.pages.get(id))
    .filter((page): page is PageNode => page?.type === 'document');
  const bodies = await reads.store.readBodies(
    reads.db,
    documents.flatMap((page) => (page.body ? [page.body] : [])),
  );
  const markdownOf = (page: PageNode) => (page.body ? (bodies.get(page.body) ?? '') : '');
  const specsOf = new Map(documents.map((page) => [page.id, specSlugsIn(markdownOf(page))]));
  const apiText = apiBlockText(
    await specDocuments(reads.openapi, orgId, new Set([...specsOf.values()].flat())),
  );
  // Parsing is milliseconds a page: hundreds of pages are parsed in slices (time-slices.ts).
  const slices = new TimeSlices();
  const pages: IndexedPage[] = [];
  for (const page of documents) {
    if (slices.due()) await slices.next();
    const sections: IndexedSection[] = splitSections(markdownOf(page), apiText).map((section, position) => ({
      ...section,
      position,
    }));
    if (page.description) {
      const intro = sections[0]!;
      intro.text = intro.text ? `${page.description} ${intro.text}` : page.description;
    }
    // Tokenized here, in slices, rather than in the write's transaction (twice: the engine's
    // rows and the postings): on SQLite that transaction holds the only connection.
    for (const section of sections)
      section.terms = { heading: termsOf(section.heading), text: termsOf(section.text) };
    pages.push({
      ...placeOf(content, tree, page),
      title: page.title,
      titleTerms: termsOf(page.title),
      description: page.description ?? '',
      sections,
      specs: specsOf.get(page.id)!,
    });
  }

  const places: PagePlace[] = [];
  if (previous) {
    const moved = new Set<string>();
    for (const id of changed) {
      const before = previous.pages.get(id);
      const after = content.pages.get(id);
      if (!before || !after || STRUCTURE.some((key) => before[key] !== after[key])) {
        const stack = tree.childrenOf(id).map((child) => child.id);
        while (stack.length > 0) {
          const child = stack.pop()!;
          if (moved.has(child)) continue;
          moved.add(child);
          for (const grandchild of tree.childrenOf(child)) stack.push(grandchild.id);
        }
      }
    }
    for (const id of moved) {
      const page = content.pages.get(id);
      if (page?.type === 'document' && !changed.has(id)) places.push(placeOf(content, tree, page));
    }
  }
  return { pages, places };
}

/**
 * Where a page sits, and whether search leaves it out: hidden pages, pages kept from search
 * (`noIndex`), and pages shown only to some visitors (`condition`, which a search answer could
 * otherwise reveal), and everything below them.
 */
function placeOf(content: RevisionContent, tree: PageIndex, page: PageNode): PagePlace {
  const ancestors: string[] = [];
  const unsearchable = (p: PageNode) => Boolean(p.hidden || p.noIndex || p.condition);
  let hidden = unsearchable(page);
  let parent = page.parent ? content.pages.get(page.parent) : undefined;
  for (let guard = 0; parent && guard < 1000; guard++) {
    ancestors.unshift(parent.title);
    hidden ||= unsearchable(parent);
    parent = parent.parent ? content.pages.get(parent.parent) : undefined;
  }
  return { pageId: page.id, path: tree.pathOf(page.id), ancestors, hidden };
}
