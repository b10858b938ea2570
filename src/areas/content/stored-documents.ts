import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import type { JsonDocument } from '../../content/document-schema.js';
import type { Profile } from '../../content/markdown/containers.js';
import type { Db, Tx } from '../../db/database.js';
import type { Asked, Converted } from './document-cache.js';

/** A page's document for a profile, made from the markdown whose hash is `body`. */
export interface StoredKey {
  spaceId: string;
  pageId: string;
  profile: Profile;
  body: string;
}

export type StoredRow = StoredKey & Converted;

/** Rows a statement writes: six parameters each, within both databases' limits. */
const WRITE_CHUNK = 200;

/**
 * Converted documents kept in the database (migration 0037), a row a page and profile, written
 * by the fill that follows a space's current revision (document-fill.ts) and by reads that had
 * to convert. A document is deflated JSON: about the size of its markdown (0.8x for the bench's
 * pages, 0.7x for the GitBook fixtures'; as JSON 2.2x and 4.1x), inflated and parsed in 28 and
 * 126 µs where converting took 250 µs and 3.7 ms (scratch probe).
 */
export class StoredDocuments {
  /** Rows written back by reads, written together at the next turn of the event loop. */
  private pending = new Map<string, StoredRow>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The kept document of `key`, if it was made from the same markdown. */
  async load(key: StoredKey): Promise<(Converted & { weight: number }) | undefined> {
    const row = await this.db
      .selectFrom('page_documents')
      .select(['body', 'asked', 'document'])
      .where('space_id', '=', key.spaceId)
      .where('page_id', '=', key.pageId)
      .where('profile', '=', key.profile)
      .executeTakeFirst();
    if (!row || row.body !== key.body) return undefined;
    const json = inflateRawSync(row.document).toString('utf8');
    return {
      document: JSON.parse(json) as JsonDocument,
      asked: JSON.parse(row.asked) as Asked[],
      // The process's cache weighs documents by their markdown, a third to a quarter of their JSON.
      weight: 1 + Math.ceil(json.length / 3),
    };
  }

  /**
   * Writes `row` soon, outside the read that converted it: a failure is logged, since the row is
   * only a saving for later reads.
   */
  keepLater(key: StoredKey, converted: Converted): void {
    this.pending.set(`${key.spaceId}\0${key.pageId}\0${key.profile}`, { ...key, ...converted });
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** Writes the rows reads left to write (tests wait on it). */
  async flush(): Promise<void> {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = undefined;
    if (rows.length === 0) return;
    try {
      await this.db.transaction().execute((tx) => this.write(tx, rows));
    } catch (error) {
      this.log.warn({ err: error, rows: rows.length }, 'converted documents were not kept');
    }
  }

  /** Writes rows in `tx`, each replacing its page's and profile's row. */
  async write(tx: Tx, rows: StoredRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
      const values = rows.slice(start, start + WRITE_CHUNK).map((row) => ({
        space_id: row.spaceId,
        page_id: row.pageId,
        profile: row.profile,
        body: row.body,
        asked: JSON.stringify(row.asked),
        document: deflateRawSync(JSON.stringify(row.document)),
      }));
      await tx
        .insertInto('page_documents')
        .values(values)
        .onConflict((conflict) =>
          conflict.columns(['space_id', 'page_id', 'profile']).doUpdateSet((eb) => ({
            body: eb.ref('excluded.body'),
            asked: eb.ref('excluded.asked'),
            document: eb.ref('excluded.document'),
          })),
        )
        .execute();
    }
  }

  /** The pages of the space that have rows. */
  async pagesOf(tx: Tx | Db, spaceId: string): Promise<Set<string>> {
    const rows = await tx
      .selectFrom('page_documents')
      .select('page_id')
      .distinct()
      .where('space_id', '=', spaceId)
      .execute();
    return new Set(rows.map((row) => row.page_id));
  }

  /** Removes the rows of pages that are gone or hold no markdown. */
  async remove(tx: Tx, spaceId: string, pageIds: string[]): Promise<void> {
    for (let start = 0; start < pageIds.length; start += 500)
      await tx
        .deleteFrom('page_documents')
        .where('space_id', '=', spaceId)
        .where('page_id', 'in', pageIds.slice(start, start + 500))
        .execute();
  }

  /** Removes everything kept of purged spaces. */
  async dropSpaces(tx: Tx, spaceIds: string[]): Promise<void> {
    if (spaceIds.length === 0) return;
    await tx.deleteFrom('page_documents').where('space_id', 'in', spaceIds).execute();
    await tx.deleteFrom('page_document_fills').where('space_id', 'in', spaceIds).execute();
  }
}
