import { deepFreeze } from '../deep-freeze.js';

/**
 * A cache of the lookups every request repeats (the token, the caller's membership and
 * organization), valid only while the database is unchanged: each entry carries the generation
 * it was read at, and any commit, by this process or another, moves the generation. So a revoked
 * token or a removed member is refused on the very next request. SQLite tells through
 * `PRAGMA data_version` (SqliteChanges), PostgreSQL through a change counter (PgChanges); a
 * source that cannot tell for now answers no generation, and nothing is cached meanwhile.
 */
export interface ChangeSource {
  generation(): string | undefined;
  /** Brings the generation up to date with every commit made before the call (each request's first step). */
  sync?(): Promise<void>;
}

export class ReadCache {
  /** Each answer kept as a settled promise: a hit hands out the same one, allocating nothing. */
  private readonly entries = new Map<string, { generation: string; answer: Promise<unknown> }>();

  constructor(
    private readonly source: ChangeSource,
    private readonly capacity = 10_000,
  ) {}

  /** The database's generation now (undefined while it cannot be told): what a cached answer is valid for. */
  generation(): string | undefined {
    return this.source.generation();
  }

  /** Called as a request arrives, before anything it reads. */
  sync(): Promise<void> | undefined {
    return this.source.sync?.();
  }

  read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const generation = this.source.generation();
    if (generation === undefined) return load();
    const hit = this.entries.get(key);
    if (hit && hit.generation === generation) return hit.answer as Promise<T>;
    return load().then((value) => {
      if (this.entries.size >= this.capacity) this.entries.clear();
      this.entries.set(key, { generation, answer: Promise.resolve(deepFreeze(value)) });
      return value;
    });
  }
}
