import { Lru } from '../lru.js';
import type { SiteResponse } from './site-response.js';

/**
 * The whole page tree of a site space, served alone as an HTML fragment (`<ul class="tree">`)
 * at `{site root}~tree/{siteSpaceId}/{key}`, for pages that send a trimmed tree (site-tree.ts).
 *
 * The key is a digest of everything the tree depends on: Quire's version, the site's
 * fingerprint (its settings and structure, the revisions its spaces point at, the
 * specifications computed pages draw), the parts of the site the visitor may see, the
 * visitor's claims (pages shown only to some visitors) and the site space. So a URL never
 * changes meaning: it is cached for good (`immutable`), and a merge that changes the tree gives
 * pages a new URL. The server checks the key against the visitor asking: a key of another
 * revision, or of another visitor's claims, is a 404, so a fragment never shows pages its
 * visitor may not see. Fragments drawn for claims, or of a protected site, are `private`. No
 * `Vary: Cookie` is needed: the claims are in the URL's key, so one URL has one answer.
 *
 * Each fragment is rendered once per key and kept in memory: a count-bounded LRU, small
 * because one fragment of a 2,000-page space is ~0.5 MB.
 */

/** The path segment of fragments under a site's root (`~` never starts a page slug). */
export const TREE_SEGMENT = '~tree';

/** Fragments kept rendered (at ~0.5 MB for a 2,000-page space, ~32 MB at most). */
const CACHED_FRAGMENTS = 64;

export class TreeFragments {
  private readonly rendered = new Lru<string, Buffer>(CACHED_FRAGMENTS);
  /** Renders under way, so that a burst of first requests renders a fragment once. */
  private readonly pending = new Map<string, Promise<Buffer>>();

  /**
   * The answer for a fragment whose key matched the visitor's. `headers` are the security
   * headers pages carry; `render` draws the fragment when it is not in memory.
   */
  async respond(options: {
    key: string;
    /** Fragments of a protected site or drawn for claims are the visitor's own. */
    personal: boolean;
    ifNoneMatch: string | undefined;
    headers: Record<string, string>;
    render: () => Promise<string>;
  }): Promise<SiteResponse> {
    const { key, personal } = options;
    const etag = `"${key}"`;
    const headers = {
      ...options.headers,
      ETag: etag,
      'Cache-Control': `${personal ? 'private' : 'public'}, max-age=31536000, immutable`,
    };
    if (options.ifNoneMatch?.split(/\s*,\s*/).includes(etag)) return { status: 304, headers, body: '' };
    return { status: 200, headers, body: await this.body(key, options.render) };
  }

  private async body(key: string, render: () => Promise<string>): Promise<Buffer> {
    const kept = this.rendered.get(key);
    if (kept) return kept;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = render().then((html) => Buffer.from(html, 'utf8'));
      this.pending.set(key, pending);
      pending.then(
        (body) => {
          this.rendered.set(key, body);
          this.pending.delete(key);
        },
        () => this.pending.delete(key),
      );
    }
    return pending;
  }
}
