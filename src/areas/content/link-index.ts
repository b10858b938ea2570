import { classifyHref } from '../../content/link-targets.js';
import { extractLinks } from '../../content/markdown/index.js';
import type { Snapshot } from '../../content/store.js';
import { pathOf } from '../../content/tree.js';
import type { Tx } from '../../db/database.js';
import type { PageLinksTable } from '../../db/tables.js';
import type { Services } from '../../services.js';

/**
 * The index of links written in the pages of each space's main content. It is rebuilt page by
 * page, for the pages a merge (or an import) changed, never for the whole space; whether a
 * link works is decided when it is read, against the current content.
 */
export class LinkIndex {
  constructor(private readonly services: Services) {}

  async reindex(tx: Tx, spaceId: string, snapshot: Snapshot, pageIds: Iterable<string>): Promise<void> {
    const ids = [...pageIds];
    if (ids.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      await tx
        .deleteFrom('page_links')
        .where('space_id', '=', spaceId)
        .where('page_id', 'in', ids.slice(i, i + 500))
        .execute();
    }
    const { content } = snapshot;
    const pages = ids.map((id) => content.pages.get(id)).filter((p) => p?.type === 'document' && p.body);
    const bodies = await this.services.store.readBodies(
      tx,
      pages.map((p) => p!.body!),
    );
    // The index of children, not a walk over every page, tells which pages have pages below them.
    const { children } = snapshot.indexes();
    const rows: PageLinksTable[] = [];
    for (const page of pages) {
      const pagePath = pathOf(content, page!.id);
      const folder = (children.get(page!.id)?.size ?? 0) > 0;
      extractLinks(bodies.get(page!.body!) ?? '').forEach((link, seq) => {
        rows.push({
          space_id: spaceId,
          page_id: page!.id,
          seq,
          href: link.href,
          ...classifyHref(link.href, pagePath, folder),
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
