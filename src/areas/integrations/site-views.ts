import { createHash } from 'node:crypto';
import type { Db, Tx } from '../../db/database.js';
import type { Deps } from '../../deps.js';
import { type IntegrationEvent, siteView } from '../../integrations/events.js';
import type { PageView } from '../../publish/site-server.js';

/** Views kept between two flushes; more are counted and dropped (a view is not worth a stall). */
const MAX_BUFFERED = 10_000;
const FLUSH_MS = 2000;
/** Events per delivery job. */
const BATCH = 100;

export interface SiteViewNeeds {
  installationIdsInOrgs(db: Db | Tx, orgIds: string[]): Promise<Array<{ id: string; org_id: string }>>;
  enqueueBatch(tx: Tx, installationId: string, events: IntegrationEvent[]): Promise<void>;
}

/**
 * `site_view` events. A page view is on the published site's hot path, so recording one only
 * appends to a buffer; every two seconds the buffer becomes delivery jobs (one per installation
 * and hundred views) for the organizations that have installations, in one transaction. Views
 * of organizations without any cost one indexed query per flush, whatever their number.
 */
export class SiteViews {
  private buffer: PageView[] = [];
  private dropped = 0;
  /**
   * The organizations the last flushes found without installations, and the database's
   * generation before they looked: their views go to no one until the database changes, so they
   * are not kept. A busy public site of such an organization otherwise filled the buffer, and the
   * log said every two seconds that views no one would receive were dropped.
   */
  private unheard: { generation: string; orgs: Set<string> } | undefined;
  private keptSoFar = 0;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly needs: SiteViewNeeds,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  readonly record = (view: PageView): void => {
    const unheard = this.unheard;
    if (unheard?.orgs.has(view.orgId) && unheard.generation === this.deps.database.cache.generation()) return;
    if (this.buffer.length >= MAX_BUFFERED) this.dropped++;
    else {
      this.buffer.push(view);
      this.keptSoFar++;
    }
  };

  /** Views kept for delivery since the start (tests read it). */
  get kept(): number {
    return this.keptSoFar;
  }

  /** Turns the buffered views into delivery jobs (tests and shutdown call it directly). */
  flush(): Promise<void> {
    this.flushing ??= this.drain()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'site views were not delivered'))
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    if (this.dropped > 0) {
      this.deps.log.warn({ dropped: this.dropped }, 'site views dropped: more came in than were delivered');
      this.dropped = 0;
    }
    if (this.buffer.length === 0) return;
    const views = this.buffer;
    this.buffer = [];
    const orgIds = [...new Set(views.map((v) => v.orgId))];
    // Read before the look: an installation made after it moves the generation past this one.
    // Brought up to date first: PostgreSQL's reading is trusted only for a moment.
    await this.deps.database.cache.sync();
    const generation = this.deps.database.cache.generation();
    await this.deps.db.transaction().execute(async (tx) => {
      const installations = await this.needs.installationIdsInOrgs(tx, orgIds);
      const heard = new Set(installations.map((installation) => installation.org_id));
      this.remember(
        generation,
        orgIds.filter((orgId) => !heard.has(orgId)),
      );
      for (const installation of installations) {
        const events = views
          .filter((v) => v.orgId === installation.org_id)
          .map((v) =>
            siteView(installation.id, {
              siteId: v.siteId,
              siteSpaceId: v.siteSpaceId,
              spaceId: v.spaceId,
              pageId: v.pageId,
              url: v.url,
              referrer: v.referrer,
              visitor: { ...v.visitor, anonymousId: anonymousId(v.visitor) },
            }),
          );
        for (let i = 0; i < events.length; i += BATCH) {
          await this.needs.enqueueBatch(tx, installation.id, events.slice(i, i + BATCH));
        }
      }
    });
  }

  private remember(generation: string | undefined, unheard: string[]): void {
    if (generation === undefined) return;
    const orgs = this.unheard?.generation === generation ? this.unheard.orgs : new Set<string>();
    for (const orgId of unheard) orgs.add(orgId);
    this.unheard = { generation, orgs };
  }

  close(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }
}

/**
 * A visitor's anonymous id: a digest of address and browser, the same for one visitor's views
 * and saying nothing of either (Quire sets no tracking cookie).
 */
function anonymousId(visitor: { ip: string; userAgent: string }): string {
  return createHash('sha256').update(`${visitor.ip}\0${visitor.userAgent}`).digest('base64url').slice(0, 22);
}
