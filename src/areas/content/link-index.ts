import { classifyHref } from '../../content/link-targets.js';
import { extractLinks } from '../../content/markdown/index.js';
import type { ContentStore } from '../../content/store.js';
import type { RevisionContent } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { PageLinksTable } from '../../db/tables.js';
import { PageIndex } from './page-index.js';
import { linkTarget, pageLinks } from './page-links.js';

/**
 * The index of links written in the pages of each space's main content. It is rebuilt page by
 * page, for the pages a merge (or an import) changed, never for the whole space; whether a
 * link works is decided when it is read, against the current content.
 */
export class LinkIndex {
  constructor(private readonly services: { store: Pick<ContentStore, 'readBodies'> }) {}

  /** `content`: the space's new main content (a snapshot's, or what its writer just built). */
  async reindex(tx: Tx, spaceId: string, content: RevisionContent, pageIds: Iterable<string>): Promise<void> {
    const ids = [...pageIds];
    if (ids.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      await tx
        .deleteFrom('page_links')
        .where('space_id', '=', spaceId)
        .where('page_id', 'in', ids.slice(i, i + 500))
        .execute();
    }
    const pages = ids.map((id) => content.pages.get(id)).filter((p) => p?.type === 'document' && p.body);
    const bodies = await this.services.store.readBodies(
      tx,
      pages.map((p) => p!.body!),
    );
    const index = PageIndex.of(content);
    const rows: PageLinksTable[] = [];
    for (const page of pages) {
      const pagePath = index.pathOf(page!.id);
      const folder = index.childrenOf(page!.id).length > 0;
      const resolver = pageLinks(content, index, { page: page!.id });
      extractLinks(bodies.get(page!.body!) ?? '').forEach((link, seq) => {
        rows.push({
          space_id: spaceId,
          page_id: page!.id,
          seq,
          href: link.href,
          ...linkTarget(link.href, resolver, index, content, () => classifyHref(link.href, pagePath, folder)),
        });
      });
    }
    for (let i = 0; i < rows.length; i += 200)
      await tx
        .insertInto('page_links')
        .values(rows.slice(i, i + 200))
        .execute();
  }
}
