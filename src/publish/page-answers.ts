import type { PublishedSite } from './site-data.js';

/** The view a page answer records (see SiteServer's `siteViews`), less who asked. */
export interface ViewedPage {
  orgId: string;
  siteId: string;
  siteSpaceId: string;
  spaceId: string;
  pageId: string;
}

/** Which site a request is for: by id (under /sites/) or by the custom hostname it came to. */
export type SiteRef = { id: string } | { hostname: string };

/** How a URL of a public site was answered, while the site reads the same. */
export interface PageAnswer {
  /** The site the URL is for, to read again before the answer is used. */
  site: SiteRef;
  /**
   * The site as it was read: the same object while nothing was committed (its ReadCache). Held
   * weakly: an old site must not keep its spaces' old revisions alive (SiteServer's `opened`).
   */
  published: WeakRef<PublishedSite>;
  /** The absolute URL asked (normalised), as the recorded views name it. */
  url: string;
  /** The Cookie header it was answered for (usually none). */
  cookie: string | undefined;
  etag: string;
  /** The headers of its 304. */
  headers: Record<string, string>;
  /** Recorded on each answer, unless it is a markdown view. */
  view: ViewedPage | undefined;
}

/** A kept answer, and whether it was used since eviction last passed over it. */
interface KeptAnswer extends PageAnswer {
  used: boolean;
}

/**
 * What a kept answer is found by: the request line's URL as it came, on its protocol and Host.
 * Left raw rather than parsed, so that it is built alike before routing (the front door) and
 * after (the site routes) at the cost of a string; spellings of one URL are kept apart.
 */
export function answerKey(protocol: string, host: string, rawUrl: string): string {
  return `${protocol}://${host}${rawUrl}`;
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
  /**
   * In the order kept; a hit only marks its answer used. When full, the oldest answer goes, unless
   * it was used since it was last passed over: then it is kept as the newest, unmarked (a second
   * chance), and the next oldest is looked at. An LRU that moved each hit to the newest cost
   * three hash lookups and the map's regrowth on every revalidation (perf under bench/site B:
   * 6% of the server's time).
   */
  private readonly kept = new Map<string, KeptAnswer>();

  constructor(private readonly capacity = 8192) {}

  keep(key: string, published: PublishedSite, answer: Omit<PageAnswer, 'published'>): void {
    if (!this.kept.delete(key) && this.kept.size >= this.capacity) this.forgetOne();
    // Field by field, not spread: objects spread from another and given one more field each had
    // a hidden class of their own, so every read of a kept answer's fields missed V8's inline
    // caches (6% of the server's time under bench/site B, perf).
    this.kept.set(key, {
      site: answer.site,
      published: new WeakRef(published),
      url: answer.url,
      cookie: answer.cookie,
      etag: answer.etag,
      headers: answer.headers,
      view: answer.view,
      used: false,
    });
  }

  get(key: string): PageAnswer | undefined {
    const answer = this.kept.get(key);
    if (answer) answer.used = true;
    return answer;
  }

  /** How many answers are kept. */
  get size(): number {
    return this.kept.size;
  }

  private forgetOne(): void {
    // Entries set again during the loop come round again: once every mark is cleared, one goes.
    for (const [key, answer] of this.kept) {
      this.kept.delete(key);
      if (!answer.used) return;
      answer.used = false;
      this.kept.set(key, answer);
    }
  }

  /**
   * Whether a kept answer is the answer to this request: the site read now is the one it was
   * read from, with the same Cookie header, and the visitor sent its ETag.
   */
  holds(
    answer: PageAnswer,
    published: PublishedSite,
    headers: { cookie?: string | undefined; ifNoneMatch?: string | undefined },
  ): boolean {
    if (answer.published.deref() !== published || answer.cookie !== headers.cookie) return false;
    const sent = headers.ifNoneMatch;
    return sent === answer.etag || sent?.split(/\s*,\s*/).includes(answer.etag) === true;
  }
}
