import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorize.js';
import type { JsonDocument } from '../../content/document-schema.js';
import type { Profile } from '../../content/markdown/containers.js';
import { findRevision } from '../../content/revisions.js';
import type { ContentStore, Snapshot } from '../../content/store.js';
import type { FileNode, PageNode } from '../../content/tree.js';
import { type PageRequest, pageOfList } from '../../db/keyset.js';
import type { RevisionsTable, SpacesTable } from '../../db/tables.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../errors.js';
import type { ChangeRequestView } from '../change-requests/present.js';
import type { ChangeRequestsService } from '../change-requests/service.js';
import { convertFor } from './conversion.js';
import { DocumentCache } from './document-cache.js';
import { PageIndex } from './page-index.js';
import { pageLinks } from './page-links.js';
import type { StoredDocuments } from './stored-documents.js';

/** Which content a read is about. */
export type ContentTarget =
  | { kind: 'space' }
  | { kind: 'change-request'; id: string }
  | { kind: 'revision'; id: string };

export interface OpenContent {
  space: SpacesTable;
  revision: RevisionsTable;
  snapshot: Snapshot;
  index: PageIndex;
  /** For merge revisions, the merged change request. */
  mergedFrom?: ChangeRequestView | undefined;
}

export type PageFormat = 'markdown' | 'document';

/** The services content reads call. */
export interface ContentNeeds {
  authz: Pick<Authorizer, 'space'>;
  changeRequests: Pick<ChangeRequestsService, 'access' | 'find' | 'toView'>;
  store: Pick<ContentStore, 'snapshot' | 'readBody'>;
  /** Converted documents kept in the database; without it, only in the process. */
  stored?: StoredDocuments | undefined;
}

/** Reading the content of a space, a change request or any revision of the space. */
export class ContentService {
  /**
   * Documents converted from markdown (document-cache.ts): conversion is the costly part of a
   * document read (milliseconds for a long page). Converting markdown again was a fifth of a server's CPU in bench/scale's processes part while
   * this held 256 documents, an eighth of the bench's 2,000 pages. With room for them all, one
   * process went from 0.80 to 0.54 ms of CPU a request (1,301 -> 1,884 requests a second) and
   * three from 1.11 to 0.89. Bounded by markdown: 4 MB of it is about 30 MB of documents, room
   * for those pages three times over; every major collection marks what is kept, and the heap of
   * a 100,000-page space is 1.5 million objects already.
   */
  private readonly documents: DocumentCache;

  constructor(
    private readonly deps: Deps,
    private readonly services: ContentNeeds,
  ) {
    this.documents = new DocumentCache(20_000, 4 * 1024 * 1024, services.stored);
  }

  async open(actor: Actor, spaceId: string, target: ContentTarget): Promise<OpenContent> {
    let space: SpacesTable;
    let revisionId: string;
    if (target.kind === 'change-request') {
      const access = await this.services.changeRequests.access(actor, spaceId, target.id, 'view');
      space = access.space;
      revisionId = access.cr.revision;
    } else {
      space = (await this.services.authz.space(actor, spaceId, 'view')).space;
      revisionId = target.kind === 'revision' ? target.id : space.revision_id;
    }
    const revision = await findRevision(this.deps.db, spaceId, revisionId);
    if (!revision) throw notFound(`Revision "${revisionId}" not found in this space`);
    const snapshot = await this.services.store.snapshot(this.deps.db, revision.tree_hash);
    let mergedFrom: ChangeRequestView | undefined;
    if (revision.merged_from) {
      const cr = await this.services.changeRequests.find(this.deps.db, revision.merged_from);
      if (cr) mergedFrom = await this.services.changeRequests.toView(this.deps.db, cr, space.revision_id);
    }
    return { space, revision, snapshot, index: PageIndex.of(snapshot.content), mergedFrom };
  }

  /**
   * The space's current content without a permission check: for published sites, whose
   * visitors are not members and whose access the site server has already decided.
   */
  async openPublished(space: SpacesTable): Promise<OpenContent> {
    return this.openAt(space, space.revision_id);
  }

  /**
   * A revision of the space without a permission check: for work whose access was decided when
   * it was asked for (a print URL minted for a reader).
   */
  async openAt(space: SpacesTable, revisionId: string): Promise<OpenContent> {
    const revision = await findRevision(this.deps.db, space.id, revisionId);
    if (!revision) throw notFound(`Revision "${revisionId}" not found in this space`);
    const snapshot = await this.services.store.snapshot(this.deps.db, revision.tree_hash);
    return { space, revision, snapshot, index: PageIndex.of(snapshot.content) };
  }

  /** Whether `pageId` is a page of the space's revision `revisionId` (no permission check). */
  async hasPage(spaceId: string, revisionId: string, pageId: string): Promise<boolean> {
    const revision = await findRevision(this.deps.db, spaceId, revisionId);
    if (!revision) return false;
    const snapshot = await this.services.store.snapshot(this.deps.db, revision.tree_hash);
    return snapshot.content.pages.has(pageId);
  }

  page(open: OpenContent, pageId: string): PageNode {
    const page = open.snapshot.content.pages.get(pageId);
    if (!page) throw notFound(`Page "${pageId}" not found in this content`);
    return page;
  }

  pageByPath(open: OpenContent, path: string): PageNode {
    const page = open.index.pageAt(decodeURIComponent(path));
    if (!page) throw notFound(`No page at the path "${path}"`);
    return page;
  }

  /**
   * A document page's body as markdown, or as a rich-text document with links resolved, built
   * for `profile`: the API version the client reads (`v0146` unless it says it reads 0.202), or
   * the published site (`render`).
   */
  async body(
    open: OpenContent,
    page: PageNode,
    format: PageFormat,
    profile: Profile = 'v0146',
  ): Promise<{ markdown: string } | { document: JsonDocument }> {
    const hash = page.type === 'document' ? page.body : undefined;
    const markdown = () => (hash ? this.services.store.readBody(this.deps.db, hash) : Promise.resolve(''));
    if (format === 'markdown') return { markdown: await markdown() };
    const document = await this.documents.get({
      key: `${hash ?? ''}\0${page.id}\0${profile}`,
      tree: open.snapshot.treeHash,
      links: pageLinks(open.snapshot.content, open.index, { page: page.id }),
      markdown,
      convert: convertFor(profile),
      stored: hash
        ? {
            spaceId: open.space.id,
            pageId: page.id,
            profile,
            body: hash,
          }
        : undefined,
    });
    return { document };
  }

  /** A reusable content's document, its links read from its own file. */
  async reusableDocument(open: OpenContent, id: string, profile: Profile): Promise<JsonDocument | undefined> {
    const node = open.snapshot.content.reusableContents.get(id);
    if (!node) return undefined;
    return this.documents.get({
      key: `${node.body ?? ''}\0rc:${id}\0${profile}`,
      tree: open.snapshot.treeHash,
      links: pageLinks(open.snapshot.content, open.index, { reusable: id }),
      markdown: () =>
        node.body ? this.services.store.readBody(this.deps.db, node.body) : Promise.resolve(''),
      convert: convertFor(profile),
    });
  }

  file(open: OpenContent, fileId: string): FileNode {
    const file = open.snapshot.content.files.get(fileId);
    if (!file) throw notFound(`File "${fileId}" not found in this content`);
    return file;
  }

  /** Files by id, a page at a time (the files are in memory). */
  files(open: OpenContent, request: PageRequest) {
    const all = [...open.snapshot.content.files.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    return pageOfList(all, (f) => f.id, request, 'files');
  }
}
