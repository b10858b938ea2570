const GONE: unique symbol = Symbol('gone');

/**
 * A copy of a map that copies only what is changed in it: the pages of a new revision differ
 * from the previous revision's in a few entries, and copying thousands of unchanged ones for
 * each write or merge would make its cost follow the size of the space.
 *
 * It reads through to the map it was made from (its base, which must not change afterwards, as
 * revision contents never do) and keeps its own edits aside. It iterates exactly as `new
 * Map(source)` edited the same way would: the base's order, then the keys added since (a key
 * deleted and set again moving last), so no reader can tell the two apart.
 */
export class CowMap<K, V> implements ReadonlyMap<K, V> {
  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    /** The keys set or deleted since `base`, with their value (GONE: deleted). */
    private readonly edits: Map<K, V | typeof GONE>,
    /** Keys that iterate after the base's: new keys, and base keys deleted and set again. */
    private readonly tail: Set<K>,
    private count: number,
  ) {}

  /**
   * A copy of `source` to edit. A copy of a copy shares the same base and copies only the edits,
   * so a chain of revisions never grows longer than one step. The edits pile up revision after
   * revision, though, so once they outgrow about √(base size) the copy starts over from a flat
   * `Map`: that costs the whole map, but so rarely that a revision's share of it stays about √n
   * entries (and the edits copied each time stay under that too), not n.
   */
  static of<K, V>(source: ReadonlyMap<K, V>): CowMap<K, V> {
    if (!(source instanceof CowMap)) return new CowMap(source, new Map(), new Set(), source.size);
    if (source.edits.size > 32 + 4 * Math.sqrt(source.base.size))
      return new CowMap(source.flat(), new Map(), new Set(), source.count);
    return new CowMap(source.base, new Map(source.edits), new Set(source.tail), source.count);
  }

  /** This map as a plain Map, in the same order (the native copy of the base is what makes it fast). */
  private flat(): Map<K, V> {
    const flat = new Map(this.base);
    for (const [key, value] of this.edits) {
      // Keys of the tail are set again below, after the base's.
      if (value === GONE || this.tail.has(key)) flat.delete(key);
      else flat.set(key, value);
    }
    for (const key of this.tail) flat.set(key, this.edits.get(key) as V);
    return flat;
  }

  get size(): number {
    return this.count;
  }

  has(key: K): boolean {
    return this.edits.has(key) ? this.edits.get(key) !== GONE : this.base.has(key);
  }

  get(key: K): V | undefined {
    if (!this.edits.has(key)) return this.base.get(key);
    const value = this.edits.get(key);
    return value === GONE ? undefined : value;
  }

  set(key: K, value: V): this {
    if (!this.has(key)) {
      this.count++;
      // Absent keys (new ones, and deleted ones, which left `tail`) go last, as in a Map.
      this.tail.add(key);
    }
    this.edits.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    if (!this.has(key)) return false;
    this.count--;
    this.tail.delete(key);
    if (this.base.has(key)) this.edits.set(key, GONE);
    else this.edits.delete(key);
    return true;
  }

  *entries(): MapIterator<[K, V]> {
    for (const entry of this.base) {
      if (!this.edits.has(entry[0])) yield entry;
      else if (!this.tail.has(entry[0])) {
        const value = this.edits.get(entry[0])!;
        if (value !== GONE) yield [entry[0], value];
      }
    }
    for (const key of this.tail) yield [key, this.edits.get(key) as V];
  }

  *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
