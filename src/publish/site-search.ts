import type { OpenContent } from '../areas/content/service.js';
import type { Db } from '../db/database.js';
import { Lru } from '../lru.js';
import type { Services } from '../services.js';

export interface SearchHit {
  title: string;
  href: string;
  snippet: string;
}

interface Entry {
  pageId: string;
  title: string;
  titleLower: string;
  text: string;
  textLower: string;
}

/** Markdown to the words a reader sees: markup, block tags and link targets removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n/g, '')
    .replace(/\{%[^%]*%\}/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[#>*_`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Search over the pages of a published site: every term must appear in the title or the text;
 * title matches weigh more. The words of each revision are extracted once and kept by tree hash
 * (trees never change, so entries never go stale).
 */
export class SiteSearch {
  private readonly corpora = new Lru<string, Entry[]>(32);

  constructor(
    private readonly db: Db,
    private readonly services: Services,
  ) {}

  async search(
    contents: Array<{ open: OpenContent; href: (pageId: string) => string }>,
    query: string,
    limit = 10,
  ): Promise<SearchHit[]> {
    const terms = query.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);
    if (terms.length === 0) return [];
    const scored: Array<{ score: number; hit: SearchHit }> = [];
    for (const { open, href } of contents) {
      for (const entry of await this.corpus(open)) {
        let score = 0;
        for (const term of terms) {
          const inTitle = entry.titleLower.includes(term);
          const inText = entry.textLower.includes(term);
          if (!inTitle && !inText) {
            score = 0;
            break;
          }
          score += (inTitle ? 10 : 0) + (inText ? 1 : 0);
        }
        if (score > 0)
          scored.push({
            score,
            hit: { title: entry.title, href: href(entry.pageId), snippet: snippetOf(entry, terms) },
          });
      }
    }
    scored.sort((a, b) => b.score - a.score || a.hit.title.localeCompare(b.hit.title));
    return scored.slice(0, limit).map((s) => s.hit);
  }

  private async corpus(open: OpenContent): Promise<Entry[]> {
    const key = open.snapshot.treeHash;
    const known = this.corpora.get(key);
    if (known) return known;
    const pages = open.index.inOrder().filter((p) => p.type === 'document' && !p.hidden);
    const bodies = await this.services.store.readBodies(
      this.db,
      pages.flatMap((p) => (p.body ? [p.body] : [])),
    );
    const entries = pages.map((page) => {
      const text = plainText(page.body ? (bodies.get(page.body) ?? '') : '');
      const full = page.description ? `${page.description} ${text}` : text;
      return {
        pageId: page.id,
        title: page.title,
        titleLower: page.title.toLowerCase(),
        text: full,
        textLower: full.toLowerCase(),
      };
    });
    this.corpora.set(key, entries);
    return entries;
  }
}

function snippetOf(entry: Entry, terms: string[]): string {
  const at = terms.map((t) => entry.textLower.indexOf(t)).find((i) => i >= 0) ?? 0;
  const start = Math.max(0, at - 60);
  const snippet = entry.text.slice(start, start + 180);
  return `${start > 0 ? '…' : ''}${snippet}${start + 180 < entry.text.length ? '…' : ''}`;
}
