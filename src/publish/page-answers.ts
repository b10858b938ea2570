import { Lru } from '../lru.js';
import type { PublishedSite } from './site-data.js';
import type { SiteResponse } from './site-response.js';

/** The view a page answer records (see SiteServer's `siteViews`), less who asked. */
export interface ViewedPage {
  orgId: string;
  siteId: string;
  siteSpaceId: string;
  spaceId: string;
  pageId: string;
}

/** How a URL of a public site was answered, while the site reads the same. */
interface PageAnswer {
  /**
   * The site as it was read: the same object while nothing was committed (its ReadCache). Held
   * weakly: an old site must not keep its spaces' old revisions alive (SiteServer's `opened`).
   */
  published: WeakRef<PublishedSite>;
  /** The Cookie header it was answered for (usually none). */
  cookie: string | undefined;
  etag: string;
  /** The headers of its 304. */
  headers: Record<string, string>;
  /** Recorded on each answer, unless it is a markdown view. */
  view: ViewedPage | undefined;
}

/**
 * Revalidations of public pages, answered from what the same URL found last time. Visitors'
 * browsers revalidate every page they show, and on an unchanged site each finds what the last
 * one found: finding the site space, the page and its ETag again was most of such a request
 * (bench/site B). An answer is kept only for what gives the same answer until the next commit
 * whatever the time: a public or unlisted site, reached without a visitor token or share key.
 * It is used only while the site read is the very same object, so any commit (by this process
 * or another) makes the next request go the whole way again.
 */
export class PageAnswers {
  private readonly kept = new Lru<string, PageAnswer>(8192);

  keep(url: string, published: PublishedSite, answer: Omit<PageAnswer, 'published'>): void {
    this.kept.set(url, { ...answer, published: new WeakRef(published) });
  }

  /**
   * The 304 of a URL whose kept answer still holds and whose ETag the visitor sent (its view
   * is recorded), or undefined: then the request goes the whole way.
   */
  notModified(
    url: string,
    published: PublishedSite,
    headers: { cookie?: string | undefined; ifNoneMatch?: string | undefined },
    record: (view: ViewedPage) => void,
  ): SiteResponse | undefined {
    const answer = this.kept.get(url);
    if (answer?.published.deref() !== published || answer.cookie !== headers.cookie) return undefined;
    const sent = headers.ifNoneMatch;
    if (sent !== answer.etag && !sent?.split(/\s*,\s*/).includes(answer.etag)) return undefined;
    if (answer.view) record(answer.view);
    return { status: 304, headers: answer.headers, body: '' };
  }
}
