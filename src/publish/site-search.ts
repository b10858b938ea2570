import type { OpenContent } from '../areas/content/service.js';
import type { Db } from '../db/database.js';
import type { SearchEngine } from '../search/engine.js';
import { plainSnippet } from '../search/highlight.js';

export interface SearchHit {
  title: string;
  href: string;
  snippet: string;
}

/**
 * Search over the pages of a published site: the search index (src/search) restricted to the
 * site spaces the visitor may see, without hidden pages. Snippets are plain text: the site's
 * script shows them as text.
 */
export class SiteSearch {
  constructor(
    _db: Db,
    private readonly services: { searchEngine: Pick<SearchEngine, 'search'> },
  ) {}

  async search(
    contents: Array<{ open: OpenContent; href: (pageId: string) => string }>,
    query: string,
    limit = 10,
  ): Promise<SearchHit[]> {
    if (contents.length === 0) return [];
    const bySpace = new Map(contents.map((c) => [c.open.space.id, c]));
    const { hits } = await this.services.searchEngine.search({
      query,
      scope: { spaceIds: [...bySpace.keys()], includeHidden: false },
      languages: contents.map((c) => c.open.space.language),
      limit,
      scopeKey: 'site',
    });
    const out: SearchHit[] = [];
    for (const hit of hits) {
      const content = bySpace.get(hit.spaceId);
      // A page the index still has but the content no longer does (the index is catching up).
      if (!content?.open.snapshot.content.pages.has(hit.pageId)) continue;
      const section = hit.sections[0];
      const anchor = hit.resultType === 'section' && section?.anchor ? `#${section.anchor}` : '';
      out.push({
        title: hit.title,
        href: `${content.href(hit.pageId)}${anchor}`,
        snippet: section ? plainSnippet(section.body) : '',
      });
    }
    return out;
  }
}
