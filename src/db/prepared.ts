import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database.js';
import { keepPrepared } from './pg-dialect.js';
import type { ReadCache } from './read-cache.js';

type ParamValue = string | number | null;

const MARK = '\u0000quire-param:';

/** Numbers each prepared query, to key its cached results. */
let queries = 0;

/**
 * A query built and compiled once, then run with new parameter values: building and compiling a
 * Kysely query costs more than running a point lookup, so the few queries every request makes
 * (token, membership, organization) skip it. Only scalar parameters can vary; anything that
 * changes the SQL text (lists, optional clauses) belongs in an ordinary query.
 */
export class PreparedQuery<P extends Record<string, ParamValue>, Row> {
  private template:
    | { sql: string; query: CompiledQuery['query']; slots: Array<{ name: string } | { value: unknown }> }
    | undefined;

  constructor(
    private readonly db: Db,
    private readonly build: (params: P) => Compilable<Row>,
    /** When set, results are kept while the database is unchanged (see ReadCache). */
    private readonly cache?: ReadCache,
  ) {}

  private compile() {
    const marker = new Proxy({} as P, { get: (_t, name) => `${MARK}${String(name)}` });
    const compiled = this.build(marker).compile();
    const slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) } : { value },
    );
    this.template = { sql: compiled.sql, query: compiled.query, slots };
    keepPrepared(compiled.sql);
    return this.template;
  }

  execute(params: P): Promise<Row[]> {
    if (!this.cache) return this.run(params);
    return this.cache.read(this.keyOf(params), () => this.run(params));
  }

  /**
   * The parameters in one string, in the statement's order whatever the object's, and typed, so
   * that 1, "1" and null stay apart. Cheaper than JSON.stringify on every request's lookups.
   */
  private keyOf(params: P): string {
    let key = this.cacheKey;
    for (const slot of (this.template ?? this.compile()).slots) {
      if (!('name' in slot)) continue;
      const value = params[slot.name];
      key += typeof value === 'string' ? `\u0000s${value}` : `\u0000${value}`;
    }
    return key;
  }

  private readonly cacheKey = `q${++queries}:`;

  private async run(params: P): Promise<Row[]> {
    const template = this.template ?? this.compile();
    const parameters = template.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value));
    const result = await this.db.executeQuery<Row>(CompiledQuery.raw(template.sql, parameters));
    return result.rows;
  }

  async first(params: P): Promise<Row | undefined> {
    return (await this.execute(params))[0];
  }
}

export function prepared<P extends Record<string, ParamValue>, Row>(
  db: Db,
  build: (params: P) => Compilable<Row>,
  cache?: ReadCache,
): PreparedQuery<P, Row> {
  return new PreparedQuery(db, build, cache);
}
