import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { JsonDocument } from '../../content/document-schema.js';
import type { Profile } from '../../content/markdown/containers.js';
import type { Db, Tx } from '../../db/database.js';
import type { Asked, Converted } from './conversion.js';
import { converterStamp } from './converter-stamp.js';

/** A page's document for a profile, made from the markdown whose hash is `body`. */
export interface StoredKey {
  spaceId: string;
  pageId: string;
  profile: Profile;
  body: string;
}

export type StoredRow = StoredKey & Converted;

/** Rows a statement writes: seven parameters each, within both databases' limits. */
const WRITE_CHUNK = 200;

/**
 * Converted documents kept in the database (migration 0037), a row a page and profile, written
 * by the fill that follows a space's current revision (document-fill.ts). Reads do not write
 * them: a write moves the database's generation, and every process's read cache with it
 * (db/read-cache.ts), where the fill's writes follow the merge's. A document is deflated JSON: about the size of its markdown (0.8x for the bench's
 * pages, 0.7x for the GitBook fixtures'; as JSON 2.2x and 4.1x), inflated and parsed in 28 and
 * 126 µs where converting took 250 µs and 3.7 ms (scratch probe).
 */
export class StoredDocuments {
  constructor(
    private readonly db: Db,
    /** The stamp of this process's converter: rows of another are not used. */
    readonly converter: () => Promise<string> = converterStamp,
  ) {
    // Read now, while the files on disk are the ones this process loaded: an upgrade that
    // replaces them under a running process must not lend it the new release's stamp.
    void converter();
  }

  /** The kept document of `key`, if this converter made it from the same markdown. */
  async load(key: StoredKey): Promise<(Converted & { weight: number }) | undefined> {
    const row = await this.db
      .selectFrom('page_documents')
      .select(['body', 'asked', 'document', 'converter'])
      .where('space_id', '=', key.spaceId)
      .where('page_id', '=', key.pageId)
      .where('profile', '=', key.profile)
      .executeTakeFirst();
    if (!row || row.body !== key.body || row.converter !== (await this.converter())) return undefined;
    const json = inflateRawSync(row.document).toString('utf8');
    return {
      document: JSON.parse(json) as JsonDocument,
      asked: JSON.parse(row.asked) as Asked[],
      // The process's cache weighs documents by their markdown, a third to a quarter of their JSON.
      weight: 1 + Math.ceil(json.length / 3),
    };
  }

  /** Writes rows in `tx`, each replacing its page's and profile's row. */
  async write(tx: Tx, rows: StoredRow[]): Promise<void> {
    const converter = await this.converter();
    for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
      const values = rows.slice(start, start + WRITE_CHUNK).map((row) => ({
        space_id: row.spaceId,
        page_id: row.pageId,
        profile: row.profile,
        body: row.body,
        asked: JSON.stringify(row.asked),
        document: deflateRawSync(JSON.stringify(row.document)),
        converter,
      }));
      await tx
        .insertInto('page_documents')
        .values(values)
        .onConflict((conflict) =>
          conflict.columns(['space_id', 'page_id', 'profile']).doUpdateSet((eb) => ({
            body: eb.ref('excluded.body'),
            asked: eb.ref('excluded.asked'),
            document: eb.ref('excluded.document'),
            converter: eb.ref('excluded.converter'),
          })),
        )
        .execute();
    }
  }

  /** The space's rows whose conversion asked its links anything, without their documents. */
  async linkedRows(
    db: Db,
    spaceId: string,
  ): Promise<Array<{ pageId: string; body: string; asked: Asked[] }>> {
    const rows = await db
      .selectFrom('page_documents')
      .select(['page_id', 'body', 'asked'])
      .where('space_id', '=', spaceId)
      .where('asked', '<>', '[]')
      .execute();
    return rows.map((row) => ({
      pageId: row.page_id,
      body: row.body,
      asked: JSON.parse(row.asked) as Asked[],
    }));
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
